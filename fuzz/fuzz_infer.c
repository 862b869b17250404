/* SPDX-License-Identifier: Apache-2.0 */
/* onnxshape infer on arbitrary bytes as a model file: every value, the
 * table of --ops shape, or the chain of --why y (y: the output name of
 * most seeds), the view chosen by the input's size. */
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
  default: {
    char *argv[] = {file, NULL};
    FUZZ_CHECK_EXIT(cli_infer(1, argv));
    break;
  }
  }
  return 0;
}
