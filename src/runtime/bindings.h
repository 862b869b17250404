/* SPDX-License-Identifier: Apache-2.0 */
/* The bindings of an analysis (bindings.c): what --input and --dim fix. */
#ifndef ONNXSHAPE_BINDINGS_H
#define ONNXSHAPE_BINDINGS_H

#include "analysis.h"

/* A symbol fixed for the whole analysis: by --dim, or by an --input binding
 * of an input that declares it. */
typedef struct binding {
  const char *symbol;
  int64_t value;
  const char *input; /* the input whose binding fixed it, or NULL (--dim) */
} binding;

typedef struct an_bindings {
  binding *bound; /* every symbol binding */
  size_t n_bound;
  const onnxshape_input_dims **input_binding; /* per main-graph input, or NULL */
} an_bindings;

/* Calls visit(ctx, symbol) for each dim_param of every declaration of the
 * model (inputs, outputs, value_info and sparse initializers of every
 * graph) until it returns nonzero; returns that, or 0. */
int onnxshape__each_symbol(const onnxshape_model *m, int (*visit)(void *ctx, const char *sym),
                           void *ctx);

/* Checks every binding of o against model m and the others, and collects
 * them into *b (in arena): ONNXSHAPE_OK; ONNXSHAPE_ERR_NOT_FOUND or
 * ONNXSHAPE_ERR_INVALID_ARGUMENT, worded (docs/cli.md, "infer");
 * ONNXSHAPE_ERR_OUT_OF_MEMORY, not worded. */
onnxshape_status onnxshape__take_bindings(const onnxshape_model *m, const onnxshape_infer_options *o,
                                          onnxshape__arena *arena, an_bindings *b,
                                          onnxshape_diag *diag);

#endif
