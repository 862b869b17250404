/* SPDX-License-Identifier: Apache-2.0 */
/* What can be known of every value without input data. Dims are numbers,
 * symbols (dim_param) or unknown; 1-D int64 values (Shape's output, Reshape's
 * target) are tracked element by element the same way, so that
 * Reshape(x, Shape(y)) keeps y's symbols. */
#include <stdlib.h>
#include <string.h>

#include "../onnx/alloc.h"
#include "../onnx/arena.h"

#include "../core/internal.h"
#include "../core/le.h"
#include "../onnx/model.h"
#include "../ops/reshape_rules.h"

/* An element (dim or value) is a number (known), a symbol, or unknown. */
typedef struct sym {
  int known;
  int64_t v;
  const char *param;
} sym;

typedef struct slot_info {
  int32_t type;
  int rank_known;
  size_t rank;
  sym *dims;
  int vals_known;   /* 1 when vals describes a 1-D int64 or scalar int64 value */
  size_t n_vals;
  sym *vals;
  const onnxshape_tensor *value; /* fully known value */
} slot_info;

/* A tensor's dims, and an integer tensor's values, are followed one by one
 * up to this many (LIMIT-MEMORY): a longer target gives an output of unknown
 * rank, a longer value is not tracked. Real models stay far below it. */
#define MAX_ENUM 1024u

struct onnxshape_inference {
  size_t n;
  onnxshape_value_info *infos;
  slot_info *slots;
  onnxshape__arena *arena; /* everything else, within the model's memory limit */
};

static void *inf_alloc(onnxshape_inference *inf, size_t bytes) {
  return onnxshape__arena_alloc(inf->arena, bytes);
}

void onnxshape_inference_free(onnxshape_inference *inf) {
  if (inf == NULL) return;
  onnxshape__arena_release(inf->arena);
  onnxshape__free(inf->infos);
  onnxshape__free(inf->slots);
  onnxshape__free(inf);
}

size_t onnxshape_inference_count(const onnxshape_inference *inf) { return inf ? inf->n : 0; }

const onnxshape_value_info *onnxshape_inference_get(const onnxshape_inference *inf, size_t i) {
  return inf && i < inf->n ? &inf->infos[i] : NULL;
}

#define OOM() out_of_memory(inf, diag)

/* Out of memory, or past the limit of LIMIT-MEMORY. */
static onnxshape_status out_of_memory(const onnxshape_inference *inf, onnxshape_diag *diag) {
  if (inf != NULL && inf->arena != NULL && inf->arena->over_limit) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_OUT_OF_MEMORY,
                 "static inference would take more than {} MiB of memory beside the model "
                 "(" ONNXSHAPE__LIMIT_TEXT ")",
                 ONNXSHAPE__ARGS(ARG_UINT(inf->arena->limit >> 20)));
  }
  return onnxshape__error(diag, ONNXSHAPE_ERR_OUT_OF_MEMORY, "out of memory", ONNXSHAPE__NO_ARGS);
}

static int set_rank(onnxshape_inference *inf, slot_info *s, size_t rank) {
  s->rank_known = 1;
  s->rank = rank;
  s->dims = inf_alloc(inf, (rank + 1) * sizeof(sym));
  return s->dims != NULL;
}

/* Fills s from a concrete tensor; int64 vectors and scalars also as values. */
static int from_tensor(onnxshape_inference *inf, slot_info *s, const onnxshape_tensor *t,
                       int value_known) {
  s->type = t->type;
  if (!set_rank(inf, s, t->rank)) return 0;
  for (size_t i = 0; i < t->rank; i++) s->dims[i] = (sym){1, t->dims[i], NULL};
  if (!value_known) return 1;
  s->value = t;
  if (t->type == ONNXSHAPE_TYPE_INT64 && t->rank <= 1 && (t->rank == 0 || t->dims[0] <= (int64_t)MAX_ENUM)) {
    size_t n = t->rank == 0 ? 1 : (size_t)t->dims[0];
    s->vals = inf_alloc(inf, (n + 1) * sizeof(sym));
    if (s->vals == NULL) return 0;
    const unsigned char *p = t->data;
    for (size_t i = 0; i < n; i++) s->vals[i] = (sym){1, (int64_t)onnxshape__load_le(p + 8 * i, 8), NULL};
    s->vals_known = 1;
    s->n_vals = n;
  }
  return 1;
}

static int from_decl(onnxshape_inference *inf, slot_info *s, const value_decl *d) {
  if (d->has_type) s->type = d->elem_type;
  if (!d->has_shape) return 1;
  if (!set_rank(inf, s, d->rank)) return 0;
  for (size_t i = 0; i < d->rank; i++) {
    s->dims[i] = (sym){d->dims[i].value >= 0, d->dims[i].value, d->dims[i].param};
  }
  return 1;
}

static int all_known(const sym *x, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (!x[i].known) return 0;
  }
  return 1;
}

/* A concrete int64 tensor for a fully known value list (dims [n] or []). */
static const onnxshape_tensor *make_value(onnxshape_inference *inf, const sym *vals, size_t n,
                                          int scalar) {
  onnxshape_tensor *t = inf_alloc(inf, sizeof *t);
  int64_t *words = inf_alloc(inf, (n + 1) * sizeof(int64_t));
  if (t == NULL || words == NULL) return NULL;
  words[0] = (int64_t)n;
  /* Tensor storage: little-endian on every host (STORAGE-LE-HOST). */
  for (size_t i = 0; i < n; i++) onnxshape__store_le((unsigned char *)(words + i + 1), (uint64_t)vals[i].v, 8);
  *t = (onnxshape_tensor){ONNXSHAPE_TYPE_INT64, scalar ? 0 : 1, scalar ? NULL : words, words + 1,
                          n * sizeof(int64_t)};
  return t;
}

static onnxshape_status infer_shape(onnxshape_inference *inf, const graph_node *n, slot_info *in,
                                    slot_info *out, onnxshape_diag *diag) {
  out->type = ONNXSHAPE_TYPE_INT64;
  if (!set_rank(inf, out, 1)) return OOM();
  if (!in->rank_known) return ONNXSHAPE_OK;
  size_t len;
  int32_t type = in->type != 0 ? in->type : ONNXSHAPE_TYPE_FLOAT;
  onnxshape_status st = onnxshape_shape_infer(n->version, type, in->rank, &n->shape_attrs, &len,
                                              diag);
  if (st != ONNXSHAPE_OK) return st;
  out->dims[0] = (sym){1, (int64_t)len, NULL};
  /* The values are the selected dims; find where the slice starts. */
  size_t start = 0;
  if (n->shape_attrs.has_start) {
    int64_t r = (int64_t)in->rank, a = n->shape_attrs.start;
    int64_t s = a < 0 ? (a < -r ? 0 : a + r) : (a > r ? r : a);
    start = (size_t)s;
  }
  out->vals = inf_alloc(inf, (len + 1) * sizeof(sym));
  if (out->vals == NULL) return OOM();
  for (size_t i = 0; i < len; i++) out->vals[i] = in->dims[start + i];
  out->vals_known = 1;
  out->n_vals = len;
  if (all_known(out->vals, len)) out->value = make_value(inf, out->vals, len, 0);
  return ONNXSHAPE_OK;
}

static onnxshape_status infer_size(onnxshape_inference *inf, const graph_node *n, slot_info *in,
                                   slot_info *out, onnxshape_diag *diag) {
  out->type = ONNXSHAPE_TYPE_INT64;
  if (!set_rank(inf, out, 0)) return OOM();
  if (in->type != 0) {
    onnxshape_status st = onnxshape_size_infer(n->version, in->type, diag);
    if (st != ONNXSHAPE_OK) return st;
  }
  if (!in->rank_known || !all_known(in->dims, in->rank)) return ONNXSHAPE_OK;
  int64_t dims[64], count;
  const int64_t *d = dims;
  int64_t *heap = NULL;
  if (in->rank > 64) {
    heap = inf_alloc(inf, in->rank * sizeof(int64_t));
    if (heap == NULL) return OOM();
    d = heap;
  }
  for (size_t i = 0; i < in->rank; i++) (heap ? heap : dims)[i] = in->dims[i].v;
  onnxshape_tensor t = {in->type != 0 ? in->type : ONNXSHAPE_TYPE_FLOAT, in->rank, d, NULL, 0};
  onnxshape_status st = onnxshape_size_run(n->version, &t, &count, diag);
  if (st != ONNXSHAPE_OK) return st;
  sym v = {1, count, NULL};
  out->vals = inf_alloc(inf, sizeof(sym));
  if (out->vals == NULL) return OOM();
  out->vals[0] = v;
  out->vals_known = 1;
  out->n_vals = 1;
  out->value = make_value(inf, &v, 1, 1);
  return ONNXSHAPE_OK;
}

/* Reshape with some symbols: the rules that hold whatever the data, and the
 * dims that can be named. */
static onnxshape_status infer_reshape_symbolic(onnxshape_inference *inf, const graph_node *n,
                                               slot_info *in, const sym *target, size_t len,
                                               slot_info *out, onnxshape_diag *diag) {
  /* Every rule that the known target values alone decide: the kernel's own
   * (reshape_rules.h), each value not known given as 1, which none of them
   * rejects. */
  int64_t *values = inf_alloc(inf, (len + 1) * sizeof(int64_t));
  if (values == NULL) return OOM();
  for (size_t i = 0; i < len; i++) values[i] = target[i].known ? target[i].v : 1;
  onnxshape_status st = onnxshape__reshape_check_known(
      n->version, in->type, values, len, in->rank_known ? in->rank : SIZE_MAX, &n->reshape_attrs,
      diag);
  if (st != ONNXSHAPE_OK) return st;
  /* The dims that can be named: literals, and what a 0 copies. */
  int allowzero = n->reshape_attrs.has_allowzero && n->reshape_attrs.allowzero == 1;
  if (!set_rank(inf, out, len)) return OOM();
  size_t minus = len;
  for (size_t i = 0; i < len; i++) {
    int64_t v = target[i].v;
    if (!target[i].known) {
      out->dims[i] = (sym){0, -1, target[i].param};
    } else if (v == -1) {
      minus = i;
      out->dims[i] = (sym){0, -1, NULL};
    } else if (v == 0 && !allowzero) {
      out->dims[i] = in->rank_known ? in->dims[i] : (sym){0, -1, NULL};
    } else {
      out->dims[i] = (sym){1, v, NULL};
    }
  }
  /* -1 from [N,3,4] to [0,-1]: when every non-number input dim is copied in
   * place by a 0, the symbols cancel and -1 = (known input) / (known target). */
  if (minus == len || !in->rank_known) return ONNXSHAPE_OK;
  int64_t num = 1, den = 1;
  for (size_t i = 0; i < in->rank; i++) {
    int copied = !allowzero && i < len && target[i].known && target[i].v == 0;
    if (copied) continue;
    if (!in->dims[i].known) return ONNXSHAPE_OK;
    if (!onnxshape__mul_nonneg(num, in->dims[i].v, &num)) return ONNXSHAPE_OK;
  }
  for (size_t i = 0; i < len; i++) {
    int copied = !allowzero && i < in->rank && target[i].known && target[i].v == 0;
    if (i == minus || copied) continue;
    if (!out->dims[i].known) return ONNXSHAPE_OK;
    if (!onnxshape__mul_nonneg(den, out->dims[i].v, &den)) return ONNXSHAPE_OK;
  }
  if (den != 0 && num % den == 0) out->dims[minus] = (sym){1, num / den, NULL};
  return ONNXSHAPE_OK;
}

static onnxshape_status infer_reshape(onnxshape_inference *inf, const graph_node *n, slot_info *in,
                                      slot_info *shape, slot_info *out, onnxshape_diag *diag) {
  out->type = in->type;
  sym *target = NULL;
  size_t len = 0;
  if (n->n_inputs == 1) {
    len = n->reshape1_len;
    target = inf_alloc(inf, (len + 1) * sizeof(sym));
    if (target == NULL) return OOM();
    for (size_t i = 0; i < len; i++) target[i] = (sym){1, n->reshape1_shape[i], NULL};
  } else {
    if (shape->type != 0 && shape->rank_known) {
      onnxshape_status st =
          onnxshape_reshape_check_shape_input(n->version, shape->type, shape->rank, diag);
      if (st != ONNXSHAPE_OK) return st;
    }
    if (shape->vals_known) {
      target = shape->vals;
      len = shape->n_vals;
    } else if (shape->rank_known && shape->rank == 1 && shape->dims[0].known &&
               shape->dims[0].v <= (int64_t)MAX_ENUM) {
      /* The target's length is the output's rank (a longer one stays unknown). */
      if (!set_rank(inf, out, (size_t)shape->dims[0].v)) return OOM();
      for (size_t i = 0; i < out->rank; i++) out->dims[i] = (sym){0, -1, NULL};
      return ONNXSHAPE_OK;
    } else {
      return ONNXSHAPE_OK;
    }
  }
  if (in->rank_known && all_known(in->dims, in->rank) && all_known(target, len)) {
    /* Everything is a number: the kernel decides, errors included. */
    int64_t *dims = inf_alloc(inf, (in->rank + 1) * sizeof(int64_t));
    int64_t *tv = inf_alloc(inf, (len + 1) * sizeof(int64_t));
    int64_t *od = inf_alloc(inf, (len + 1) * sizeof(int64_t));
    if (dims == NULL || tv == NULL || od == NULL) return OOM();
    for (size_t i = 0; i < in->rank; i++) dims[i] = in->dims[i].v;
    for (size_t i = 0; i < len; i++) tv[i] = target[i].v;
    onnxshape_status st = onnxshape_reshape_infer(
        n->version, in->type != 0 ? in->type : ONNXSHAPE_TYPE_FLOAT, dims, in->rank, tv, len,
        &n->reshape_attrs, od, len, diag);
    if (st != ONNXSHAPE_OK) return st;
    if (!set_rank(inf, out, len)) return OOM();
    for (size_t i = 0; i < len; i++) out->dims[i] = (sym){1, od[i], NULL};
    return ONNXSHAPE_OK;
  }
  return infer_reshape_symbolic(inf, n, in, target, len, out, diag);
}

static onnxshape_status infer_node(onnxshape_inference *inf, const graph_node *n,
                                   onnxshape_diag *diag) {
  slot_info *out = &inf->slots[n->outputs[0]];
  slot_info *in = n->n_inputs > 0 ? &inf->slots[n->inputs[0]] : NULL;
  switch (n->kind) {
    case NODE_SHAPE:
      if (in->type != 0) {
        onnxshape_status st = onnxshape_check_type(ONNXSHAPE_OP_SHAPE, n->version, in->type, diag);
        if (st != ONNXSHAPE_OK) return st;
      }
      return infer_shape(inf, n, in, out, diag);
    case NODE_SIZE: return infer_size(inf, n, in, out, diag);
    case NODE_RESHAPE:
      return infer_reshape(inf, n, in, n->n_inputs == 2 ? &inf->slots[n->inputs[1]] : NULL, out,
                           diag);
    case NODE_CONSTANT:
      return from_tensor(inf, out, &n->constant->view, 1) ? ONNXSHAPE_OK : OOM();
    case NODE_IDENTITY:
      if (in->type != 0 &&
          (onnxshape__other_types(ONNXSHAPE__IDENTITY, n->version) & (1u << in->type)) == 0) {
        return onnxshape__fail(diag, ONNXSHAPE_ERR_TYPE_NOT_ALLOWED, "Identity", n->version,
                               "input type {} is not allowed", ONNXSHAPE__ARGS(ARG_STR(onnxshape_type_name(in->type))));
      }
      *out = *in;
      return ONNXSHAPE_OK;
  }
  return onnxshape__error(diag, ONNXSHAPE_ERR_UNKNOWN_OPERATOR, "unknown node kind", ONNXSHAPE__NO_ARGS);
}

static int publish(onnxshape_inference *inf, const onnxshape_model *m) {
  inf->n = m->n_slots;
  inf->infos = onnxshape__calloc(m->n_slots + 1, sizeof *inf->infos);
  if (inf->infos == NULL) return 0;
  for (size_t i = 0; i < m->n_slots; i++) {
    const slot_info *s = &inf->slots[i];
    onnxshape_value_info *v = &inf->infos[i];
    v->name = m->slots[i].name;
    v->type = s->type;
    v->rank_known = s->rank_known;
    v->rank = s->rank;
    v->value = s->value;
    if (!s->rank_known) continue;
    int64_t *dims = inf_alloc(inf, (s->rank + 1) * sizeof(int64_t));
    const char **params = inf_alloc(inf, (s->rank + 1) * sizeof(char *));
    if (dims == NULL || params == NULL) return 0;
    for (size_t k = 0; k < s->rank; k++) {
      dims[k] = s->dims[k].known ? s->dims[k].v : -1;
      params[k] = s->dims[k].known ? NULL : s->dims[k].param;
    }
    v->dims = dims;
    v->params = (const char *const *)params;
  }
  for (size_t i = 0; i < m->n_nodes; i++) {
    const graph_node *n = &m->nodes[i];
    for (size_t k = 0; k < n->n_outputs; k++) {
      onnxshape_value_info *v = &inf->infos[n->outputs[k]];
      v->node = n->name;
      v->op = n->op_type;
      v->version = n->version;
    }
  }
  return 1;
}

/* Infers every node; with `report`, a node that cannot succeed is reported
 * (its message) and its output becomes unknown, and inference goes on.
 * Out of memory always stops. */
static onnxshape_status infer_model(const onnxshape_model *m, onnxshape_inference **out,
                                    void (*report)(void *ctx, const char *message), void *ctx,
                                    onnxshape_diag *diag) {
  if (m == NULL || out == NULL) return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "model_infer: NULL argument", ONNXSHAPE__NO_ARGS);
  onnxshape_inference *inf = onnxshape__calloc(1, sizeof *inf);
  if (inf == NULL) return onnxshape__error(diag, ONNXSHAPE_ERR_OUT_OF_MEMORY, "out of memory", ONNXSHAPE__NO_ARGS);
  inf->slots = onnxshape__calloc(m->n_slots + 1, sizeof *inf->slots);
  /* What the model itself takes counts against the same limit. */
  size_t limit = onnxshape__memory_limit(m->source_len);
  inf->arena = onnxshape__arena_new(limit > m->arena->taken ? limit - m->arena->taken : 0);
  if (inf->slots == NULL || inf->arena == NULL) {
    onnxshape_inference_free(inf);
    return onnxshape__error(diag, ONNXSHAPE_ERR_OUT_OF_MEMORY, "out of memory", ONNXSHAPE__NO_ARGS);
  }
  onnxshape_status st = ONNXSHAPE_OK;
  for (size_t i = 0; i < m->n_slots && st == ONNXSHAPE_OK; i++) {
    const value_slot *s = &m->slots[i];
    int ok = 1;
    if (s->kind == SLOT_INPUT) {
      const value_decl *d = &m->inputs[s->input_index];
      /* A default can be overridden at run time: its value is not known. */
      ok = (d->has_type || d->has_shape || s->init == NULL) ? from_decl(inf, &inf->slots[i], d)
                                                            : from_tensor(inf, &inf->slots[i],
                                                                          &s->init->view, 0);
    } else if (s->kind == SLOT_INITIALIZER) {
      ok = from_tensor(inf, &inf->slots[i], &s->init->view, 1);
    }
    if (!ok) st = OOM();
  }
  const char *caller_node = diag != NULL ? diag->node : NULL;
  for (size_t i = 0; i < m->n_nodes && st == ONNXSHAPE_OK; i++) {
    if (diag != NULL) diag->node = m->nodes[i].label;
    st = infer_node(inf, &m->nodes[i], diag);
    if (st != ONNXSHAPE_OK && st != ONNXSHAPE_ERR_OUT_OF_MEMORY && report != NULL) {
      report(ctx, diag != NULL ? diag->message : onnxshape_status_text(st));
      memset(&inf->slots[m->nodes[i].outputs[0]], 0, sizeof(slot_info));
      st = ONNXSHAPE_OK;
    }
  }
  if (diag != NULL) diag->node = caller_node;
  if (st == ONNXSHAPE_OK && !publish(inf, m)) st = OOM();
  if (st != ONNXSHAPE_OK) {
    onnxshape_inference_free(inf);
    return st;
  }
  onnxshape__diag_clear(diag);
  *out = inf;
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape_model_infer(const onnxshape_model *m, onnxshape_inference **out,
                                       onnxshape_diag *diag) {
  return infer_model(m, out, NULL, NULL, diag);
}

onnxshape_status onnxshape__model_infer_all(const onnxshape_model *m,
                                            void (*report)(void *ctx, const char *message),
                                            void *ctx, onnxshape_diag *diag) {
  onnxshape_inference *inf = NULL;
  onnxshape_status st = infer_model(m, &inf, report, ctx, diag);
  onnxshape_inference_free(inf);
  return st;
}
