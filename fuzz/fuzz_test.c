/* SPDX-License-Identifier: Apache-2.0 */
/* onnxshape test on a backend-test directory made from the fuzzer's bytes:
 * model.onnx, then test_data_set_0/input_0.pb and output_0.pb (each cut by
 * a two-byte length), and, when a flag byte says so, an extra input_1.pb
 * or output_1.pb, or no output at all; run alone or as a suite's case, with
 * --json or --strict. */
#include "fuzz_cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_cli_init();
  uint8_t flags = size > 0 ? data[0] : 0;
  if (size > 0) {
    data++;
    size--;
  }
  const uint8_t *model, *rest, *input, *output;
  size_t n_model, n_rest, n_input, n_output;
  fuzz_split(data, size, &model, &n_model, &rest, &n_rest);
  fuzz_split(rest, n_rest, &input, &n_input, &output, &n_output);
  char dir[160], set[200];
  snprintf(dir, sizeof dir, "%s/case", fuzz_dir);
  snprintf(set, sizeof set, "%s/test_data_set_0", dir);
  mkdir(dir, 0755);
  mkdir(set, 0755);
  (void)fuzz_file("case/model.onnx", model, n_model);
  (void)fuzz_file("case/test_data_set_0/input_0.pb", input, n_input);
  char extra[240];
  snprintf(extra, sizeof extra, "%s/output_0.pb", set);
  if (flags & 1) (void)fuzz_file("case/test_data_set_0/output_0.pb", output, n_output);
  else unlink(extra);
  snprintf(extra, sizeof extra, "%s/input_1.pb", set);
  if (flags & 2) (void)fuzz_file("case/test_data_set_0/input_1.pb", input, n_input);
  else unlink(extra);
  snprintf(extra, sizeof extra, "%s/output_1.pb", set);
  if (flags & 4) (void)fuzz_file("case/test_data_set_0/output_1.pb", output, n_output);
  else unlink(extra);
  /* Flag 8: through a suite whose test_case links to the case; 16: --json
   * (the mismatch as fields); 32: --strict. */
  char suite[160], link[200];
  snprintf(suite, sizeof suite, "%s/suite", fuzz_dir);
  snprintf(link, sizeof link, "%s/test_case", suite);
  mkdir(suite, 0755);
  (void)symlink("../case", link);
  char json[] = "--json", strict[] = "--strict";
  char *argv[4];
  int argc = 0;
  argv[argc++] = flags & 8 ? suite : dir;
  if (flags & 16) argv[argc++] = json;
  if (flags & 32) argv[argc++] = strict;
  argv[argc] = NULL;
  FUZZ_CHECK_EXIT(cli_test(argc, argv));
  return 0;
}
