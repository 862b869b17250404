/* SPDX-License-Identifier: Apache-2.0 */
/* onnxshape infer on arbitrary bytes as a model file: every value, the
 * table of --ops shape, the chain of --why y (y: the output name of most
 * seeds), or --write-model, the view chosen by the input's size. A model
 * written by --write-model must load and analyse again without a failure
 * (its values spliced in change nothing that makes a node fail). */
#include "fuzz_cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_cli_init();
  fuzz_cli_mapping(size & 1);
  char *file = (char *)fuzz_file("model.onnx", data, size);
  switch ((size >> 1) % 4) {
  case 1: {
    char *argv[] = {"--ops", "shape", file, NULL};
    FUZZ_CHECK_EXIT(cli_infer(3, argv));
    break;
  }
  case 2: {
    char *argv[] = {"--why", "y", file, NULL};
    FUZZ_CHECK_EXIT(cli_infer(3, argv));
    break;
  }
  case 3: {
    static char out[128];
    snprintf(out, sizeof out, "%s/written.onnx", fuzz_dir);
    (void)remove(out);
    char *argv[] = {"--write-model", out, file, NULL};
    int rc = cli_infer(3, argv);
    FUZZ_CHECK_EXIT(rc);
    if (rc == 0) {
      char *again[] = {out, NULL};
      FUZZ_CHECK(cli_infer(1, again) == 0);
    } else {
      FUZZ_CHECK(access(out, F_OK) != 0);
    }
    break;
  }
  default: {
    char *argv[] = {file, NULL};
    FUZZ_CHECK_EXIT(cli_infer(1, argv));
    break;
  }
  }
  return 0;
}
