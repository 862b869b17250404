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

/* LIMIT-ANALYSIS-WORK: one analysis spends at most this many units of
 * work for a model of `len` bytes (a unit: one dim, element, input or term
 * looked at or written), 2^22 plus 64 per byte. Every loop over data whose
 * size comes from the model charges its units before it runs (an_charge;
 * an_set_rank, an_set_vals and an_alloc charge what they allocate): a node
 * that cannot afford its work has its outputs left unknown and is counted,
 * and analysis goes on. So a hostile node (a Max of 1,024 inputs of rank
 * 1,024, a function called a thousand times) costs at most the budget, and
 * time stays linear in the file's size. */
#define AN_WORK_BASE ((uint64_t)1 << 22)
#define AN_WORK_PER_BYTE 64u
static inline uint64_t an_work_limit(size_t len) {
  uint64_t per = (uint64_t)len > (UINT64_MAX - AN_WORK_BASE) / AN_WORK_PER_BYTE
                     ? UINT64_MAX - AN_WORK_BASE
                     : (uint64_t)len * AN_WORK_PER_BYTE;
  return AN_WORK_BASE + per;
}

typedef struct an_ctx {
  onnxshape__arena *arena; /* all analysis memory */
  slot_info *slots;        /* by slot id */
  uint64_t work_left;      /* units this analysis may still spend */
  uint64_t work_used;      /* units spent */
  int out_of_work;         /* the node being evaluated could not afford its work */
  size_t nodes_out_of_work; /* nodes whose outputs were left unknown for the budget */
  const void *last_stopped; /* the node counted last (each node counts once) */
  size_t memory_soft;      /* the arena's `taken` past which evaluation stops as it does at
                              the work budget (the rest is for the results) */
} an_ctx;

/* Spends `units` of the budget: 1, or 0 (nothing spent, c->out_of_work
 * set) when they are more than is left. */
static inline int an_charge(an_ctx *c, uint64_t units) {
  if (units > c->work_left) {
    c->out_of_work = 1;
    return 0;
  }
  c->work_left -= units;
  c->work_used += units;
  return 1;
}

/* a * b, saturated at UINT64_MAX (a cost past any budget). */
static inline uint64_t an_mul(uint64_t a, uint64_t b) {
  return a != 0 && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

/* The functions below that return int give 1, or 0 when the work budget
 * or the analysis's share of memory ran out (c->out_of_work: the node is
 * left unknown) or the machine's memory did (an error): the caller stops at
 * once and returns 0 too. */
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
/* Evaluates node n into its output slots: ONNXSHAPE_OK (also when the
 * work budget ran out: the outputs are then unknown, and
 * c->nodes_out_of_work counts the node); the kernels' status of a Shape,
 * Reshape or Size node that cannot succeed whatever the data (message in
 * diag); ONNXSHAPE_ERR_OUT_OF_MEMORY. */
onnxshape_status an_eval(an_ctx *c, const graph_node *n, onnxshape_diag *diag);
/* Reports (PORTABILITY) where node n's result depends on a point where the
 * specification and widely used implementations disagree. */
void an_portability(an_ctx *c, const graph_node *n, const char *path, onnxshape__report_fn report,
                    void *ctx);
/* After an_* returned 0 for node n outside an_eval (infer.c: If outputs,
 * calls, declarations): ONNXSHAPE_OK with n's outputs left unknown and the
 * node counted when it was the work budget, else
 * ONNXSHAPE_ERR_OUT_OF_MEMORY (no message: the caller words it). */
onnxshape_status an_stopped(an_ctx *c, const graph_node *n);

#endif
