/* SPDX-License-Identifier: Apache-2.0 */
/* The onnxshape command: run, test, infer and check ONNX models of Shape,
 * Reshape, Size, Constant and Identity nodes. Uses only the public API; the
 * commands are in cli/cmd_*.c, dispatched by cli_main() (commands.c). */
#include "cli.h"

int main(int argc, char **argv) { return cli_main(argc, argv); }
