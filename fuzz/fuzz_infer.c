/* SPDX-License-Identifier: Apache-2.0 */
/* onnxshape infer on arbitrary bytes as a model file. */
#include "fuzz_cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_cli_init();
  fuzz_cli_mapping(size & 1);
  char *argv[] = {(char *)fuzz_file("model.onnx", data, size), NULL};
  FUZZ_CHECK_EXIT(cli_infer(1, argv));
  return 0;
}
