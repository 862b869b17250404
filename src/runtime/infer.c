/* SPDX-License-Identifier: Apache-2.0 */
/* What can be known of every value of a model without input data
 * (docs/analysis.md): the traversal of graphs, the inputs and their
 * bindings, the declarations, subgraphs and calls, and the published
 * result. A value has an element type, dims (each a number, an expression
 * over symbols or unknown; or unknown rank) and, for integer and bool
 * tensors of at most MAX_ENUM elements, element values known the same way.
 * One node's evaluation is its handler's, through the operator registry
 * (registry.c): Shape, Reshape and Size through the kernels' own rule code,
 * the others exactly where the ONNX specification determines the result;
 * a node without a handler has its outputs take
 * what value_info or a graph output declaration says. Subgraphs see the
 * values around them. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../core/internal.h"
#include "../onnx/alloc.h"
#include "../onnx/arena.h"
#include "analysis.h"
#include "bindings.h"
#include "runtime.h"

/* A node certain to fail, recorded with keep_going. */
typedef struct failure {
  onnxshape_status status;
  const char *message; /* in the arena */
} failure;

struct onnxshape_inference {
  size_t n;
  onnxshape_value_info *infos; /* in arena */
  slot_info *slots;            /* by slot id, in arena (while the analysis runs) */
  unsigned char *origin;       /* by slot id: its onnxshape_origin (in arena) */
  unsigned char *decl_used;    /* by slot id: 1 when a declaration completed its evaluation */
  unsigned char *hearsay;      /* by slot id: 1 when what is known of it rests on a declaration
                                  onnxruntime does not hold the value to (a subgraph's input,
                                  a node's output not evaluated, dims a declaration completed),
                                  or on such a value: a node that fails on it may yet run */
  onnxshape__arena *arena;     /* everything, within the model's memory limit (LIMIT-MEMORY) */
  onnxshape_infer_summary summary;
  onnxshape_op_count counts[ONNXSHAPE__OP_COUNT_MAX];
  failure *failures; /* in arena; room for cap_failures */
  size_t n_failures, cap_failures;
  /* The graphs analysed as certain to run whenever the model runs (the
   * main graph, the branch a known condition takes): what analysis knows of
   * the others (an If branch whose condition is not known, a Loop or Scan
   * body) holds only if they run, so --write-model leaves them as they are.
   * Sorted by address once the analysis is done; in arena. */
  const model_graph **sure;
  size_t n_sure, cap_sure;
};

void onnxshape_inference_free(onnxshape_inference *inf) {
  if (inf == NULL) return;
  onnxshape__arena_release(inf->arena);
  onnxshape__free(inf);
}

size_t onnxshape_inference_count(const onnxshape_inference *inf) { return inf ? inf->n : 0; }

const onnxshape_value_info *onnxshape_inference_get(const onnxshape_inference *inf, size_t i) {
  return inf && i < inf->n ? &inf->infos[i] : NULL;
}

const onnxshape_infer_summary *onnxshape_inference_summary(const onnxshape_inference *inf) {
  return inf ? &inf->summary : NULL;
}

const char *onnxshape_inference_failure(const onnxshape_inference *inf, size_t i,
                                        onnxshape_status *status) {
  if (inf == NULL || i >= inf->n_failures) return NULL;
  if (status != NULL) *status = inf->failures[i].status;
  return inf->failures[i].message;
}

static const char *value_name(const void *ctx, size_t k) {
  return ((const onnxshape_inference *)ctx)->infos[k].name;
}

onnxshape_status onnxshape_inference_find(const onnxshape_inference *inf, const char *name,
                                          size_t *index, onnxshape_diag *diag) {
  if (inf == NULL || name == NULL || index == NULL) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "inference_find: NULL argument",
                            ONNXSHAPE__NO_ARGS);
  }
  for (size_t i = 0; i < inf->n; i++) {
    if (strcmp(inf->infos[i].name, name) == 0) {
      *index = i;
      return ONNXSHAPE_OK;
    }
  }
  const char *near = onnxshape__nearest(name, inf->n, value_name, inf);
  if (near != NULL) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_NOT_FOUND,
                            "the model has no value named '{}'; did you mean '{}'?",
                            ONNXSHAPE__ARGS(ARG_NAME(name), ARG_NAME(near)));
  }
  return onnxshape__error(diag, ONNXSHAPE_ERR_NOT_FOUND, "the model has no value named '{}'",
                          ONNXSHAPE__ARGS(ARG_NAME(name)));
}

/* ---- the model with its values (infer --write-model) -------------------- */

/* The values of inf, spliced into the model's bytes. */
static onnxshape_status write_values(const onnxshape_model *m, const onnxshape_inference *inf,
                                     const uint8_t *bytes, size_t len,
                                     const onnxshape__map *source, const char *out_path,
                                     onnxshape_diag *diag) {
  const onnxshape_value_info **vals = onnxshape__malloc_n(inf->n + 1, sizeof *vals);
  if (vals == NULL) return onnxshape__out_of_memory(NULL, NULL, diag);
  for (size_t i = 0; i < inf->n; i++) vals[i] = &inf->infos[i];
  onnxshape_status st = onnxshape__model_write_values(m, bytes, len, source, vals, inf->n,
                                                      inf->sure, inf->n_sure, out_path, diag);
  onnxshape__free(vals);
  return st;
}

onnxshape_status onnxshape_inference_write_model_bytes(const onnxshape_model *m,
                                                       const onnxshape_inference *inf,
                                                       const void *bytes, size_t len,
                                                       const char *out_path, onnxshape_diag *diag) {
  if (m == NULL || inf == NULL || (bytes == NULL && len > 0) || out_path == NULL) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT,
                            "inference_write_model_bytes: NULL argument", ONNXSHAPE__NO_ARGS);
  }
  if (len != m->source_len) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT,
                            "cannot write '{}': {} bytes given, but the model was parsed from {}",
                            ONNXSHAPE__ARGS(ARG_NAME(out_path), ARG_UINT(len),
                                            ARG_UINT(m->source_len)));
  }
  onnxshape_status st = write_values(m, inf, bytes, len, NULL, out_path, diag);
  if (st == ONNXSHAPE_OK) onnxshape__diag_clear(diag);
  return st;
}

onnxshape_status onnxshape_inference_write_model(const onnxshape_model *m,
                                                 const onnxshape_inference *inf,
                                                 const char *model_path, const char *out_path,
                                                 onnxshape_diag *diag) {
  if (m == NULL || inf == NULL || model_path == NULL || out_path == NULL) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT,
                            "inference_write_model: NULL argument", ONNXSHAPE__NO_ARGS);
  }
  onnxshape__model_source src;
  onnxshape__extdir ext;
  onnxshape_status st = onnxshape__model_file(model_path, &src, &ext, diag);
  if (st != ONNXSHAPE_OK) return st;
  if (src.len != m->source_len) {
    st = onnxshape__error(diag, ONNXSHAPE_ERR_IO,
                          "cannot write '{}': '{}' holds {} bytes, but the model was read from "
                          "{} (the file changed since)",
                          ONNXSHAPE__ARGS(ARG_NAME(out_path), ARG_NAME(model_path),
                                          ARG_UINT(src.len), ARG_UINT(m->source_len)));
  }
  if (st == ONNXSHAPE_OK) {
    st = write_values(m, inf, src.data, src.len, src.map.base != NULL ? &src.map : NULL,
                      out_path, diag);
  }
  onnxshape__free(src.bytes);
  onnxshape__unmap(&src.map);
  onnxshape__extdir_close(&ext);
  onnxshape__free((void *)(uintptr_t)ext.path);
  if (st == ONNXSHAPE_OK) onnxshape__diag_clear(diag);
  return st;
}

/* ---- one analysis ------------------------------------------------------ */

typedef struct analysis {
  const onnxshape_model *m;
  const onnxshape_infer_options *opts;
  onnxshape_inference *inf;
  an_ctx ctx;
  onnxshape__report_fn report;
  void *report_ctx;
  onnxshape_diag *diag;
  an_bindings b; /* every binding, collected before any graph is analysed */
} analysis;

/* g is analysed as certain to run (inf->sure). 0 when out of memory. */
static int mark_sure(analysis *a, const model_graph *g) {
  onnxshape_inference *inf = a->inf;
  if (inf->n_sure == inf->cap_sure) {
    size_t cap = inf->cap_sure * 2 + 8;
    const model_graph **grown = onnxshape__arena_alloc(inf->arena, cap * sizeof *grown);
    if (grown == NULL) return 0;
    if (inf->n_sure > 0) memcpy(grown, inf->sure, inf->n_sure * sizeof *grown);
    inf->sure = grown;
    inf->cap_sure = cap;
  }
  inf->sure[inf->n_sure++] = g;
  return 1;
}

/* Memory ran out: the machine's, or the model's limit (LIMIT-MEMORY),
 * which the analysis's arenas share. */
static onnxshape_status oom(const onnxshape_model *m, const onnxshape__arena *arena,
                            onnxshape_diag *diag) {
  return onnxshape__out_of_memory_at(arena != NULL && arena->over_limit,
                                     onnxshape__memory_limit(m->source_len),
                                     "static inference beside the model", diag);
}

static onnxshape_status out_of_memory(const analysis *a) {
  return oom(a->m, a->ctx.arena, a->diag);
}

/* A value a graph defines (not a node's output) that could not afford its
 * work: left unknown, and counted. */
static onnxshape_status value_stopped(analysis *a, slot_info *s) {
  if (!a->ctx.out_of_work) return out_of_memory(a);
  a->ctx.out_of_work = 0;
  memset(s, 0, sizeof *s);
  a->ctx.nodes_out_of_work++;
  return ONNXSHAPE_OK;
}

/* Node n's work ran out (its outputs are left unknown), or memory did. */
static onnxshape_status node_stopped(analysis *a, const graph_node *n) {
  if (an_stopped(&a->ctx, n) == ONNXSHAPE_OK) return ONNXSHAPE_OK;
  return out_of_memory(a);
}

/* The symbol of a main-graph input's dim i that declares neither a number
 * nor a symbol: a fresh one named "<input>_d<i>" (as onnxruntime's
 * symbolic_shape_infer.py names them), so that every value measured from
 * that dim is the same expression. Unknown when memory or work runs out. */
static an_elem input_dim_symbol(analysis *a, const char *input, size_t i) {
  size_t len = strlen(input);
  char digits[24];
  size_t n = 0;
  do {
    digits[n++] = (char)('0' + i % 10);
    i /= 10;
  } while (i != 0);
  if (len > SIZE_MAX - 3 - n) return an_unknown();
  char *base = an_alloc(&a->ctx, len + 3 + n, 1);
  if (base == NULL) return an_unknown();
  memcpy(base, input, len);
  memcpy(base + len, "_d", 2);
  for (size_t j = 0; j < n; j++) base[len + 2 + j] = digits[n - 1 - j];
  base[len + 2 + n] = '\0';
  return an_expr_fresh(a->ctx.x, base);
}

/* A main-graph input: its declaration (each undeclared dim a fresh
 * symbol), then its binding (checked by take_input). */
static int bind_input(analysis *a, size_t k, slot_info *s) {
  const value_decl *d = &a->m->g.inputs[k];
  if (!an_from_decl(&a->ctx, s, d)) return 0;
  const onnxshape_input_dims *in = a->b.input_binding[k];
  if (in == NULL) {
    for (size_t i = 0; d->has_shape && i < d->rank; i++) {
      if (d->dims[i].value < 0 && d->dims[i].param == NULL) {
        s->dims[i] = input_dim_symbol(a, d->name, i);
      }
    }
    return !a->ctx.out_of_work;
  }
  if (!an_set_rank(&a->ctx, s, in->rank)) return 0;
  for (size_t i = 0; i < in->rank; i++) s->dims[i] = an_num(in->dims[i]);
  return 1;
}

/* Every bound symbol made its number (--dim, and the symbols --input
 * bindings fix): each declaration of it then reads the number. */
static onnxshape_status bind_symbols(analysis *a) {
  for (size_t i = 0; i < a->b.n_bound; i++) {
    an_elem sym = an_expr_symbol(a->ctx.x, a->b.bound[i].symbol);
    if (!an_is_set(sym) || !an_expr_equate(a->ctx.x, sym, an_num(a->b.bound[i].value))) {
      /* only memory (the work budget is far from spent; take_bindings
       * refused contradictions) */
      return out_of_memory(a);
    }
  }
  return ONNXSHAPE_OK;
}

static int intern_symbol(void *ctx, const char *sym) {
  analysis *a = ctx;
  (void)an_sym(&a->ctx, sym);
  return a->ctx.out_of_work;
}

/* Every symbol the model declares, interned before any fresh symbol is
 * made (an_expr_fresh: a fresh symbol never takes a model symbol's name). */
static onnxshape_status intern_model_symbols(analysis *a) {
  if (onnxshape__each_symbol(a->m, intern_symbol, a) == 0) return ONNXSHAPE_OK;
  return out_of_memory(a);
}

/* Input i of subgraph g, declared d: a Scan body's scan input is the
 * outer input's element (an_scan_element: onnxruntime does not hold it to
 * the declaration), as much hearsay as that input; a Loop body's carried
 * value (from input 2) has the declared type alone (onnxruntime runs a
 * body whose carried values change shape, even rank, between iterations,
 * whatever the body declares); anything else is what the body declares,
 * hearsay but for a Loop's iteration number and condition (the
 * specification fixes them: int64 and bool scalars). *heard set; 0 when
 * out of budget or memory. */
static int subgraph_input(analysis *a, const model_graph *g, size_t i, const value_decl *d,
                          slot_info *s, unsigned char *heard) {
  const graph_node *owner = g->owner;
  int loop = owner != NULL && owner->op == OP_LOOP;
  size_t outer = 0;
  int bound = owner != NULL && owner->op == OP_SCAN
                  ? an_scan_element(&a->ctx, owner, g, i, s, &outer) : 0;
  if (bound != 0) {
    /* onnxruntime refuses an element type the body does not declare */
    if (bound > 0 && s->type == 0 && d->has_type) s->type = d->elem_type;
    *heard = owner->inputs[outer] != NO_SLOT && a->inf->hearsay[owner->inputs[outer]];
    return bound > 0;
  }
  *heard = (unsigned char)!(loop && i < 2);
  if (!an_from_decl(&a->ctx, s, d)) return 0;
  if (loop && i >= 2 && s->kind == 0) {
    int32_t t = s->type;
    memset(s, 0, sizeof *s);
    s->type = t;
  }
  return 1;
}

/* The values a graph defines before its nodes: inputs, initializers,
 * sparse initializers. */
static onnxshape_status graph_sources(analysis *a, const model_graph *g) {
  for (size_t i = 0; i < g->n_slots; i++) {
    const value_slot *vs = &g->slots[i];
    slot_info *s = &a->ctx.slots[vs->id];
    int ok = 1;
    if (vs->kind == SLOT_INPUT) {
      const value_decl *d = &g->inputs[vs->input_index];
      if (!d->has_type && !d->has_shape && vs->init != NULL) {
        /* A default can be overridden at run time: its value is not known. */
        ok = an_from_tensor(&a->ctx, s, &vs->init->view, 0);
      } else if (g->depth == 0) {
        ok = bind_input(a, vs->input_index, s);
      } else {
        unsigned char heard;
        ok = subgraph_input(a, g, vs->input_index, d, s, &heard);
        /* a function's body takes its call's values (analyse_call) */
        if (g->owner == NULL || g->owner->body != g) a->inf->hearsay[vs->id] = heard;
      }
    } else if (vs->kind == SLOT_INITIALIZER) {
      ok = an_from_tensor(&a->ctx, s, &vs->init->view, 1);
    } else if (vs->kind == SLOT_SPARSE) {
      ok = an_from_decl(&a->ctx, s, vs->decl);
    }
    a->inf->origin[vs->id] =
        vs->kind == SLOT_INPUT ? ONNXSHAPE_ORIGIN_INPUT : ONNXSHAPE_ORIGIN_INITIALIZER;
    if (!ok) {
      a->inf->origin[vs->id] = ONNXSHAPE_ORIGIN_BUDGET;
      onnxshape_status st = value_stopped(a, s);
      if (st != ONNXSHAPE_OK) return st;
    }
  }
  return ONNXSHAPE_OK;
}

/* A finding about node n of g. */
static void report_node(analysis *a, check_rule rule, const model_graph *g, const graph_node *n,
                        const char *message) {
  if (a->report != NULL) a->report(a->report_ctx, rule, g->path, n, message);
}

/* The computed value of slot id against its declaration: a contradiction
 * is a CONFLICT finding (the computed value stays). */
static void check_declared(analysis *a, const model_graph *g, const graph_node *n, size_t id) {
  const value_slot *vs = a->m->slot[id];
  const value_decl *d = vs->decl;
  const slot_info *s = &a->ctx.slots[id];
  if (d == NULL || a->report == NULL) return;
  onnxshape_diag nd = {n->label, {0}};
  /* A call has no version: "node 'c': output 'y' of function 'F' ..." (the
   * function's name alone: with the node's and the output's, three names
   * shortened as names are still leave the message its end). */
  const char *op = n->version > 0 ? n->op_type : NULL;
  char owner[96] = ""; /* a name is shown in at most 64 bytes */
  if (op == NULL) {
    (void)onnxshape__format(owner, sizeof owner, " of function '{}'",
                            ONNXSHAPE__ARGS(ARG_NAME(n->op_type)));
  }
  if (d->has_type && s->type != 0 && d->elem_type != s->type) {
    (void)onnxshape__fail(&nd, ONNXSHAPE_ERR_INVALID_MODEL, op, n->version,
                          "output '{}'{} is declared {} but is {}",
                          ONNXSHAPE__ARGS(ARG_NAME(vs->name), ARG_TEXT(owner),
                                          ARG_STR(onnxshape_type_name(d->elem_type)),
                                          ARG_STR(onnxshape_type_name(s->type))));
  } else if (d->has_shape && s->rank_known && d->rank != s->rank) {
    (void)onnxshape__fail(&nd, ONNXSHAPE_ERR_INVALID_MODEL, op, n->version,
                          "output '{}'{} is declared with rank {} but has rank {}",
                          ONNXSHAPE__ARGS(ARG_NAME(vs->name), ARG_TEXT(owner), ARG_UINT(d->rank),
                                          ARG_UINT(s->rank)));
  } else {
    if (!d->has_shape || !s->rank_known) return;
    size_t k = 0;
    while (k < d->rank && !(d->dims[k].value >= 0 && s->dims[k].known &&
                            s->dims[k].v != d->dims[k].value)) {
      k++;
    }
    if (k == d->rank) return;
    (void)onnxshape__fail(&nd, ONNXSHAPE_ERR_INVALID_MODEL, op, n->version,
                          "output '{}'{} is declared with dim {} = {} but it is {}",
                          ONNXSHAPE__ARGS(ARG_NAME(vs->name), ARG_TEXT(owner), ARG_UINT(k),
                                          ARG_INT(d->dims[k].value), ARG_INT(s->dims[k].v)));
  }
  onnxshape__in_graph(nd.message, sizeof nd.message, g->path, NULL, nd.message);
  report_node(a, CHECK_CONFLICT, g, n, nd.message);
}

static onnxshape_status analyse_graph(analysis *a, const model_graph *g, int certain);

/* The subgraphs of node n, before its handler. If: the branch a known
 * condition takes (certain when n is), else both (neither certain); the
 * branch not taken is never analysed. Loop, Scan and other operators:
 * every subgraph (never certain: it may run no time). */
static onnxshape_status analyse_subgraphs(analysis *a, const graph_node *n, int certain) {
  int is_if = n->op == OP_IF && n->version > 0;
  int take = is_if ? an_if_taken(&a->ctx, n) : -1;
  for (size_t k = 0; k < n->n_subgraphs; k++) {
    const node_subgraph *sg = &n->subgraphs[k];
    int which = !is_if ? -1 : strcmp(sg->attr, "then_branch") == 0 ? 0
                             : strcmp(sg->attr, "else_branch") == 0 ? 1 : -1;
    if (which >= 0 && take >= 0 && which != take) continue; /* never runs */
    onnxshape_status st = analyse_graph(a, sg->graph, certain && which >= 0 && which == take);
    if (st != ONNXSHAPE_OK) return st;
  }
  return ONNXSHAPE_OK;
}

/* A call of a model-local function: its body (loaded for this call) runs
 * on the call's inputs, certain when the call is; the call's outputs are
 * the body's. A formal input the call leaves out is unknown. */
static onnxshape_status analyse_call(analysis *a, const graph_node *n, int certain) {
  const model_graph *body = n->body;
  for (size_t k = 0; k < body->n_inputs; k++) {
    slot_info *in = &a->ctx.slots[body->input_slots[k]];
    int given = k < n->n_inputs && n->inputs[k] != NO_SLOT;
    a->inf->hearsay[body->input_slots[k]] = (unsigned char)(given && a->inf->hearsay[n->inputs[k]]);
    if (given && !an_copy(&a->ctx, in, &a->ctx.slots[n->inputs[k]])) {
      onnxshape_status st = value_stopped(a, in);
      if (st != ONNXSHAPE_OK) return st;
    }
  }
  onnxshape_status st = analyse_graph(a, body, certain);
  if (st != ONNXSHAPE_OK) return st;
  for (size_t k = 0; k < n->n_outputs && k < body->n_outputs; k++) {
    if (n->outputs[k] == NO_SLOT) continue;
    if (!an_copy(&a->ctx, &a->ctx.slots[n->outputs[k]], &a->ctx.slots[body->output_slots[k]])) {
      return node_stopped(a, n);
    }
  }
  return ONNXSHAPE_OK;
}

/* What a declaration adds to a computed value (ANALYSIS-DECLARED): the
 * type when the computation left it unknown, the dims when the rank is
 * unknown, and each dim that is neither a number nor a symbol (*filled
 * set when it adds anything). A contradiction was reported before
 * (check_declared); the computed value wins. */
static int join_declared(analysis *a, slot_info *s, const value_decl *d, int *filled) {
  if (s->type == 0 && d->has_type) {
    s->type = d->elem_type;
    *filled = 1;
  }
  if (!d->has_shape) return 1;
  if (!s->rank_known) {
    *filled = 1;
    return an_from_decl(&a->ctx, s, d);
  }
  if (s->rank != d->rank || !an_charge(&a->ctx, d->rank)) return s->rank != d->rank;
  for (size_t i = 0; i < d->rank; i++) {
    if (an_is_set(s->dims[i])) continue;
    s->dims[i] = an_decl_dim(&a->ctx, &d->dims[i]);
    *filled |= an_is_set(s->dims[i]);
  }
  return !a->ctx.out_of_work;
}

/* Records a node certain to fail (keep_going): its message, in the
 * analysis's memory. */
static int record_failure(analysis *a, onnxshape_status st, const char *msg) {
  onnxshape_inference *inf = a->inf;
  if (inf->n_failures == inf->cap_failures) {
    size_t cap = inf->cap_failures ? 2 * inf->cap_failures : 8;
    failure *f = cap <= SIZE_MAX / 4 / sizeof *f
                     ? onnxshape__arena_alloc(inf->arena, cap * sizeof *f)
                     : NULL;
    if (f == NULL) return 0;
    if (inf->n_failures > 0) memcpy(f, inf->failures, inf->n_failures * sizeof *f);
    inf->failures = f;
    inf->cap_failures = cap;
  }
  size_t len = strlen(msg);
  char *copy = onnxshape__arena_alloc(inf->arena, len + 1);
  if (copy == NULL) return 0;
  memcpy(copy, msg, len + 1);
  inf->failures[inf->n_failures++] = (failure){st, copy};
  return 1;
}

/* Nothing known of n's outputs (a node that fails, or may). */
static void forget_outputs(analysis *a, const graph_node *n) {
  for (size_t i = 0; i < n->n_outputs; i++) {
    if (n->outputs[i] != NO_SLOT) memset(&a->ctx.slots[n->outputs[i]], 0, sizeof(slot_info));
  }
}

/* 1 when output i of call n is the function body's output that rests on
 * hearsay. */
static int body_hearsay(const analysis *a, const graph_node *n, size_t i) {
  return i < n->body->n_outputs && a->inf->hearsay[n->body->output_slots[i]];
}

/* 1 when what is known of an input of n rests on a declaration
 * onnxruntime does not hold it to. */
static int inputs_hearsay(const analysis *a, const graph_node *n) {
  for (size_t i = 0; i < n->n_inputs; i++) {
    if (n->inputs[i] != NO_SLOT && a->inf->hearsay[n->inputs[i]]) return 1;
  }
  return 0;
}

/* 1 when a value n's subgraphs return for output i (If, Scan, SequenceMap:
 * their output i; Loop: its body's i + 1, past the condition), or for any
 * output when i is SIZE_MAX, rests on such a declaration. */
static int subgraphs_hearsay(const analysis *a, const graph_node *n, size_t i) {
  size_t at = n->op == OP_LOOP && i != SIZE_MAX ? i + 1 : i;
  for (size_t k = 0; k < n->n_subgraphs; k++) {
    const model_graph *sg = n->subgraphs[k].graph;
    for (size_t j = 0; j < sg->n_outputs; j++) {
      if ((at == SIZE_MAX || j == at) && a->inf->hearsay[sg->output_slots[j]]) return 1;
    }
  }
  return 0;
}

static onnxshape_status analyse_node(analysis *a, const model_graph *g, const graph_node *n,
                                     int certain) {
  onnxshape_diag *diag = a->diag;
  const char *caller = diag != NULL ? diag->node : NULL;
  onnxshape_status st = analyse_subgraphs(a, n, certain);
  if (st != ONNXSHAPE_OK) return st;
  if (diag != NULL) diag->node = n->label;
  a->ctx.certain = certain;
  int heard_in = inputs_hearsay(a, n);
  int heard = heard_in || subgraphs_hearsay(a, n, SIZE_MAX);
  st = an_eval(&a->ctx, n, diag);
  if (st == ONNXSHAPE_ERR_OUT_OF_MEMORY) {
    if (diag != NULL) diag->node = caller;
    return out_of_memory(a);
  }
  int failed = st != ONNXSHAPE_OK;
  if (failed && heard) {
    /* It fails on what declarations say of its inputs, which onnxruntime
     * does not hold the values to: a declaration is wrong, or the node
     * fails. A conflict for check, not a node certain to fail; its outputs
     * are unknown. */
    char msg[ONNXSHAPE_DIAG_SIZE], text[ONNXSHAPE_DIAG_SIZE];
    (void)onnxshape__format(text, sizeof text,
                            "{}, on dims its inputs take from declarations: a declaration is "
                            "wrong, or the node fails",
                            ONNXSHAPE__ARGS(ARG_TEXT(diag != NULL ? diag->message
                                                                  : onnxshape_status_text(st))));
    onnxshape__in_graph(msg, sizeof msg, g->path, certain ? NULL : "(a subgraph that may not run)",
                        text);
    if (diag != NULL) {
      diag->node = caller;
      onnxshape__diag_clear(diag);
    }
    report_node(a, CHECK_CONFLICT, g, n, msg);
    forget_outputs(a, n);
    failed = 0;
    st = ONNXSHAPE_OK;
  } else if (failed) {
    /* A node that cannot succeed whatever the data. */
    char msg[ONNXSHAPE_DIAG_SIZE];
    const char *text = diag != NULL ? diag->message : onnxshape_status_text(st);
    onnxshape__in_graph(msg, sizeof msg, g->path, certain ? NULL : "(a subgraph that may not run)",
                        text);
    if (diag != NULL) diag->node = caller;
    if (certain && a->report == NULL && !a->opts->keep_going) {
      if (diag != NULL) {
        (void)onnxshape__format(diag->message, sizeof diag->message, "{}", ONNXSHAPE__ARGS(ARG_TEXT(msg)));
      }
      return st;
    }
    if (certain && a->report == NULL && !record_failure(a, st, msg)) {
      return out_of_memory(a);
    }
    report_node(a, CHECK_DOMAIN, g, n, msg);
    forget_outputs(a, n);
  }
  if (diag != NULL) diag->node = caller;
  st = n->body != NULL ? analyse_call(a, n, certain) : ONNXSHAPE_OK;
  if (st != ONNXSHAPE_OK) return st;
  /* What the model declares of the outputs: checked against what was
   * computed, and joined with it; all there is for the rest. */
  int computes = an_evaluates(n) || n->body != NULL;
  for (size_t i = 0; i < n->n_outputs; i++) {
    size_t id = n->outputs[i];
    if (id == NO_SLOT) continue;
    slot_info *s = &a->ctx.slots[id];
    const value_decl *d = a->m->slot[id]->decl;
    int filled = 0;
    a->inf->origin[id] = failed     ? ONNXSHAPE_ORIGIN_FAILED
                         : computes ? ONNXSHAPE_ORIGIN_EVALUATED
                         : d != NULL ? ONNXSHAPE_ORIGIN_DECLARED
                                     : ONNXSHAPE_ORIGIN_UNDECLARED;
    /* A sequence or an optional (its declaration says no more, and one
     * declared a tensor is not read as one). */
    if (d == NULL || s->kind != 0) continue;
    if (computes) check_declared(a, g, n, id);
    if (!(computes ? join_declared(a, s, d, &filled) : an_from_decl(&a->ctx, s, d))) {
      st = node_stopped(a, n);
      if (st != ONNXSHAPE_OK) return st;
    }
    a->inf->decl_used[id] = (unsigned char)(computes && !failed && filled);
  }
  for (size_t i = 0; i < n->n_outputs; i++) {
    size_t id = n->outputs[i];
    if (id == NO_SLOT) continue;
    a->inf->hearsay[id] = (unsigned char)(heard_in || subgraphs_hearsay(a, n, i) ||
                                          a->inf->decl_used[id] ||
                                          a->inf->origin[id] == ONNXSHAPE_ORIGIN_DECLARED ||
                                          a->inf->origin[id] == ONNXSHAPE_ORIGIN_FAILED ||
                                          (n->body != NULL && body_hearsay(a, n, i)));
  }
  /* The budget ran out on this node (its evaluation, its call or its
   * declarations; each node is counted once, when it stops). */
  for (size_t i = 0; a->ctx.last_stopped == n && i < n->n_outputs; i++) {
    if (n->outputs[i] == NO_SLOT) continue;
    a->inf->origin[n->outputs[i]] = ONNXSHAPE_ORIGIN_BUDGET;
    a->inf->decl_used[n->outputs[i]] = 0; /* said of evaluated values only */
  }
  if (a->report != NULL && !failed) an_portability(&a->ctx, n, g->path, a->report, a->report_ctx);
  return ONNXSHAPE_OK;
}

static onnxshape_status analyse_graph(analysis *a, const model_graph *g, int certain) {
  if (certain && !mark_sure(a, g)) return out_of_memory(a);
  onnxshape_status st = graph_sources(a, g);
  for (size_t i = 0; i < g->n_nodes && st == ONNXSHAPE_OK; i++) {
    st = analyse_node(a, g, &g->nodes[i], certain);
  }
  return st;
}

/* ---- results ------------------------------------------------------------ */

static int is_kernel(const graph_node *n) {
  return (onnxshape__op_flags(n->op) & OPF_KERNEL) != 0;
}

/* Neither evaluated nor a call of a model-local function (whose body is). */
static int not_evaluated(const graph_node *n) { return !an_evaluates(n) && n->body == NULL; }

static void summarise(onnxshape_inference *inf, const onnxshape_model *m, const an_ctx *c) {
  onnxshape_infer_summary *sum = &inf->summary;
  sum->size = sizeof *sum;
  op_count counts[ONNXSHAPE__OP_COUNT_MAX];
  size_t n_counts = 0, more = 0;
  for (size_t k = 0; k < m->n_graphs; k++) {
    const model_graph *g = m->graphs[k];
    for (size_t i = 0; i < g->n_nodes; i++) {
      const graph_node *n = &g->nodes[i];
      if (not_evaluated(n)) onnxshape__count_op(n, counts, &n_counts, ONNXSHAPE__OP_COUNT_MAX, &more);
      if (!is_kernel(n)) continue;
      sum->shape_nodes += n->op == OP_SHAPE;
      sum->reshape_nodes += n->op == OP_RESHAPE;
      sum->size_nodes += n->op == OP_SIZE;
      const slot_info *s = &inf->slots[n->outputs[0]];
      if (!s->rank_known) {
        sum->unknown++;
      } else {
        int all = an_all_known(s->dims, s->rank);
        if (n->op != OP_RESHAPE) all = all && s->vals_known && an_all_known(s->vals, s->n_vals);
        if (all) {
          sum->resolved++;
        } else {
          sum->partial++;
        }
      }
    }
  }
  for (size_t i = 0; i < n_counts; i++) {
    inf->counts[i] = (onnxshape_op_count){counts[i].domain, counts[i].op, counts[i].count};
  }
  sum->n_not_evaluated = n_counts;
  sum->not_evaluated = inf->counts;
  sum->not_evaluated_more = more;
  sum->work_used = c->work_used;
  sum->work_limit = c->work_used + c->work_left;
  sum->out_of_work = c->nodes_out_of_work + c->texts_dropped;
  sum->failures = inf->n_failures;
}

/* An expression's text for the results; NULL when it is longer than
 * AN_EXPR_TEXT_MAX or past the texts' budget (the value is then shown as
 * not known, and the summary says the analysis is incomplete). */
static const char *text_of(an_ctx *c, an_elem e) {
  if (!an_is_set(e)) return NULL;
  const char *t = an_expr_text(c->x, e);
  /* Each use counts against the results' budget of text, so what the
   * results print stays bounded by the model's memory limit however often
   * one long expression appears. */
  size_t len = t != NULL ? strlen(t) + 1 : 0;
  if (t == NULL || len > c->publish_left) {
    c->texts_dropped++;
    return NULL;
  }
  c->publish_left -= len;
  return t;
}

/* An element or a length for the results: its number, or its text. */
static onnxshape_elem public_elem(an_ctx *c, an_elem x) {
  return (onnxshape_elem){x.known, x.known ? x.v : -1, x.known ? NULL : text_of(c, x)};
}

/* The values of node n's inputs (their indices among the results), one
 * array shared by its outputs. 1, or 0 when out of memory. */
static int publish_inputs(onnxshape_inference *inf, const graph_node *n, const size_t *index_of) {
  size_t *ins = NULL;
  if (n->n_inputs > 0) {
    ins = onnxshape__arena_alloc(inf->arena, n->n_inputs * sizeof *ins);
    if (ins == NULL) return 0;
    for (size_t k = 0; k < n->n_inputs; k++) {
      ins[k] = n->inputs[k] != NO_SLOT ? index_of[n->inputs[k]] : SIZE_MAX;
    }
  }
  for (size_t k = 0; k < n->n_outputs; k++) {
    if (n->outputs[k] == NO_SLOT || index_of[n->outputs[k]] == SIZE_MAX) continue;
    onnxshape_value_info *v = &inf->infos[index_of[n->outputs[k]]];
    v->n_inputs = n->n_inputs;
    v->inputs = ins;
  }
  return 1;
}

/* Pointers by address (as integers: comparing pointers into different
 * objects is undefined). */
static int address_cmp(const void *a, const void *b) {
  uintptr_t x = (uintptr_t) * (const void *const *)a, y = (uintptr_t) * (const void *const *)b;
  return (x > y) - (x < y);
}

/* What s knows into v: type, dims, elements, and a sequence's or an
 * optional's kind, element (depth: how deep in elements v is; a sequence's
 * element is a tensor and an optional's at most a sequence, so it stays
 * below 3), length and state. 0 when out of memory. */
static int publish_known(onnxshape_inference *inf, an_ctx *c, onnxshape_value_info *v,
                         const slot_info *s, int depth) {
  v->type = s->type;
  v->rank_known = s->rank_known;
  v->rank = s->rank;
  if (s->vals_known && !an_all_unknown(s->vals, s->n_vals)) {
    onnxshape_elem *e = onnxshape__arena_alloc(inf->arena, (s->n_vals + 1) * sizeof *e);
    if (e == NULL) return 0;
    for (size_t j = 0; j < s->n_vals; j++) e[j] = public_elem(c, s->vals[j]);
    v->values = e;
    v->n_values = s->n_vals;
  }
  if (s->rank_known) {
    int64_t *dims = onnxshape__arena_alloc(inf->arena, (s->rank + 1) * sizeof(int64_t));
    const char **params = onnxshape__arena_alloc(inf->arena, (s->rank + 1) * sizeof(char *));
    if (dims == NULL || params == NULL) return 0;
    for (size_t j = 0; j < s->rank; j++) {
      dims[j] = s->dims[j].known ? s->dims[j].v : -1;
      params[j] = s->dims[j].known ? NULL : text_of(c, s->dims[j]);
    }
    v->dims = dims;
    v->params = (const char *const *)params;
  }
  v->kind = s->kind == AN_SEQUENCE   ? ONNXSHAPE_KIND_SEQUENCE
            : s->kind == AN_OPTIONAL ? ONNXSHAPE_KIND_OPTIONAL
                                     : ONNXSHAPE_KIND_TENSOR;
  v->length = public_elem(c, s->kind == AN_SEQUENCE ? s->seq_len : an_unknown());
  v->holds = s->kind != AN_OPTIONAL ? 0 : s->opt_has == AN_OPT_FULL ? 1
             : s->opt_has == AN_OPT_EMPTY ? 0 : -1;
  if (s->kind == 0 || s->elem == NULL || depth >= 3) return 1;
  onnxshape_value_info *e = onnxshape__arena_alloc(inf->arena, sizeof *e);
  if (e == NULL) return 0;
  memset(e, 0, sizeof *e);
  e->size = sizeof *e;
  e->name = v->name;
  e->graph = v->graph;
  v->element = e;
  return publish_known(inf, c, e, s->elem, depth + 1);
}

static int publish(onnxshape_inference *inf, const onnxshape_model *m, an_ctx *c) {
  inf->n = m->n_slots;
  /* Where each slot's value is among the results, for the nodes' inputs
   * (a subgraph's node may take a value of a graph around it). */
  size_t *index_of = onnxshape__arena_alloc(inf->arena, (m->n_slots + 1) * sizeof *index_of);
  if (index_of == NULL) return 0;
  for (size_t i = 0; i < m->n_slots; i++) index_of[i] = SIZE_MAX;
  size_t at = 0;
  for (size_t k = 0; k < m->n_graphs; k++) {
    for (size_t i = 0; i < m->graphs[k]->n_slots; i++) index_of[m->graphs[k]->slots[i].id] = at++;
  }
  /* In the order of the graphs, each graph's values in their order. */
  at = 0;
  for (size_t k = 0; k < m->n_graphs; k++) {
    const model_graph *g = m->graphs[k];
    for (size_t i = 0; i < g->n_slots; i++) {
      const value_slot *vs = &g->slots[i];
      const slot_info *s = &inf->slots[vs->id];
      onnxshape_value_info *v = &inf->infos[at++];
      v->size = sizeof *v;
      v->name = vs->name;
      v->graph = g->path;
      v->value = s->value;
      v->origin = inf->origin[vs->id];
      v->declaration_used = inf->decl_used[vs->id];
      if (vs->producer != NULL) {
        v->node = vs->producer->name;
        v->op = vs->producer->op_type;
        v->domain = vs->producer->domain;
        v->version = vs->producer->version;
      }
      if (!publish_known(inf, c, v, s, 0)) return 0;
    }
  }
  inf->n = at;
  for (size_t k = 0; k < m->n_graphs; k++) {
    for (size_t i = 0; i < m->graphs[k]->n_nodes; i++) {
      if (!publish_inputs(inf, &m->graphs[k]->nodes[i], index_of)) return 0;
    }
  }
  qsort(inf->sure, inf->n_sure, sizeof *inf->sure, address_cmp);
  summarise(inf, m, c);
  return 1;
}

/* Analyses the model; with `report`, every node that cannot succeed (and
 * every conflict and portability risk) is reported and analysis goes on;
 * without, a node certain to fail stops it with that node's error, or with
 * keep_going is recorded. Out of memory always stops. With `within` (the
 * profile check's own model), the analysis's memory counts against that
 * arena's limit; else against what the model's limit leaves. */
static onnxshape_status infer_model(const onnxshape_model *m, const onnxshape_infer_options *opts,
                                    onnxshape_inference **out, onnxshape__report_fn report,
                                    void *ctx, onnxshape__arena *within, onnxshape_diag *diag) {
  if (m == NULL || out == NULL ||
      (opts->inputs == NULL && opts->n_inputs > 0) || (opts->dims == NULL && opts->n_dims > 0)) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "model_infer: NULL argument", ONNXSHAPE__NO_ARGS);
  }
  onnxshape_inference *inf = onnxshape__calloc(1, sizeof *inf);
  if (inf == NULL) return onnxshape__out_of_memory(NULL, NULL, diag);
  /* One arena for the analysis and its results, within what the model's
   * limit leaves (LIMIT-MEMORY). The per-value tables come first; the
   * evaluation may then use half of what remains (past that, as past the
   * work budget, nodes are left unknown and counted: LIMIT-ANALYSIS-WORK),
   * so that the results, whose dims and elements take at most what the
   * evaluation holds of them, always fit in the other half. */
  if (within != NULL) {
    inf->arena = onnxshape__arena_new_within(within, SIZE_MAX);
  } else {
    size_t limit = onnxshape__memory_limit(m->source_len);
    inf->arena = onnxshape__arena_new(limit > m->arena->taken ? limit - m->arena->taken : 0);
  }
  if (inf->arena == NULL) {
    /* only the first block was asked for: over the limit when `within`
     * refused it, else the machine's memory */
    onnxshape_status st = oom(m, within, diag);
    onnxshape_inference_free(inf);
    return st;
  }
  analysis a = {m, opts, inf, {0}, report, ctx, diag, {NULL, 0, NULL}};
  a.ctx.arena = inf->arena;
  a.ctx.work_left = an_work_limit(m->source_len);
  onnxshape_status st = ONNXSHAPE_OK;
  size_t n = m->n_slots + 1;
  if (n > SIZE_MAX / 2 / (sizeof *inf->slots + sizeof *inf->infos)) {
    st = out_of_memory(&a);
  } else {
    inf->slots = onnxshape__arena_alloc(inf->arena, n * sizeof *inf->slots);
    inf->infos = onnxshape__arena_alloc(inf->arena, n * sizeof *inf->infos);
    inf->origin = onnxshape__arena_alloc(inf->arena, n);
    inf->decl_used = onnxshape__arena_alloc(inf->arena, n);
    inf->hearsay = onnxshape__arena_alloc(inf->arena, n);
    if (inf->slots == NULL || inf->infos == NULL || inf->origin == NULL || inf->decl_used == NULL ||
        inf->hearsay == NULL) {
      st = out_of_memory(&a);
    } else {
      memset(inf->origin, 0, n);
      memset(inf->decl_used, 0, n);
      memset(inf->hearsay, 0, n);
    }
  }
  a.ctx.slots = inf->slots;
  size_t room = onnxshape__arena_room(inf->arena);
  a.ctx.memory_soft = inf->arena->taken + room / 2;
  if (st == ONNXSHAPE_OK) {
    a.ctx.x = an_exprs_new(inf->arena, an_expr_charge, &a.ctx);
    if (a.ctx.x == NULL) st = out_of_memory(&a);
  }
  if (st == ONNXSHAPE_OK) {
    st = onnxshape__take_bindings(m, opts, inf->arena, &a.b, diag);
    if (st == ONNXSHAPE_ERR_OUT_OF_MEMORY) st = out_of_memory(&a);
  }
  if (st == ONNXSHAPE_OK) st = bind_symbols(&a);
  if (st == ONNXSHAPE_OK) st = intern_model_symbols(&a);
  if (st == ONNXSHAPE_OK) st = analyse_graph(&a, &m->g, 1);
  /* The results' texts take at most a quarter of the room (their dims and
   * elements fit in what the evaluation did not take). */
  if (st == ONNXSHAPE_OK) an_exprs_text_budget(a.ctx.x, room / 4);
  a.ctx.publish_left = room / 4;
  if (st == ONNXSHAPE_OK && !publish(inf, m, &a.ctx)) st = out_of_memory(&a);
  an_exprs_end(a.ctx.x);
  inf->slots = NULL;
  if (st != ONNXSHAPE_OK) {
    onnxshape_inference_free(inf);
    return st;
  }
  onnxshape__diag_clear(diag);
  *out = inf;
  return ONNXSHAPE_OK;
}

void onnxshape_infer_options_init(onnxshape_infer_options *opts) {
  if (opts == NULL) return;
  const onnxshape_infer_options init = ONNXSHAPE_INFER_OPTIONS_INIT;
  *opts = init;
}

/* How many bytes later versions may append to onnxshape_infer_options. */
#define ONNXSHAPE__OPTIONS_GROWTH 256u

/* The caller's options as this library's struct: the `size` bytes it was
 * compiled with, fields past them unset; a larger struct (a newer header)
 * only when the fields this library does not have are unset (zero). */
static onnxshape_status take_options(const onnxshape_infer_options *in,
                                     onnxshape_infer_options *out, onnxshape_diag *diag) {
  onnxshape_infer_options_init(out);
  if (in == NULL) return ONNXSHAPE_OK;
  /* the struct of the first version that had `size` */
  const size_t least = offsetof(onnxshape_infer_options, keep_going) + sizeof in->keep_going;
  if (in->size < least) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT,
                            "model_infer: options.size is {}; it must be at least {} "
                            "(initialize the options with ONNXSHAPE_INFER_OPTIONS_INIT)",
                            ONNXSHAPE__ARGS(ARG_UINT(in->size), ARG_UINT(least)));
  }
  /* A size past what any later version could add is not a size: a caller
   * built against another layout (0.1's options began with a pointer).
   * Refused before a byte past this library's struct is read. */
  if (in->size > sizeof *out + ONNXSHAPE__OPTIONS_GROWTH) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT,
                            "model_infer: options.size is {}; this library takes at most {} "
                            "(was the caller built against this library's header?)",
                            ONNXSHAPE__ARGS(ARG_UINT(in->size),
                                            ARG_UINT(sizeof *out + ONNXSHAPE__OPTIONS_GROWTH)));
  }
  const unsigned char *bytes = (const unsigned char *)in;
  for (size_t i = sizeof *out; i < in->size; i++) {
    if (bytes[i] != 0) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT,
                              "model_infer: the options set a field at byte {}, which this "
                              "library ({} bytes of options) does not have",
                              ONNXSHAPE__ARGS(ARG_UINT(i), ARG_UINT(sizeof *out)));
    }
  }
  memcpy(out, in, in->size < sizeof *out ? in->size : sizeof *out);
  out->size = sizeof *out;
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape_model_infer_with(const onnxshape_model *m,
                                            const onnxshape_infer_options *opts,
                                            onnxshape_inference **out, onnxshape_diag *diag) {
  onnxshape_infer_options taken;
  onnxshape_status st = take_options(opts, &taken, diag);
  if (st != ONNXSHAPE_OK) return st;
  return infer_model(m, &taken, out, NULL, NULL, NULL, diag);
}

onnxshape_status onnxshape_model_infer(const onnxshape_model *m, onnxshape_inference **out,
                                       onnxshape_diag *diag) {
  const onnxshape_infer_options none = ONNXSHAPE_INFER_OPTIONS_INIT;
  return infer_model(m, &none, out, NULL, NULL, NULL, diag);
}

/* Node n of g, of the default domain, whose operator ONNX does not define,
 * or defines only from a later opset than g's (the model's, or in a
 * function's body the function's), or has deprecated at g's opset: a
 * finding (the first two analysed as an unknown operator, as infer and run
 * take it; a deprecated one as its last version). A call of a model-local
 * function is none of them. */
static void report_operator(const model_graph *g, const graph_node *n, onnxshape__report_fn report,
                            void *ctx) {
  if (n->domain[0] != '\0' || n->body != NULL) return;
  size_t n_since;
  const uint8_t *since = onnxshape__op_since(n->op, &n_since);
  int deprecated = n->op != OP_OTHER && n->version > 0 &&
                   (onnxshape__op_flags(n->op) & OPF_DEPRECATED) != 0 &&
                   n->version == since[n_since - 1];
  if (n->op != OP_OTHER && n->version > 0 && !deprecated) return;
  onnxshape_diag d = {n->label, {0}};
  char msg[ONNXSHAPE_DIAG_SIZE];
  check_rule rule = CHECK_UNKNOWN_OP;
  if (deprecated) {
    rule = CHECK_DEPRECATED;
    (void)onnxshape__error(
        &d, ONNXSHAPE_ERR_INVALID_MODEL,
        "operator '{}' is deprecated from opset {} (use {}); the {} imports the default domain "
        "at opset {}",
        ONNXSHAPE__ARGS(ARG_NAME(n->op_type), ARG_INT(n->version),
                        ARG_STR(n->op == OP_UPSAMPLE ? "Resize" : "ScatterElements"),
                        ARG_STR(g->call != NULL ? "function" : "model"), ARG_INT(g->opset)));
  } else if (n->op == OP_OTHER) {
    (void)onnxshape__error(&d, ONNXSHAPE_ERR_INVALID_MODEL,
                           "operator '{}' is not an operator of the default domain (ONNX's "
                           "operators through opset 28)",
                           ONNXSHAPE__ARGS(ARG_NAME(n->op_type)));
  } else {
    rule = CHECK_OPSET;
    (void)onnxshape__error(
        &d, ONNXSHAPE_ERR_INVALID_MODEL,
        "operator '{}' is defined from opset {}; the {} imports the default domain at opset {}",
        ONNXSHAPE__ARGS(ARG_NAME(n->op_type), ARG_UINT(n_since > 0 ? since[0] : 0),
                        ARG_STR(g->call != NULL ? "function" : "model"), ARG_INT(g->opset)));
  }
  onnxshape__in_graph(msg, sizeof msg, g->path, NULL, d.message);
  report(ctx, rule, g->path, n, msg);
}

/* What the check finds in the structure of every graph before analysing
 * it: a graph whose nodes the file does not give in topological order (one
 * finding, naming the first node that takes a later node's value), then
 * its nodes' unknown operators. */
static void report_structure(const onnxshape_model *m, onnxshape__report_fn report, void *ctx) {
  for (size_t k = 0; k < m->n_graphs; k++) {
    const model_graph *g = m->graphs[k];
    if (g->unordered_node != NULL) {
      char msg[ONNXSHAPE_DIAG_SIZE], placed[ONNXSHAPE_DIAG_SIZE];
      (void)onnxshape__format(
          msg, sizeof msg,
          "node '{}' takes '{}' before node '{}' makes it: ONNX requires a "
          "graph's nodes in topological order (analysed in dependency order)",
          ONNXSHAPE__ARGS(ARG_NAME(g->unordered_node), ARG_NAME(g->unordered_input),
                          ARG_NAME(g->unordered_producer)));
      onnxshape__in_graph(placed, sizeof placed, g->path, NULL, msg);
      report(ctx, CHECK_ORDER, g->path, NULL, placed);
    }
    for (size_t i = 0; i < g->n_nodes; i++) report_operator(g, &g->nodes[i], report, ctx);
  }
}

onnxshape_status onnxshape__model_infer_all(const onnxshape_model *m, onnxshape__report_fn report,
                                            void *ctx, onnxshape__arena *within,
                                            onnxshape_diag *diag) {
  const onnxshape_infer_options none = ONNXSHAPE_INFER_OPTIONS_INIT;
  onnxshape_inference *inf = NULL;
  report_structure(m, report, ctx);
  onnxshape_status st = infer_model(m, &none, &inf, report, ctx, within, diag);
  if (st == ONNXSHAPE_OK && inf->summary.out_of_work > 0) {
    /* the findings the budget left unsearched: said, not silently missing */
    char msg[ONNXSHAPE_DIAG_SIZE];
    (void)onnxshape__format(msg, sizeof msg,
                            "the analysis left {} nodes unknown at its budget ({} units of work "
                            "for this file, and half the memory limit: LIMIT-ANALYSIS-WORK); "
                            "findings there may be missing",
                            ONNXSHAPE__ARGS(ARG_UINT(inf->summary.out_of_work),
                                            ARG_UINT(inf->summary.work_limit)));
    report(ctx, CHECK_INCOMPLETE, "", NULL, msg);
  }
  onnxshape_inference_free(inf);
  return st;
}
