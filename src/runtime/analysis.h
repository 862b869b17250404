/* SPDX-License-Identifier: Apache-2.0 */
/* Static analysis inside the runtime: the value lattice (lattice.c), the
 * evaluation of one node (analysis.c), the portability risks
 * (portability.c); the traversal of graphs is infer.c. */
#ifndef ONNXSHAPE_ANALYSIS_H
#define ONNXSHAPE_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#include "../onnx/arena.h"
#include "expr.h"
#include "runtime.h"

/* The analyser's external names carry the library's prefix: these
 * short names are only what its sources call them. */
#define an_set_rank onnxshape__an_set_rank
#define an_set_vals onnxshape__an_set_vals
#define an_from_tensor onnxshape__an_from_tensor
#define an_copy onnxshape__an_copy
#define an_join onnxshape__an_join
#define an_all_known onnxshape__an_all_known
#define an_slot_sound onnxshape__an_slot_sound
#define an_all_unknown onnxshape__an_all_unknown
#define an_evaluates onnxshape__an_evaluates
#define an_eval onnxshape__an_eval
#define an_handler onnxshape__an_handler
#define an_if_taken onnxshape__an_if_taken
#define an_stopped onnxshape__an_stopped
#define an_portability onnxshape__an_portability
#define int_type_of onnxshape__an_int_type_of
#define int_range onnxshape__an_int_range
#define is_int_type onnxshape__an_is_int_type
#define read_elem onnxshape__an_read_elem
#define small_count onnxshape__an_small_count
#define same_elem onnxshape__an_same_elem
#define an_alloc onnxshape__an_alloc
#define count_stopped onnxshape__an_count_stopped
#define an_afford onnxshape__an_afford
#define an_attr onnxshape__an_attr
#define an_subgraph onnxshape__an_subgraph
#define an_attr_int onnxshape__an_attr_int
#define an_attr_float onnxshape__an_attr_float
#define an_attr_ints onnxshape__an_attr_ints
#define an_attr_is onnxshape__an_attr_is
#define an_has_attr onnxshape__an_has_attr
#define an_int_list onnxshape__an_int_list
#define an_list_length onnxshape__an_list_length
#define an_norm_axis onnxshape__an_norm_axis
#define an_scan_element onnxshape__an_scan_element
#define an_in_range onnxshape__an_in_range
#define an_broadcast onnxshape__an_broadcast
#define an_out onnxshape__an_out
#define an_set_dims onnxshape__an_set_dims
#define an_set_unknown_dims onnxshape__an_set_unknown_dims
#define an_equate onnxshape__an_equate
#define an_sym onnxshape__an_sym
#define an_expr_charge onnxshape__an_expr_charge
#define an_reduce_dims onnxshape__an_reduce_dims
#define an_div_valid onnxshape__an_div_valid

/* An element (a dim or an integer value): a number (known), an
 * expression over symbols (e, expr.h), or unknown. */
typedef an_val an_elem;

static inline an_elem an_num(int64_t v) { return an_val_num(v); }
static inline an_elem an_unknown(void) { return an_val_unknown(); }
/* 1 for a number or an expression. */
static inline int an_is_set(an_elem e) { return e.known || e.e != NULL; }

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
  /* A sequence or an optional (ops_sequence.c): kind AN_SEQUENCE or
   * AN_OPTIONAL, and then type 0, rank and elements not known and value
   * NULL, so that a tensor operator taking it sees nothing known (a model
   * giving it one is not valid). */
  int kind;
  const struct slot_info *elem; /* a sequence's elements (what every one of them has in
                                   common), an optional's element; NULL when nothing is
                                   known; never changed once set (shared by copies) */
  an_elem seq_len;              /* a sequence's length */
  int opt_has;                  /* an optional: 0 not known, AN_OPT_FULL or AN_OPT_EMPTY */
} slot_info;

/* slot_info.kind: a tensor or nothing known (0), a sequence, an optional. */
#define AN_SEQUENCE 1
#define AN_OPTIONAL 2
/* slot_info.opt_has. */
#define AN_OPT_FULL 1
#define AN_OPT_EMPTY 2

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
  /* Through a uint64_t variable: a 32-bit size_t never passes the bound,
   * and comparing it directly is a type-limits warning there. */
  uint64_t n = (uint64_t)len;
  uint64_t per = n > (UINT64_MAX - AN_WORK_BASE) / AN_WORK_PER_BYTE
                     ? UINT64_MAX - AN_WORK_BASE
                     : n * AN_WORK_PER_BYTE;
  return AN_WORK_BASE + per;
}

typedef struct an_ctx {
  onnxshape__arena *arena; /* all analysis memory */
  an_exprs *x;             /* the expressions of dims and values */
  int certain;             /* the node being evaluated runs whenever the model does (not in a
                              subgraph that may not run): only then does what a valid model
                              requires of it hold (an_equate) */
  slot_info *slots;        /* by slot id */
  uint64_t work_left;      /* units this analysis may still spend */
  uint64_t work_used;      /* units spent */
  int out_of_work;         /* the node being evaluated could not afford its work */
  size_t nodes_out_of_work; /* nodes whose outputs were left unknown for the budget */
  size_t texts_dropped;    /* results' expressions shown as not known (infer.c, text_of) */
  size_t publish_left;     /* bytes of text the results may still print (text_of) */
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
/* The elements of out (its r dims set, each a number) taken from x's (x's
 * dims numbers, its elements known): the element at out's coordinates k is
 * x's at coordinates p with p[ax[i]] = first[i] + k[i] * step[i] (Slice:
 * ax the identity; Transpose: first 0, step 1, ax the permutation). Each
 * such p is inside x (the caller's ranges say so; checked all the same).
 * 1 (out's elements left as they were when x's are not known, when r > 64,
 * or when a p falls outside x); 0 out of budget or memory. Charges r units
 * per element. */
int an_take_strided(an_ctx *c, slot_info *out, const slot_info *x, size_t r, const size_t *ax,
                    const int64_t *first, const int64_t *step);
/* out = what a and b have in common (If with a condition not known). */
int an_join(an_ctx *c, slot_info *out, const slot_info *a, const slot_info *b);
int an_all_known(const an_elem *x, size_t n);
/* 1 when s holds the lattice's invariants: every known dim or element is a
 * number or an expression in canonical form, never both; a known dim is
 * >= 0; a known rank has its dims; known elements number as many as the
 * known dims make (1 for a scalar) and at most MAX_ENUM. Asserted for
 * every output of every node in debug and sanitizer builds (an_eval). */
int an_slot_sound(const slot_info *s);
int an_all_unknown(const an_elem *x, size_t n);
/* A handler of the operator registry (src/core/operators.h): evaluates
 * node n into its output slots (what it leaves unset is unknown), with
 * an_eval's results. */
typedef onnxshape_status (*an_op_fn)(an_ctx *c, const graph_node *n, onnxshape_diag *diag);
#define ONNXSHAPE__AN_DECLARE(id, name, handler, flags, since) \
  onnxshape_status onnxshape__an_op_##handler(an_ctx *c, const graph_node *n, onnxshape_diag *diag);
ONNXSHAPE__OPERATORS(ONNXSHAPE__AN_DECLARE)
#undef ONNXSHAPE__AN_DECLARE
/* The handler of an operator analysis does not evaluate (no row names it
 * today: an_handler's answer for an operator out of the table). */
onnxshape_status onnxshape__an_op_none(an_ctx *c, const graph_node *n, onnxshape_diag *diag);
/* Operator op's handler (onnxshape__an_op_none: not evaluated). */
an_op_fn an_handler(operator_id op);
/* 1 when analysis evaluates node n's outputs: a handler other than none,
 * at a version the model's opset has. */
int an_evaluates(const graph_node *n);
/* If node n: the branch its condition takes (0 then, 1 else), or -1 when
 * the condition is not known. */
int an_if_taken(an_ctx *c, const graph_node *n);
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


/* Input k of node n, or NULL when absent. */
static inline slot_info *in(an_ctx *c, const graph_node *n, size_t k) {
  return k < n->n_inputs && n->inputs[k] != NO_SLOT ? &c->slots[n->inputs[k]] : NULL;
}

/* ---- lattice.c: beside the functions above ---- */

/* The integer (and bool) types whose elements are tracked: their storage
 * and their range (uint64 values past INT64_MAX are not tracked). */
typedef struct int_type {
  int32_t type;
  unsigned bytes;
  int sign;
  int64_t lo, hi;
} int_type;
/* Type t's row, or NULL when its elements are not tracked. */
const int_type *int_type_of(int32_t t);
/* t's range: 1 with *lo and *hi, or 0 when t is not tracked. */
int int_range(int32_t t, int64_t *lo, int64_t *hi);
int is_int_type(int32_t t);
/* Element i of an integer or bool tensor (little-endian storage): 1 and *v,
 * or 0 when it is past the data or not representable. */
int read_elem(const onnxshape_tensor *t, size_t i, int64_t *v);
/* The element count of s when its dims are all numbers and it is at most
 * MAX_ENUM: 1 and *n; else 0. */
int small_count(const slot_info *s, size_t *n);
/* 1 when a and b are the same number or the same expression (symbols a
 * valid model makes equal merged). */
int same_elem(an_ctx *c, an_elem a, an_elem b);
/* Records that a valid model makes a and b equal, when the node being
 * evaluated is certain to run (a contradiction is left for check). */
void an_equate(an_ctx *c, an_elem a, an_elem b);
/* The symbol `name` (a dim_param), or its number when it is bound. */
an_elem an_sym(an_ctx *c, const char *name);
/* A declared dim: its number, its symbol (the symbol's number when
 * bound), or unknown. */
an_elem an_decl_dim(an_ctx *c, const decl_dim *d);
/* s's type (unless one is computed already) and dims from a declaration,
 * bindings applied (int as above). */
int an_from_decl(an_ctx *c, slot_info *s, const value_decl *d);
/* The expression charge function of c (expr.h): work, and the
 * evaluation's share of memory. */
int an_expr_charge(void *c, uint64_t units);
/* n items of `size`, or NULL when memory or the budget ran out (the
 * caller fills them: n units of work are charged). */
void *an_alloc(an_ctx *c, size_t n, size_t size);
/* Node n could not afford its work: counted once. */
void count_stopped(an_ctx *c, const graph_node *n);
/* For a part of node n's result that can be left unknown (element values
 * beside dims): 1 when `units` are spent, else 0, the node counted. */
int an_afford(an_ctx *c, const graph_node *n, uint64_t units);


/* ---- ops_common.c: the handler toolkit ---- */

/* Node n's attribute `name`, or NULL. */
const node_attr *an_attr(const graph_node *n, const char *name);
/* Node n's graph attribute `name` (as loaded), or NULL. */
const model_graph *an_subgraph(const graph_node *n, const char *name);
/* An INT, FLOAT or INTS attribute (NULL for INTS absent or of another
 * type, else its *len values); the default when absent or of another type. */
int64_t an_attr_int(const graph_node *n, const char *name, int64_t def);
double an_attr_float(const graph_node *n, const char *name, double def);
const int64_t *an_attr_ints(const graph_node *n, const char *name, size_t *len);
/* 1 when STRING attribute `name` is exactly `value`. */
int an_attr_is(const graph_node *n, const char *name, const char *value);
int an_has_attr(const graph_node *n, const char *name);
/* A list of numbers from an INTS attribute (version < since) or from input
 * k: 1 with *v and *len when every number is known and at most cap, 0
 * otherwise; *absent says it is not given at all. */
int an_int_list(an_ctx *c, const graph_node *n, const char *name, int since, size_t k,
                int64_t *v, size_t cap, size_t *len, int *absent);
/* The length of such a list when known (its values need not be). */
int an_list_length(an_ctx *c, const graph_node *n, const char *name, int since, size_t k,
                   size_t *len);
/* An axis in [-r, r-1] (or [0, r-1] when negatives are not allowed) as
 * 0..r-1, or -1. */
int64_t an_norm_axis(int64_t axis, size_t r, int negative_ok);
/* Body input i of Scan node n when it is a scan input: the outer value's
 * element in *s and its position in n in *outer, 1 (-1 when out of budget
 * or memory); 0 for a state (ops_control.c). */
int an_scan_element(an_ctx *c, const graph_node *n, const model_graph *body, size_t i,
                    slot_info *s, size_t *outer);
/* e when it is a number in type's range (or not a number), else unknown. */
an_elem an_in_range(an_elem e, int32_t type);
/* out's dims: the multidirectional broadcast of the k inputs' dims (a
 * NULL input or one of unknown rank leaves out's rank unknown). */
int an_broadcast(an_ctx *c, slot_info *out, slot_info *const *ins, size_t k);
/* Output k of node n, or NULL when absent. */
slot_info *an_out(an_ctx *c, const graph_node *n, size_t k);
/* out's dims: rank copies of dims; or rank dims not known. */
int an_set_dims(an_ctx *c, slot_info *out, const an_elem *dims, size_t rank);
int an_set_unknown_dims(an_ctx *c, slot_info *out, size_t rank);
/* Output k of n as x's dims with element type `type` (0: not known); its
 * rank stays unknown when x's is (or x is NULL). Returns 0 when out of work
 * or memory. */
int an_like(an_ctx *c, const graph_node *n, size_t k, const slot_info *x, int32_t type);
/* x's element type, or 0 when x is absent. */
static inline int32_t an_type_of(const slot_info *x) { return x != NULL ? x->type : 0; }
/* The status of a rule that returned 0: the budget or memory ran out. */
static inline onnxshape_status an_done(int ok) {
  return ok ? ONNXSHAPE_OK : ONNXSHAPE_ERR_OUT_OF_MEMORY;
}

/* A handler (an_op_fn) computing node n's outputs by `call` (an int: 0
 * when out of budget or memory). */
#define AN_HANDLER(h, call)                                                                     \
  onnxshape_status onnxshape__an_op_##h(an_ctx *c, const graph_node *n, onnxshape_diag *diag) { \
    (void)diag;                                                                                 \
    return (call) ? ONNXSHAPE_OK : ONNXSHAPE_ERR_OUT_OF_MEMORY;                                 \
  }
/* The same for an operator whose first output is all it computes: nothing
 * to do when that output is left out. */
#define AN_FIRST_OUTPUT(h, call) AN_HANDLER(h, an_out(c, n, 0) == NULL || (call))

/* ---- ops_index.c, ops_tensor.c ---- */

/* d / k where a valid model has k dividing d (k > 0): a number, when k
 * divides it (else unknown); for an expression, d / k or floor(d / k). */
an_elem an_div_valid(an_ctx *c, an_elem d, int64_t k);

/* out's type and dims: node n's reduction of x (axes an attribute before
 * version `since`, input 1 from it, with noop_with_empty_axes; keepdims).
 * *all: every dim reduced (the output holds one element). */
int an_reduce_dims(an_ctx *c, const graph_node *n, int since, slot_info *out, const slot_info *x,
                   int *all);

#endif
