/* SPDX-License-Identifier: Apache-2.0 */
#ifndef ONNXSHAPE_CLI_H
#define ONNXSHAPE_CLI_H

#include <stdio.h>

#include <onnxshape.h>

/* Human form: "NAME: TYPE [d0,d1] = [v0, v1, ...]", long tensors abbreviated
 * to their first and last values. */
void cli_print_tensor(FILE *f, const char *name, const onnxshape_tensor *t);
/* One JSON object on one line, with every value. */
void cli_print_json(FILE *f, const char *name, const onnxshape_tensor *t);
/* "[2,3,4]"; symbols by name and unknown dims as "?". */
void cli_print_dims(FILE *f, size_t rank, const int64_t *dims, const char *const *params);

#endif
