/* SPDX-License-Identifier: Apache-2.0 */
/* onnxshape run on a model file and one input tensor file, both from the
 * fuzzer's bytes (a flag byte, a two-byte length, the model, the tensor),
 * printed as text or (flag 1) JSON and written to a directory with -o. Whatever happens, the
 * directory then holds only complete outputs: no temporary file. */
#include "fuzz_cli.h"

#include <dirent.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_cli_init();
  int json = size > 0 && (data[0] & 1);
  fuzz_cli_mapping(size > 0 && (data[0] & 2));
  if (size > 0) {
    data++;
    size--;
  }
  const uint8_t *model, *tensor;
  size_t n_model, n_tensor;
  fuzz_split(data, size, &model, &n_model, &tensor, &n_tensor);
  char out[160];
  snprintf(out, sizeof out, "%s/out", fuzz_dir);
  mkdir(out, 0755);
  char *argv[] = {(char *)fuzz_file("model.onnx", model, n_model), "-i",
                  (char *)fuzz_file("input.pb", tensor, n_tensor), "-o", out,
                  json ? "--json" : NULL, NULL};
  int argc = argv[5] != NULL ? 6 : 5;
  FUZZ_CHECK_EXIT(cli_run(argc, argv));
  DIR *d = opendir(out);
  FUZZ_CHECK(d != NULL);
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.' && (e->d_name[1] == '\0' || strcmp(e->d_name, "..") == 0)) continue;
    FUZZ_CHECK(strncmp(e->d_name, "output_", 7) == 0); /* no temporary is left */
    char path[512];
    snprintf(path, sizeof path, "%s/%s", out, e->d_name);
    unlink(path);
  }
  closedir(d);
  return 0;
}
