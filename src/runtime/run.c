/* SPDX-License-Identifier: Apache-2.0 */
/* Runs a loaded model's nodes in order through the public kernel API.
 * Reshape and Identity outputs are views: no tensor data is copied. */
#include <stdlib.h>
#include <string.h>

#include "../core/internal.h"
#include "../core/le.h"
#include "../onnx/alloc.h"
#include "../onnx/arena.h"
#include "runtime.h"

/* A result's values and the int64 words of Shape values and Reshape dims
 * come from one arena, limited to what the model's limit leaves
 * (LIMIT-MEMORY): the same node copying the same large dims many times
 * cannot take memory out of proportion to the file. Pointers stay valid:
 * an arena grows in blocks. */
struct onnxshape_result {
  const onnxshape_model *model;
  onnxshape__arena *arena;
  onnxshape_tensor *values; /* one per slot, in arena */
};

/* n int64 words (at least 1) from the result's arena, or NULL past its
 * limit (arena->over_limit) or out of memory. */
static int64_t *words_alloc(onnxshape_result *r, size_t n) {
  if (n == 0) n = 1;
  if (n > SIZE_MAX / 2 / sizeof(int64_t)) {
    r->arena->over_limit = 1;
    return NULL;
  }
  return onnxshape__arena_alloc(r->arena, n * sizeof(int64_t));
}

/* ERR_OUT_OF_MEMORY when the result's arena could not grow: the limit's
 * message past the limit, else the machine's memory. */
static onnxshape_status run_oom(const onnxshape_result *r, onnxshape_diag *diag) {
  return onnxshape__out_of_memory_at(r->arena != NULL && r->arena->over_limit,
                                     onnxshape__memory_limit(r->model->source_len),
                                     "running the model", diag);
}

void onnxshape_result_free(onnxshape_result *r) {
  if (r == NULL) return;
  onnxshape__arena_release(r->arena);
  onnxshape__free(r);
}

size_t onnxshape_result_count(const onnxshape_result *r) { return r ? r->model->g.n_outputs : 0; }

const char *onnxshape_result_name(const onnxshape_result *r, size_t i) {
  return r && i < r->model->g.n_outputs ? r->model->g.outputs[i].name : NULL;
}

const onnxshape_tensor *onnxshape_result_tensor(const onnxshape_result *r, size_t i) {
  return r && i < r->model->g.n_outputs ? &r->values[r->model->g.output_slots[i]] : NULL;
}


/* dims against a declaration: rank and every numeric dim; symbols match any
 * value. Returns the index of the first differing dim, rank for a rank
 * mismatch, or -1 when they agree. */
static long decl_mismatch(const value_decl *d, const onnxshape_tensor *t) {
  if (!d->has_shape) return -1;
  if (d->rank != t->rank) return (long)d->rank;
  for (size_t i = 0; i < d->rank; i++) {
    if (d->dims[i].value >= 0 && d->dims[i].value != t->dims[i]) return (long)i;
  }
  return -1;
}

/* Graph outputs must be what the model declares. */
static onnxshape_status check_outputs(const onnxshape_model *m, const onnxshape_result *r,
                                      onnxshape_diag *diag) {
  for (size_t i = 0; i < m->g.n_outputs; i++) {
    const value_decl *d = &m->g.outputs[i];
    const onnxshape_tensor *t = &r->values[m->g.output_slots[i]];
    if (d->has_type && d->elem_type != t->type) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "graph output '{}' is declared {} but the graph "
                   "produces {}", ONNXSHAPE__ARGS(ARG_NAME(d->name), ARG_STR(onnxshape_type_name(d->elem_type)), ARG_STR(onnxshape_type_name(t->type))));
    }
    long k = decl_mismatch(d, t);
    if (k >= 0 && (size_t)k == d->rank && d->rank != t->rank) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "graph output '{}' is declared with rank {} but "
                   "the graph produces rank {}", ONNXSHAPE__ARGS(ARG_NAME(d->name), ARG_UINT(d->rank), ARG_UINT(t->rank)));
    }
    if (k >= 0) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "graph output '{}' is declared with dim {} = "
                   "{} but the graph produces {}", ONNXSHAPE__ARGS(ARG_NAME(d->name), ARG_INT(k), ARG_INT(d->dims[k].value), ARG_INT(t->dims[k])));
    }
  }
  return ONNXSHAPE_OK;
}

/* A bound tensor must be well formed and match its declaration. */
static onnxshape_status check_binding(const value_decl *d, const onnxshape_tensor *t,
                                      onnxshape_diag *diag) {
  if (t == NULL || (t->dims == NULL && t->rank > 0)) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "input '{}': NULL tensor or dims", ONNXSHAPE__ARGS(ARG_NAME(d->name)));
  }
  if (onnxshape_type_get(t->type) == NULL) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_UNKNOWN_TYPE, "input '{}': unknown element type {}", ONNXSHAPE__ARGS(ARG_NAME(d->name), ARG_INT(t->type)));
  }
  int64_t n;
  onnxshape_status st = onnxshape_dims_count(t->dims, t->rank, &n);
  if (st != ONNXSHAPE_OK) {
    return onnxshape__error(diag, st, "input '{}': {}", ONNXSHAPE__ARGS(ARG_NAME(d->name), ARG_STR(onnxshape_status_text(st))));
  }
  size_t bytes;
  st = onnxshape_type_storage_bytes(t->type, n, &bytes);
  if (st != ONNXSHAPE_OK || t->data_bytes < bytes || (t->data == NULL && bytes > 0)) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_DATA_SIZE, "input '{}': {} elements of {} need more than the "
                 "{} bytes given", ONNXSHAPE__ARGS(ARG_NAME(d->name), ARG_INT(n), ARG_STR(onnxshape_type_name(t->type)), ARG_UINT(t->data_bytes)));
  }
  return onnxshape__decl_check(d, t->type, t->rank, t->dims, "bound to", 0, diag);
}

static onnxshape_status bind_inputs(const onnxshape_model *m, onnxshape_result *r,
                                    const onnxshape_binding *inputs, size_t n_inputs,
                                    onnxshape_diag *diag) {
  for (size_t s = 0; s < m->n_slots; s++) {
    if (m->slot[s]->init != NULL) r->values[s] = m->slot[s]->init->view;
  }
  /* Which inputs are bound: on the stack for the usual few, else on the heap. */
  unsigned char few[64] = {0};
  unsigned char *bound = m->g.n_inputs <= sizeof few ? few : onnxshape__calloc(m->g.n_inputs, 1);
  if (bound == NULL) return onnxshape__out_of_memory(NULL, NULL, diag);
  onnxshape_status st = ONNXSHAPE_OK;
  for (size_t b = 0; b < n_inputs && st == ONNXSHAPE_OK; b++) {
    const char *name = inputs[b].name;
    long s = name != NULL ? onnxshape__graph_find_slot(&m->g, name) : -1;
    size_t i = s >= 0 && m->slot[s]->kind == SLOT_INPUT ? m->slot[s]->input_index : m->g.n_inputs;
    if (i == m->g.n_inputs) {
      st = onnxshape__no_such_input(&m->g, name != NULL ? name : "(null)", diag);
    } else if (bound[i]) {
      st = onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "graph input '{}' is bound twice", ONNXSHAPE__ARGS(ARG_NAME(name)));
    } else {
      st = check_binding(&m->g.inputs[i], inputs[b].tensor, diag);
      bound[i] = 1;
      if (st == ONNXSHAPE_OK) r->values[m->g.input_slots[i]] = *inputs[b].tensor;
    }
  }
  for (size_t i = 0; i < m->g.n_inputs && st == ONNXSHAPE_OK; i++) {
    if (!bound[i] && m->slot[m->g.input_slots[i]]->init == NULL) {
      st = onnxshape__error(diag, ONNXSHAPE_ERR_NOT_FOUND, "graph input '{}' is not bound", ONNXSHAPE__ARGS(ARG_NAME(m->g.inputs[i].name)));
    }
  }
  if (bound != few) onnxshape__free(bound);
  return st;
}

static onnxshape_status run_shape(const graph_node *n, onnxshape_result *r, onnxshape_diag *diag) {
  const onnxshape_tensor *in = &r->values[n->inputs[0]];
  int64_t *words = in->rank < SIZE_MAX ? words_alloc(r, in->rank + 1) : NULL;
  if (words == NULL) return run_oom(r, diag);
  size_t len;
  onnxshape_status st = onnxshape_shape_run(n->version, in, &n->shape_attrs, words + 1, in->rank,
                                            &len, diag);
  if (st != ONNXSHAPE_OK) return st;
  words[0] = (int64_t)len;
  /* The output is tensor storage: little-endian on every host. */
  for (size_t i = 0; i < len; i++) {
    onnxshape__store_le((unsigned char *)(words + 1 + i), (uint64_t)words[1 + i], 8);
  }
  onnxshape_tensor *out = &r->values[n->outputs[0]];
  *out = (onnxshape_tensor){ONNXSHAPE_TYPE_INT64, 1, words, words + 1, len * sizeof(int64_t)};
  return ONNXSHAPE_OK;
}

static onnxshape_status run_size(const graph_node *n, onnxshape_result *r, onnxshape_diag *diag) {
  int64_t *word = words_alloc(r, 1);
  if (word == NULL) return run_oom(r, diag);
  onnxshape_status st = onnxshape_size_run(n->version, &r->values[n->inputs[0]], word, diag);
  if (st != ONNXSHAPE_OK) return st;
  onnxshape__store_le((unsigned char *)word, (uint64_t)*word, 8); /* storage: little-endian */
  r->values[n->outputs[0]] = (onnxshape_tensor){ONNXSHAPE_TYPE_INT64, 0, NULL, word, sizeof *word};
  return ONNXSHAPE_OK;
}

static onnxshape_status run_reshape(const graph_node *n, onnxshape_result *r, onnxshape_diag *diag) {
  const onnxshape_tensor *data = &r->values[n->inputs[0]];
  const int64_t *shape = n->reshape1_shape;
  size_t len = n->reshape1_len;
  int64_t *words;
  if (n->n_inputs == 2) {
    const onnxshape_tensor *s = &r->values[n->inputs[1]];
    onnxshape_status st = onnxshape_reshape_check_shape_input(n->version, s->type, s->rank, diag);
    if (st != ONNXSHAPE_OK) return st;
    len = (size_t)s->dims[0];
    if (s->data_bytes / sizeof(int64_t) < len) {
      return onnxshape__fail(diag, ONNXSHAPE_ERR_DATA_SIZE, "Reshape", n->version,
                             "the 'shape' input holds fewer than {} values", ONNXSHAPE__ARGS(ARG_UINT(len)));
    }
    /* Read into host int64: the storage is little-endian and may sit at any
     * alignment inside a mapped file. (len <= data_bytes / 8: 2 * len does
     * not wrap.) */
    words = words_alloc(r, 2 * len);
    if (words == NULL) return run_oom(r, diag);
    const unsigned char *p = s->data;
    for (size_t i = 0; i < len; i++) words[len + i] = (int64_t)onnxshape__load_le(p + 8 * i, 8);
    shape = words + len;
  } else {
    words = words_alloc(r, len);
    if (words == NULL) return run_oom(r, diag);
  }
  return onnxshape_reshape_run_view(n->version, data, shape, len, &n->reshape_attrs, words, len,
                                    &r->values[n->outputs[0]], diag);
}

static onnxshape_status run_node(const graph_node *n, onnxshape_result *r, onnxshape_diag *diag) {
  switch (n->op) {
    case OP_SHAPE: return run_shape(n, r, diag);
    case OP_SIZE: return run_size(n, r, diag);
    case OP_RESHAPE: return run_reshape(n, r, diag);
    case OP_CONSTANT: r->values[n->outputs[0]] = n->constant->view; return ONNXSHAPE_OK;
    case OP_IDENTITY: {
      const onnxshape_tensor *in = &r->values[n->inputs[0]];
      onnxshape_status st = onnxshape__identity_check(n->version, in->type, diag);
      if (st != ONNXSHAPE_OK) return st;
      r->values[n->outputs[0]] = *in;
      return ONNXSHAPE_OK;
    }
    default: break; /* refused before anything runs (runnable) */
  }
  return onnxshape__error(diag, ONNXSHAPE_ERR_UNKNOWN_OPERATOR, "unknown node kind", ONNXSHAPE__NO_ARGS);
}

/* The nodes `run` executes: the kernels, Constant and Identity. A model with
 * any other node is refused with one message that names every other
 * operator with its count (RUN-UNSUPPORTED). */
static int cannot_run(const graph_node *n) {
  return (onnxshape__op_flags(n->op) & OPF_STRICT) == 0;
}

/* The first of the main graph's inputs and outputs that is not a tensor, or
 * NULL; *what says which. */
static const value_decl *first_not_tensor(const model_graph *g, const char **what) {
  for (size_t i = 0; i < g->n_inputs; i++) {
    *what = "input";
    if (g->inputs[i].not_tensor != NULL) return &g->inputs[i];
  }
  for (size_t i = 0; i < g->n_outputs; i++) {
    *what = "output";
    if (g->outputs[i].not_tensor != NULL) return &g->outputs[i];
  }
  return NULL;
}

/* ONNXSHAPE_OK when `run` can execute every node of the model, else the
 * refusal naming what it cannot (RUN-UNSUPPORTED). */
static onnxshape_status runnable(const onnxshape_model *m, onnxshape_diag *diag) {
  const char *what = "";
  const value_decl *d = first_not_tensor(&m->g, &what);
  if (d != NULL) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL,
                            "run takes and gives tensors only; graph {} '{}' is {} (use infer or "
                            "check to analyse the model)",
                            ONNXSHAPE__ARGS(ARG_STR(what), ARG_NAME(d->name), ARG_STR(d->not_tensor)));
  }
  for (size_t i = 0; i < m->g.n_slots; i++) {
    if (m->g.slots[i].kind == SLOT_SPARSE) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL,
                              "run does not take sparse initializers ('{}'); use infer or check "
                              "to analyse the model",
                              ONNXSHAPE__ARGS(ARG_NAME(m->g.slots[i].name)));
    }
  }
  op_count counts[ONNXSHAPE__OP_COUNT_MAX];
  size_t more = 0;
  size_t n = onnxshape__count_ops(&m->g, cannot_run, counts, ONNXSHAPE__OP_COUNT_MAX, &more);
  if (n == 0) return ONNXSHAPE_OK;
  /* The list gets the room the rest of the message leaves, so that the
   * message ends as a sentence (the list says how many it left out). */
  static const char *const refusal =
      "run executes Shape, Reshape, Size, Constant and Identity only; this model also has {} "
      "(use infer or check to analyse it)";
  onnxshape_diag empty = {diag != NULL ? diag->node : NULL, {0}};
  (void)onnxshape__error(&empty, ONNXSHAPE_ERR_UNKNOWN_OPERATOR, refusal,
                         ONNXSHAPE__ARGS(ARG_TEXT("")));
  char list[ONNXSHAPE_DIAG_SIZE];
  onnxshape__op_counts_text(counts, n, more, list, sizeof list - strlen(empty.message));
  return onnxshape__error(diag, ONNXSHAPE_ERR_UNKNOWN_OPERATOR, refusal,
                          ONNXSHAPE__ARGS(ARG_TEXT(list)));
}

onnxshape_status onnxshape_model_check_runnable(const onnxshape_model *m, onnxshape_diag *diag) {
  if (m == NULL) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "model_check_runnable: NULL argument",
                            ONNXSHAPE__NO_ARGS);
  }
  onnxshape_status st = runnable(m, diag);
  if (st == ONNXSHAPE_OK) onnxshape__diag_clear(diag);
  return st;
}

onnxshape_status onnxshape_model_run(const onnxshape_model *m, const onnxshape_binding *inputs,
                                     size_t n_inputs, onnxshape_result **out,
                                     onnxshape_diag *diag) {
  if (m == NULL || out == NULL || (inputs == NULL && n_inputs > 0)) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "model_run: NULL argument", ONNXSHAPE__NO_ARGS);
  }
  onnxshape_status st = runnable(m, diag);
  if (st != ONNXSHAPE_OK) return st;
  onnxshape_result *r = onnxshape__malloc(sizeof *r);
  if (r == NULL) return onnxshape__out_of_memory(NULL, NULL, diag);
  r->model = m;
  r->values = NULL;
  /* What the model's limit leaves (LIMIT-MEMORY), as for infer. */
  size_t limit = onnxshape__memory_limit(m->source_len);
  r->arena = onnxshape__arena_new(limit > m->arena->taken ? limit - m->arena->taken : 0);
  if (r->arena == NULL) {
    onnxshape__free(r);
    return onnxshape__out_of_memory(NULL, NULL, diag);
  }
  if (m->n_slots < SIZE_MAX / 2 / sizeof(onnxshape_tensor)) {
    r->values = onnxshape__arena_alloc(r->arena, (m->n_slots + 1) * sizeof(onnxshape_tensor));
  } else {
    r->arena->over_limit = 1;
  }
  if (r->values == NULL) {
    st = run_oom(r, diag);
    onnxshape_result_free(r);
    return st;
  }
  const char *caller_node = diag != NULL ? diag->node : NULL;
  st = bind_inputs(m, r, inputs, n_inputs, diag);
  for (size_t i = 0; i < m->g.n_nodes && st == ONNXSHAPE_OK; i++) {
    if (diag != NULL) diag->node = m->g.nodes[i].label;
    st = run_node(&m->g.nodes[i], r, diag);
  }
  if (diag != NULL) diag->node = caller_node;
  if (st == ONNXSHAPE_OK) st = check_outputs(m, r, diag);
  if (st != ONNXSHAPE_OK) {
    onnxshape_result_free(r);
    return st;
  }
  onnxshape__diag_clear(diag);
  *out = r;
  return ONNXSHAPE_OK;
}
