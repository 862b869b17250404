/* SPDX-License-Identifier: Apache-2.0 */
/* The value lattice of static analysis and the evaluation of one node
 * (src/runtime/analysis.c; the traversal of graphs is src/runtime/infer.c). */
#ifndef ONNXSHAPE_ANALYSIS_H
#define ONNXSHAPE_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#include "../onnx/arena.h"
#include "runtime.h"

/* An element (a dim or a value): a number, a symbol, or unknown. */
typedef struct an_elem {
  int known;
  int64_t v;
  const char *param; /* the symbol when not known, or NULL */
} an_elem;

static inline an_elem an_num(int64_t v) { return (an_elem){1, v, NULL}; }
static inline an_elem an_sym(const char *param) { return (an_elem){0, -1, param}; }
static inline an_elem an_unknown(void) { return (an_elem){0, -1, NULL}; }

/* What is known of a value. */
typedef struct slot_info {
  int32_t type;   /* element type, 0 when unknown */
  int rank_known;
  size_t rank;
  an_elem *dims;
  int vals_known; /* 1 when vals lists its elements (row-major) */
  size_t n_vals;
  an_elem *vals;
  const onnxshape_tensor *value; /* the whole value, when constant */
} slot_info;

/* Elements are tracked for integer and bool tensors of at most this many
 * elements; a Reshape target longer than this gives an output of unknown
 * rank (LIMIT-MEMORY: real models stay far below it). */
#define MAX_ENUM 1024u

/* One node's dims are worked out element by element, inputs times rank, up
 * to this many (LIMIT-ANALYSIS-WORK): a Max of 200,000 inputs of rank
 * 20,000 would otherwise take time in the square of the file's size. Past
 * it the output's dims are left unknown. */
#define MAX_WORK ((size_t)1 << 20)

typedef struct an_ctx {
  onnxshape__arena *arena; /* all analysis memory */
  slot_info *slots;        /* by slot id */
} an_ctx;

int an_set_rank(an_ctx *c, slot_info *s, size_t rank);
/* Values of s: n elements, all unknown. */
int an_set_vals(an_ctx *c, slot_info *s, size_t n);
/* s from a concrete tensor; its elements too when value_known (integer and
 * bool types, at most MAX_ENUM elements). */
int an_from_tensor(an_ctx *c, slot_info *s, const onnxshape_tensor *t, int value_known);
/* out = in (deep enough: out may be changed later). */
int an_copy(an_ctx *c, slot_info *out, const slot_info *in);
/* out = what a and b have in common (If with a condition not known). */
int an_join(an_ctx *c, slot_info *out, const slot_info *a, const slot_info *b);
int an_all_known(const an_elem *x, size_t n);
int an_all_unknown(const an_elem *x, size_t n);
/* 1 when analysis evaluates node n's outputs (kernels, Constant, Identity,
 * the operators of aops.h but Loop and Scan). */
int an_evaluates(const graph_node *n);
/* Evaluates node n into its output slots: ONNXSHAPE_OK; the kernels'
 * status of a Shape, Reshape or Size node that cannot succeed whatever the
 * data (message in diag); ONNXSHAPE_ERR_OUT_OF_MEMORY. */
onnxshape_status an_eval(an_ctx *c, const graph_node *n, onnxshape_diag *diag);
/* Reports (PORTABILITY) where node n's result depends on a point where the
 * specification and widely used implementations disagree. */
void an_portability(an_ctx *c, const graph_node *n, const char *path, onnxshape__report_fn report,
                    void *ctx);

#endif
