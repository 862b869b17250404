/* SPDX-License-Identifier: Apache-2.0 */
/* ModelProto to the checked, protobuf-free form of model.h. Every static
 * rule is checked here, so running a model fails only on data. */
#define _POSIX_C_SOURCE 200809L
#include "model.h"

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "../core/internal.h"
#include "../core/le.h"
#include "alloc.h"
#include "arena.h"
#include "fileio.h"
#include "onnx_subset.pb-c.h"
#include "pbfast.h"
#include "wire.h"

/* The attributes of an operator version. */
typedef struct op_attr {
  const char *name;
  int type;
  int required;
} op_attr;

/* Constant's attributes by version (its versions and type sets are in
 * src/core/catalog.h, like every operator's); Identity has none. */
static const op_attr constant1_attrs[] = {{"value", ATTR_TENSOR, 1}};
static const op_attr constant11_attrs[] = {{"value", ATTR_TENSOR, 0},
                                           {"sparse_value", ATTR_SPARSE_TENSOR, 0}};
static const op_attr constant12_attrs[] = {
    {"value", ATTR_TENSOR, 0},         {"sparse_value", ATTR_SPARSE_TENSOR, 0},
    {"value_float", ATTR_FLOAT, 0},    {"value_floats", ATTR_FLOATS, 0},
    {"value_int", ATTR_INT, 0},        {"value_ints", ATTR_INTS, 0},
    {"value_string", ATTR_STRING, 0},  {"value_strings", ATTR_STRINGS, 0}};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const op_attr *constant_attrs(int version, size_t *n) {
  if (version < 11) {
    *n = COUNT(constant1_attrs);
    return constant1_attrs;
  }
  if (version < 12) {
    *n = COUNT(constant11_attrs);
    return constant11_attrs;
  }
  *n = COUNT(constant12_attrs);
  return constant12_attrs;
}

static const char *attr_type_name(int t) {
  static const char *const names[] = {
      [ATTR_UNDEFINED] = "UNDEFINED",   [ATTR_FLOAT] = "FLOAT",
      [ATTR_INT] = "INT",               [ATTR_STRING] = "STRING",
      [ATTR_TENSOR] = "TENSOR",         [ATTR_GRAPH] = "GRAPH",
      [ATTR_FLOATS] = "FLOATS",         [ATTR_INTS] = "INTS",
      [ATTR_STRINGS] = "STRINGS",       [ATTR_TENSORS] = "TENSORS",
      [ATTR_GRAPHS] = "GRAPHS",         [ATTR_SPARSE_TENSOR] = "SPARSE_TENSOR",
      [ATTR_SPARSE_TENSORS] = "SPARSE_TENSORS", [ATTR_TYPE_PROTO] = "TYPE_PROTO",
      [ATTR_TYPE_PROTOS] = "TYPE_PROTOS"};
  return t >= 0 && t <= ATTR_TYPE_PROTOS ? names[t] : "UNDEFINED";
}

/* ---- messages -------------------------------------------------------- */


/* Errors about one node: "<Op>-<v> (node '<label>'): ..." once the version
 * is known, "node '<label>' (<op_type>): ..." before. */
static const char *op_display(const graph_node *n) {
  return n->op_type != NULL ? n->op_type : "?";
}

#define NFAIL(n, st, ...)                                                              \
  ((n)->version > 0 ? onnxshape__fail(diag, st, op_display(n), (n)->version, __VA_ARGS__) \
                    : onnxshape__fail(diag, st, NULL, 0, __VA_ARGS__))

/* ---- model lifetime -------------------------------------------------- */

/* Zeroed memory for n items of `size` in the model's arena (whose memory
 * is zeroed), released with the model. */
static inline void *model_alloc(onnxshape_model *m, size_t n, size_t size) {
  if (size != 0 && n > SIZE_MAX / 2 / size) return NULL;
  return onnxshape__arena_alloc(m->arena, n * size);
}

/* A failed allocation while loading: past the memory limit (LIMIT-MEMORY:
 * a hostile model, e.g. function calls that nest to an exponential number
 * of bodies) or out of memory. */
static onnxshape_status out_of_memory(const onnxshape_model *m, onnxshape_diag *diag) {
  return onnxshape__out_of_memory(m != NULL ? m->arena : NULL, "loading the model", diag);
}

void onnxshape_model_free(onnxshape_model *m) {
  if (m == NULL) return;
  for (size_t k = 0; k < m->n_graphs; k++) {
    const model_graph *g = m->graphs[k];
    for (size_t i = 0; i < g->n_inits; i++) onnxshape_owned_tensor_free(g->inits[i]);
    for (size_t i = 0; i < g->n_nodes; i++) {
      graph_node *n = &g->nodes[i];
      for (size_t a = 0; a < n->n_attrs; a++) onnxshape_owned_tensor_free(n->attrs[a].t);
      onnxshape_owned_tensor_free(n->constant);
    }
  }
  if (m->source == NULL) {
    onnxshape__arena_release(m->arena); /* the model, its arrays and the decoded ModelProto */
    return;
  }
  onnxshape__map source = *m->source; /* in the arena */
  onnxshape__arena_release(m->arena);
  onnxshape__unmap(&source);
}

size_t onnxshape_model_input_count(const onnxshape_model *m) { return m ? m->g.n_inputs : 0; }
const char *onnxshape_model_input_name(const onnxshape_model *m, size_t i) {
  return m && i < m->g.n_inputs ? m->g.inputs[i].name : NULL;
}
int onnxshape_model_input_has_default(const onnxshape_model *m, size_t i) {
  return m && i < m->g.n_inputs && m->slot[m->g.input_slots[i]]->init != NULL;
}
size_t onnxshape_model_output_count(const onnxshape_model *m) { return m ? m->g.n_outputs : 0; }
const char *onnxshape_model_output_name(const onnxshape_model *m, size_t i) {
  return m && i < m->g.n_outputs ? m->g.outputs[i].name : NULL;
}
int64_t onnxshape_model_opset(const onnxshape_model *m) { return m ? m->opset : 0; }

/* ---- loading --------------------------------------------------------- */

static int is_default_domain(const char *d) {
  return d == NULL || d[0] == '\0' || strcmp(d, "ai.onnx") == 0;
}

/* 1 for the body of a call of a model-local function. */
static int is_body(const model_graph *g) { return g->owner != NULL && g->owner->body == g; }

/* What a graph's inputs and outputs are called in messages. */
static const char *graph_kind(const model_graph *g) { return is_body(g) ? "function" : "graph"; }

/* An overload as compared: "" when there is none. */
static const char *overload_of(const char *overload) { return overload != NULL ? overload : ""; }

static onnxshape_status load_opset(onnxshape_model *m, const Onnx__ModelProto *mp,
                                   onnxshape_diag *diag) {
  int found = 0;
  for (size_t i = 0; i < mp->n_opset_import; i++) {
    const Onnx__OperatorSetIdProto *o = mp->opset_import[i];
    if (!is_default_domain(o->domain)) continue;
    if (found) return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "the default domain is imported twice", ONNXSHAPE__NO_ARGS);
    found = 1;
    if (!o->has_version || o->version < 1 || o->version > ONNXSHAPE_MAX_OPSET) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_UNSUPPORTED_OPSET,
                   "the model imports default-domain opset {}; this build supports 1 to {}", ONNXSHAPE__ARGS(ARG_INT(o->version), ARG_INT(ONNXSHAPE_MAX_OPSET)));
    }
    m->opset = o->version;
  }
  if (!found) return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "the model has no default-domain opset import", ONNXSHAPE__NO_ARGS);
  return ONNXSHAPE_OK;
}

/* Slot names are looked up in a hash index (FNV-1a, linear probing), so that
 * loading a graph of n names takes time in n, not n squared (a linear scan
 * made a 20,000-node chain take 3.4 s). The index is at most half full. */
static inline size_t name_hash(const char *name) {
  uint64_t h = 14695981039346656037u;
  for (const unsigned char *c = (const unsigned char *)name; *c != '\0'; c++) {
    h = (h ^ *c) * 1099511628211u;
  }
  return (size_t)(h ^ (h >> 32));
}

/* The size of an open-addressing index for n entries (a power of two, at
 * least 8 and at least twice n), or 0 when it would not fit; the size - 1
 * in *mask. */
static size_t index_size(size_t n, size_t *mask) {
  size_t size = 8;
  while (size / 2 < n && size <= SIZE_MAX / 4) size *= 2;
  *mask = size - 1;
  return size / 2 >= n ? size : 0;
}

/* A zeroed open-addressing index for n entries in the model's arena (its
 * size - 1 in *mask); NULL when out of memory. Slots, functions and a
 * call's attributes use one. */
static size_t *new_index(onnxshape_model *m, size_t n, size_t *mask) {
  size_t size = index_size(n, mask);
  return size != 0 ? model_alloc(m, size, sizeof(size_t)) : NULL;
}

/* The local index of the slot named `name` in g alone, or -1; *free_at is
 * where the index would take it. */
static inline long find_slot_at(const model_graph *g, const char *name, size_t *free_at) {
  size_t at = name_hash(name) & g->slot_mask;
  for (size_t e; (e = g->slot_index[at]) != 0; at = (at + 1) & g->slot_mask) {
    const char *s = g->slots[e - 1].name;
    if (s[0] == name[0] && strcmp(s, name) == 0) return (long)(e - 1);
  }
  *free_at = at;
  return -1;
}

long onnxshape__graph_find_slot(const model_graph *g, const char *name) {
  for (; g != NULL; g = g->parent) {
    size_t unused;
    long i = find_slot_at(g, name, &unused);
    if (i >= 0) return (long)g->slots[i].id;
  }
  return -1;
}

/* The kind of a value that is not a tensor, for messages; NULL for a
 * tensor. */
static const char *other_kind(Onnx__TypeProto__ValueCase c) {
  switch (c) {
    case ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE: return "a sequence";
    case ONNX__TYPE_PROTO__VALUE_MAP_TYPE: return "a map";
    case ONNX__TYPE_PROTO__VALUE_OPTIONAL_TYPE: return "an optional";
    case ONNX__TYPE_PROTO__VALUE_SPARSE_TENSOR_TYPE: return "a sparse tensor";
    default: return NULL;
  }
}

/* A declaration of a value. The main graph's inputs and outputs must have a
 * type, and a tensor one a known element type; a sequence, map, optional or
 * sparse tensor is loaded as such (not_tensor: analysis knows nothing of
 * it, run refuses the model). value_info and a subgraph's inputs and
 * outputs may say less (no type): has_type stays 0. */
static onnxshape_status load_decl(onnxshape_model *m, const Onnx__ValueInfoProto *vi,
                                  value_decl *d, const char *what, int strict,
                                  onnxshape_diag *diag) {
  d->name = vi->name != NULL ? vi->name : "";
  if (d->name[0] == '\0') return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "a graph {} has no name", ONNXSHAPE__ARGS(ARG_STR(what)));
  const Onnx__TypeProto *tp = vi->type;
  d->not_tensor = tp != NULL ? other_kind(tp->value_case) : NULL;
  if (!strict) {
    const Onnx__TypeProto__Tensor *tt =
        tp != NULL && tp->value_case == ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE ? tp->tensor_type : NULL;
    if (tt == NULL || !tt->has_elem_type || onnxshape_type_get(tt->elem_type) == NULL) {
      if (tt == NULL || tt->shape == NULL) return ONNXSHAPE_OK;
    }
  }
  if (tp == NULL || tp->value_case == ONNX__TYPE_PROTO__VALUE__NOT_SET) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL,
                 "graph {} '{}' has no type (ONNX requires one for graph inputs and outputs)", ONNXSHAPE__ARGS(ARG_STR(what), ARG_NAME(d->name)));
  }
  if (tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE) return ONNXSHAPE_OK;
  const Onnx__TypeProto__Tensor *tt = tp->tensor_type;
  if (!strict && (!tt->has_elem_type || onnxshape_type_get(tt->elem_type) == NULL)) {
    /* a shape without a (known) element type */
  } else if (!tt->has_elem_type || onnxshape_type_get(tt->elem_type) == NULL) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "graph {} '{}' has {} element type {}", ONNXSHAPE__ARGS(ARG_STR(what), ARG_NAME(d->name), ARG_NAME(tt->has_elem_type ? "unknown" : "no"), ARG_INT(tt->elem_type)));
  }
  d->has_type = tt->has_elem_type && onnxshape_type_get(tt->elem_type) != NULL;
  d->elem_type = d->has_type ? tt->elem_type : 0;
  if (tt->shape != NULL) {
    d->has_shape = 1;
    d->rank = tt->shape->n_dim;
    if (d->rank > 0) {
      d->dims = model_alloc(m, d->rank, sizeof *d->dims);
      if (d->dims == NULL) return out_of_memory(m, diag);
    }
    for (size_t i = 0; i < d->rank; i++) {
      const Onnx__TensorShapeProto__Dimension *dim = tt->shape->dim[i];
      d->dims[i].value = -1;
      if (dim->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE) {
        if (dim->dim_value < 0) {
          return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "graph {} '{}' declares dim {} = {}", ONNXSHAPE__ARGS(ARG_STR(what), ARG_NAME(d->name), ARG_UINT(i), ARG_INT(dim->dim_value)));
        }
        d->dims[i].value = dim->dim_value;
      } else if (dim->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM &&
                 dim->dim_param != NULL && dim->dim_param[0] != '\0') {
        d->dims[i].param = dim->dim_param;
      }
    }
  }
  return ONNXSHAPE_OK;
}

/* A new value named `name` in g; *local is its index in g->slots. A name
 * may be defined once per graph (a subgraph's inputs and initializers may
 * shadow outer names; connect_output keeps node outputs out of the
 * enclosing graphs too, as ONNX's single static assignment requires). */
static onnxshape_status add_slot(onnxshape_model *m, model_graph *g, const char *name,
                                 slot_kind kind, size_t *local, onnxshape_diag *diag) {
  size_t at = 0;
  if (find_slot_at(g, name, &at) >= 0) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "the name '{}' is defined twice", ONNXSHAPE__ARGS(ARG_NAME(name)));
  }
  value_slot *s = &g->slots[g->n_slots];
  s->name = name;
  s->kind = kind;
  s->init = NULL;
  s->graph = g;
  s->id = m->n_slots++;
  *local = g->n_slots++;
  g->slot_index[at] = g->n_slots;
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape__decl_check(const value_decl *d, int32_t type, size_t rank,
                                       const int64_t *dims, const char *as, int model_error,
                                       onnxshape_diag *diag) {
  if (d->has_type && d->elem_type != type) {
    return onnxshape__error(diag, model_error ? ONNXSHAPE_ERR_INVALID_MODEL : ONNXSHAPE_ERR_TYPE_NOT_ALLOWED,
                 "input '{}' is declared {} but {} {}",
                 ONNXSHAPE__ARGS(ARG_NAME(d->name), ARG_STR(onnxshape_type_name(d->elem_type)),
                                 ARG_STR(as), ARG_STR(onnxshape_type_name(type))));
  }
  if (!d->has_shape) return ONNXSHAPE_OK;
  if (d->rank != rank) {
    return onnxshape__error(diag, model_error ? ONNXSHAPE_ERR_INVALID_MODEL : ONNXSHAPE_ERR_INVALID_RANK,
                 "input '{}' is declared with rank {} but {} rank {}",
                 ONNXSHAPE__ARGS(ARG_NAME(d->name), ARG_UINT(d->rank), ARG_STR(as), ARG_UINT(rank)));
  }
  for (size_t i = 0; i < rank; i++) {
    if (d->dims[i].value >= 0 && d->dims[i].value != dims[i]) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "input '{}' is declared with dim {} = {} but {} {}",
                   ONNXSHAPE__ARGS(ARG_NAME(d->name), ARG_UINT(i), ARG_INT(d->dims[i].value),
                                   ARG_STR(as), ARG_INT(dims[i])));
    }
  }
  return ONNXSHAPE_OK;
}

/* A synthesized Constant value (value_float(s), value_int(s), value_string(s))
 * in the model's arena: floats and ints stored little-endian, as ONNX storage
 * is on every host; strings as onnxshape_string. */
static onnxshape_status make_constant(onnxshape_model *m, const node_attr *a,
                                      onnxshape_owned_tensor **out, onnxshape_diag *diag) {
  int scalar = a->type == ATTR_FLOAT || a->type == ATTR_INT || a->type == ATTR_STRING;
  size_t count = a->type == ATTR_FLOATS ? a->n_floats
                 : a->type == ATTR_INTS ? a->n_ints
                 : a->type == ATTR_STRINGS ? a->n_strings : 1;
  int32_t type = a->type == ATTR_FLOAT || a->type == ATTR_FLOATS ? ONNXSHAPE_TYPE_FLOAT
                 : a->type == ATTR_INT || a->type == ATTR_INTS ? ONNXSHAPE_TYPE_INT64
                                                                      : ONNXSHAPE_TYPE_STRING;
  size_t elem = type == ONNXSHAPE_TYPE_FLOAT ? 4u : type == ONNXSHAPE_TYPE_INT64 ? 8u
                                                                                : sizeof(onnxshape_string);
  onnxshape_owned_tensor *t = model_alloc(m, 1, sizeof *t);
  int64_t *dims = model_alloc(m, 1, sizeof *dims);
  unsigned char *data = model_alloc(m, count, elem);
  if (t == NULL || dims == NULL || data == NULL) {
    return out_of_memory(m, diag);
  }
  for (size_t i = 0; i < count; i++) {
    uint64_t v = 0;
    if (type == ONNXSHAPE_TYPE_STRING) {
      onnxshape_string str = scalar ? a->s : a->strings[i];
      memcpy(data + i * elem, &str, sizeof str);
      continue;
    }
    if (type == ONNXSHAPE_TYPE_FLOAT) {
      uint32_t bits;
      float f = scalar ? a->f : a->floats[i];
      memcpy(&bits, &f, sizeof bits);
      v = bits;
    } else {
      v = (uint64_t)(scalar ? a->i : a->ints[i]);
    }
    onnxshape__store_le(data + i * elem, v, (unsigned)elem);
  }
  dims[0] = (int64_t)count;
  t->map.fd = -1;
  t->name = "";
  t->view.type = type;
  t->view.rank = scalar ? 0 : 1;
  t->view.dims = dims;
  t->view.data = data;
  t->view.data_bytes = count * elem;
  *out = t;
  return ONNXSHAPE_OK;
}

static onnxshape_status load_constant_value(onnxshape_model *m, graph_node *n,
                                            onnxshape_diag *diag) {
  node_attr *only = NULL;
  for (size_t i = 0; i < n->n_attrs; i++) {
    if (only != NULL) {
      return NFAIL(n, ONNXSHAPE_ERR_INVALID_ATTRIBUTE,
                   "Constant takes exactly one value attribute; both '{}' and '{}' are set",
                   ONNXSHAPE__ARGS(ARG_NAME(only->name), ARG_NAME(n->attrs[i].name)));
    }
    only = &n->attrs[i];
  }
  if (only == NULL) {
    return NFAIL(n, ONNXSHAPE_ERR_INVALID_ATTRIBUTE, "Constant needs one value attribute",
                 ONNXSHAPE__NO_ARGS);
  }
  if (only->type == ATTR_SPARSE_TENSOR) {
    return NFAIL(n, ONNXSHAPE_ERR_INVALID_ATTRIBUTE, "sparse_value is not supported",
                 ONNXSHAPE__NO_ARGS);
  }
  if (only->type == ATTR_TENSOR) {
    n->constant = only->t;
    only->t = NULL;
  } else {
    onnxshape_status st = make_constant(m, only, &n->constant, diag);
    if (st != ONNXSHAPE_OK) return st;
  }
  int32_t type = n->constant->view.type;
  if ((onnxshape__other_types(ONNXSHAPE__CONSTANT, n->version) & (1u << type)) == 0) {
    return NFAIL(n, ONNXSHAPE_ERR_TYPE_NOT_ALLOWED, "a {} value is not allowed",
                 ONNXSHAPE__ARGS(ARG_STR(onnxshape_type_name(type))));
  }
  return ONNXSHAPE_OK;
}

/* An attribute's numbers, lists of numbers and string, as they are in the
 * decoded AttributeProto. */
static void copy_scalars(node_attr *a, const Onnx__AttributeProto *ap) {
  a->i = ap->i;
  a->f = ap->f;
  a->ints = ap->ints;
  a->n_ints = ap->n_ints;
  a->floats = ap->floats;
  a->n_floats = ap->n_floats;
  a->s.data = (const char *)ap->s.data;
  a->s.length = ap->s.len;
}

/* An attribute reference (ref_attr_name) outside a function's body, where
 * it refers to nothing (inside one, references are resolved before the
 * node loads). */
static onnxshape_status stray_ref(const graph_node *n, const char *attr, onnxshape_diag *diag) {
  return NFAIL(n, ONNXSHAPE_ERR_INVALID_ATTRIBUTE,
               "attribute '{}' refers to a function attribute, which is only valid inside a "
               "function", ONNXSHAPE__ARGS(ARG_NAME(attr)));
}

/* Checks one attribute against the version's list and decodes it. */
static onnxshape_status load_attr(onnxshape_model *m, graph_node *n, const Onnx__AttributeProto *ap,
                                  node_attr *a, const op_attr *specs, size_t n_specs,
                                  onnxshape_diag *diag) {
  a->name = ap->name != NULL ? ap->name : "";
  if (ap->ref_attr_name != NULL) return stray_ref(n, a->name, diag);
  const op_attr *spec = NULL;
  for (size_t i = 0; i < n_specs; i++) {
    if (strcmp(specs[i].name, a->name) == 0) spec = &specs[i];
  }
  if (spec == NULL) {
    return NFAIL(n, ONNXSHAPE_ERR_INVALID_ATTRIBUTE, "attribute '{}' is not defined for {}-{}", ONNXSHAPE__ARGS(ARG_NAME(a->name), ARG_NAME(op_display(n)), ARG_INT(n->version)));
  }
  a->type = ap->has_type ? (int)ap->type : 0;
  if (a->type != spec->type) {
    return NFAIL(n, ONNXSHAPE_ERR_INVALID_ATTRIBUTE, "attribute '{}' has type {}; it must be {}", ONNXSHAPE__ARGS(ARG_NAME(a->name), ARG_STR(attr_type_name(a->type)), ARG_STR(attr_type_name(spec->type))));
  }
  copy_scalars(a, ap);
  if (a->type == ATTR_STRINGS && ap->n_strings > 0) {
    a->strings = model_alloc(m, ap->n_strings, sizeof *a->strings);
    if (a->strings == NULL) return out_of_memory(m, diag);
    for (size_t i = 0; i < ap->n_strings; i++) {
      a->strings[i].data = (const char *)ap->strings[i].data;
      a->strings[i].length = ap->strings[i].len;
    }
    a->n_strings = ap->n_strings;
  }
  if (a->type == ATTR_TENSOR) {
    if (ap->t == NULL) {
      return NFAIL(n, ONNXSHAPE_ERR_INVALID_ATTRIBUTE, "attribute '{}' has no tensor", ONNXSHAPE__ARGS(ARG_NAME(a->name)));
    }
    onnxshape_diag inner;
    onnxshape_diag_init(&inner);
    onnxshape_status st = onnxshape__tensor_from_proto(ap->t, m->ext, m->arena, &a->t, &inner);
    if (st != ONNXSHAPE_OK) return NFAIL(n, st, "attribute '{}': {}", ONNXSHAPE__ARGS(ARG_NAME(a->name), ARG_TEXT(inner.message)));
  }
  return ONNXSHAPE_OK;
}

/* The operator of a node, its version at the graph's opset, and what that
 * version takes: attributes (into *specs, room for 2 kernel attributes) and
 * the number of inputs. */
static onnxshape_status resolve_operator(int64_t opset, graph_node *n,
                                         const Onnx__NodeProto *np, op_attr kernel_specs[2],
                                         const op_attr **specs, size_t *n_specs, size_t *n_in,
                                         onnxshape_diag *diag) {
  if (!is_default_domain(np->domain)) {
    n->kind = NODE_OTHER;
    return ONNXSHAPE_OK;
  }
  onnxshape_op op;
  if (onnxshape_op_from_name(n->op_type, &op) == ONNXSHAPE_OK) {
    n->kind = (node_kind)op;
    onnxshape_status st = onnxshape_resolve_version(op, opset, &n->version, NULL);
    if (st != ONNXSHAPE_OK) {
      return onnxshape__error(diag, st, "cannot resolve a version of {}", ONNXSHAPE__ARGS(ARG_NAME(n->op_type)));
    }
    const onnxshape_op_version *v = onnxshape_op_version_get(op, n->version);
    for (size_t i = 0; i < v->num_attrs; i++) {
      kernel_specs[i].name = v->attrs[i].name;
      kernel_specs[i].type = (int)v->attrs[i].type;
      kernel_specs[i].required = v->attrs[i].required;
    }
    *specs = kernel_specs;
    *n_specs = v->num_attrs;
    *n_in = v->num_inputs;
    return ONNXSHAPE_OK;
  }
  if (strcmp(n->op_type, "Constant") == 0) {
    n->kind = NODE_CONSTANT;
    n->version = onnxshape__other_version(ONNXSHAPE__CONSTANT, opset);
    *specs = constant_attrs(n->version, n_specs);
    *n_in = 0;
    return ONNXSHAPE_OK;
  }
  if (strcmp(n->op_type, "Identity") == 0) {
    n->kind = NODE_IDENTITY;
    n->version = onnxshape__other_version(ONNXSHAPE__IDENTITY, opset);
    *specs = NULL;
    *n_specs = 0;
    *n_in = 1;
    return ONNXSHAPE_OK;
  }
  aop a;
  if (onnxshape__aop_find(n->op_type, opset, &a, &n->version) && n->version > 0) {
    n->kind = (node_kind)(NODE_AOP + (int)a);
  } else {
    n->kind = NODE_OTHER;
    n->version = 0;
  }
  return ONNXSHAPE_OK;
}

/* 1 for the nodes checked as strictly as the kernels: Shape, Reshape, Size,
 * Constant, Identity. */
static int strict_kind(node_kind k) {
  return k == NODE_SHAPE || k == NODE_RESHAPE || k == NODE_SIZE || k == NODE_CONSTANT ||
         k == NODE_IDENTITY;
}

/* Every attribute of the node: defined for its version, of the right type,
 * set at most once; every required one present. */
static onnxshape_status load_attrs(onnxshape_model *m, graph_node *n, const Onnx__NodeProto *np,
                                   const op_attr *specs, size_t n_specs, onnxshape_diag *diag) {
  if (np->n_attribute > 0) {
    n->attrs = model_alloc(m, np->n_attribute, sizeof *n->attrs);
    if (n->attrs == NULL) return out_of_memory(m, diag);
  }
  for (size_t i = 0; i < np->n_attribute; i++) {
    onnxshape_status st = load_attr(m, n, np->attribute[i], &n->attrs[i], specs, n_specs, diag);
    n->n_attrs = i + 1;
    if (st != ONNXSHAPE_OK) return st;
    for (size_t j = 0; j < i; j++) {
      if (strcmp(n->attrs[j].name, n->attrs[i].name) == 0) {
        return NFAIL(n, ONNXSHAPE_ERR_INVALID_ATTRIBUTE, "attribute '{}' is set twice",
                     ONNXSHAPE__ARGS(ARG_NAME(n->attrs[i].name)));
      }
    }
  }
  for (size_t s = 0; s < n_specs; s++) {
    if (!specs[s].required) continue;
    int present = 0;
    for (size_t i = 0; i < n->n_attrs; i++) present |= strcmp(n->attrs[i].name, specs[s].name) == 0;
    if (!present) {
      return NFAIL(n, ONNXSHAPE_ERR_INVALID_ATTRIBUTE, "required attribute '{}' is missing",
                   ONNXSHAPE__ARGS(ARG_NAME(specs[s].name)));
    }
  }
  return ONNXSHAPE_OK;
}

/* The kernels' attributes, as their structs. */
static onnxshape_status kernel_attrs(graph_node *n, onnxshape_diag *diag) {
  for (size_t i = 0; i < n->n_attrs; i++) {
    const node_attr *a = &n->attrs[i];
    if (strcmp(a->name, "start") == 0) {
      n->shape_attrs.has_start = 1;
      n->shape_attrs.start = a->i;
    } else if (strcmp(a->name, "end") == 0) {
      n->shape_attrs.has_end = 1;
      n->shape_attrs.end = a->i;
    } else if (strcmp(a->name, "allowzero") == 0) {
      n->reshape_attrs.has_allowzero = 1;
      n->reshape_attrs.allowzero = a->i;
      if (a->i != 0 && a->i != 1) {
        return NFAIL(n, ONNXSHAPE_ERR_INVALID_ATTRIBUTE, "allowzero = {}; it must be 0 or 1",
                     ONNXSHAPE__ARGS(ARG_INT(a->i)));
      }
    } else if (strcmp(a->name, "shape") == 0) {
      n->reshape1_shape = a->ints;
      n->reshape1_len = a->n_ints;
    }
  }
  return ONNXSHAPE_OK;
}

/* Input `in` of node n: defined earlier in g or a graph around it. */
static onnxshape_status connect_input(const model_graph *g, const graph_node *n, const char *in,
                                      size_t *id, onnxshape_diag *diag) {
  long s = onnxshape__graph_find_slot(g, in);
  if (s < 0) {
    return NFAIL(n, ONNXSHAPE_ERR_INVALID_MODEL,
                 "input '{}' is not a {} input, {}or the output of an earlier node",
                 ONNXSHAPE__ARGS(ARG_NAME(in), ARG_STR(graph_kind(g)),
                                 ARG_STR(is_body(g) ? "" : "an initializer ")));
  }
  *id = (size_t)s;
  return ONNXSHAPE_OK;
}

/* Output `out` of node n: a new name. */
static onnxshape_status connect_output(onnxshape_model *m, model_graph *g, graph_node *n,
                                       const char *out, size_t *id, onnxshape_diag *diag) {
  size_t unused;
  if (find_slot_at(g, out, &unused) >= 0 ||
      (g->parent != NULL && onnxshape__graph_find_slot(g->parent, out) >= 0)) {
    return NFAIL(n, ONNXSHAPE_ERR_INVALID_MODEL, "output '{}' is already defined",
                 ONNXSHAPE__ARGS(ARG_NAME(out)));
  }
  size_t local;
  onnxshape_status st = add_slot(m, g, out, SLOT_NODE, &local, diag);
  if (st != ONNXSHAPE_OK) return st;
  g->slots[local].producer = n;
  *id = g->slots[local].id;
  return ONNXSHAPE_OK;
}

/* The inputs and outputs of a node that is not checked strictly: any
 * number, "" for one left out; every other input defined earlier, every
 * output a new name. */
static onnxshape_status connect_other(onnxshape_model *m, model_graph *g, graph_node *n,
                                      const Onnx__NodeProto *np, onnxshape_diag *diag) {
  n->inputs = model_alloc(m, np->n_input + 1, sizeof *n->inputs);
  n->outputs = model_alloc(m, np->n_output + 1, sizeof *n->outputs);
  if (n->inputs == NULL || n->outputs == NULL) {
    return out_of_memory(m, diag);
  }
  for (size_t i = 0; i < np->n_input; i++) {
    const char *in = np->input[i];
    n->inputs[i] = NO_SLOT;
    n->n_inputs = i + 1;
    if (in == NULL || in[0] == '\0') continue;
    onnxshape_status st = connect_input(g, n, in, &n->inputs[i], diag);
    if (st != ONNXSHAPE_OK) return st;
  }
  for (size_t i = 0; i < np->n_output; i++) {
    const char *out = np->output[i];
    n->outputs[i] = NO_SLOT;
    n->n_outputs = i + 1;
    if (out == NULL || out[0] == '\0') continue;
    onnxshape_status st = connect_output(m, g, n, out, &n->outputs[i], diag);
    if (st != ONNXSHAPE_OK) return st;
  }
  return ONNXSHAPE_OK;
}

/* Subgraphs nest at most this deep (LIMIT-SUBGRAPH-DEPTH): each level is
 * decoded from bytes the level above holds, so deeper nesting would cost
 * memory in the depth times the size. Real models nest 2 or 3 deep. */
#define MAX_SUBGRAPH_DEPTH 32u

static onnxshape_status load_graph(onnxshape_model *m, model_graph *g, const Onnx__GraphProto *gp,
                                   onnxshape_diag *diag);

/* 1 when `path` is not yet a graph's path in the model, which it then
 * becomes; 0 when it is taken; -1 when out of memory. The set doubles when
 * half full (in the arena, where the old set stays: twice the final size
 * at most). */
static int claim_path(onnxshape_model *m, const char *path) {
  if (2 * (m->n_paths + 1) > m->paths_mask + 1) {
    size_t mask = 0;
    size_t size = index_size(2 * (m->n_paths + 1), &mask);
    const char **set = size != 0 ? model_alloc(m, size, sizeof *set) : NULL;
    if (set == NULL) return -1;
    for (size_t i = 0; m->paths != NULL && i <= m->paths_mask; i++) {
      if (m->paths[i] == NULL) continue;
      size_t at = name_hash(m->paths[i]) & mask;
      while (set[at] != NULL) at = (at + 1) & mask;
      set[at] = m->paths[i];
    }
    m->paths = set;
    m->paths_mask = mask;
  }
  size_t at = name_hash(path) & m->paths_mask;
  for (; m->paths[at] != NULL; at = (at + 1) & m->paths_mask) {
    if (strcmp(m->paths[at], path) == 0) return 0;
  }
  m->paths[at] = path;
  m->n_paths++;
  return 1;
}

/* "BASE#INDEX" in the model's arena, or NULL when out of memory. */
static const char *with_index(onnxshape_model *m, const char *base, size_t index) {
  size_t need = strlen(base) + 24;
  char *made = model_alloc(m, need, 1);
  if (made != NULL) (void)snprintf(made, need, "%s#%zu", base, index);
  return made;
}

/* The path of a graph that node n of g holds: g's path, n's part (its
 * name, or OP#INDEX without one), then `what` (an attribute, "[k]" after it
 * when many; or a function). While the path is taken (a name used twice, a
 * name holding "/", an attribute set twice), "#INDEX" is added to n's part,
 * so that no two graphs share a path. NULL when out of memory. */
static const char *graph_path(onnxshape_model *m, model_graph *g, graph_node *n,
                              const char *what, int many, size_t k) {
  size_t index = (size_t)(n - g->nodes);
  const char *part = n->path_name;
  if (part == NULL) part = n->name[0] != '\0' ? n->name : with_index(m, n->op_type, index);
  while (part != NULL) {
    size_t need = strlen(g->path) + strlen(part) + strlen(what) + 32;
    char *path = model_alloc(m, need, 1);
    if (path == NULL) return NULL;
    size_t at = 0;
    if (g->path[0] != '\0') at += (size_t)snprintf(path, need, "%s/", g->path);
    at += (size_t)snprintf(path + at, need - at, "%s/%s", part, what);
    if (many) (void)snprintf(path + at, need - at, "[%zu]", k);
    int claimed = claim_path(m, path);
    if (claimed < 0) return NULL;
    if (claimed > 0) {
      n->path_name = part;
      return path;
    }
    part = with_index(m, part, index);
  }
  return NULL;
}

void onnxshape__in_graph(char *out, size_t cap, const char *path, const char *note,
                         const char *message) {
  char text[ONNXSHAPE_DIAG_SIZE];
  (void)onnxshape__format(text, sizeof text, "{}", ONNXSHAPE__ARGS(ARG_TEXT(message)));
  if (path[0] == '\0') {
    (void)onnxshape__format(out, cap, "{}", ONNXSHAPE__ARGS(ARG_TEXT(text)));
  } else {
    (void)onnxshape__format(out, cap, "in {}{}{}: {}",
                            ONNXSHAPE__ARGS(ARG_NAME(path), ARG_STR(note != NULL ? " " : ""),
                                            ARG_STR(note != NULL ? note : ""), ARG_TEXT(text)));
  }
}

/* A load error in graph g (not the main graph) says where, once: "in
 * PATH: ..." with the innermost graph's path, which names the graphs and
 * calls around it. */
static onnxshape_status placed(onnxshape_model *m, const model_graph *g, onnxshape_status st,
                               onnxshape_diag *diag) {
  if (st == ONNXSHAPE_OK || st == ONNXSHAPE_ERR_OUT_OF_MEMORY || m->error_placed) return st;
  m->error_placed = 1;
  onnxshape__in_graph(diag->message, sizeof diag->message, g->path, NULL, diag->message);
  return st;
}

/* Loads gp as graph sub, which node n of g holds and which sees the names
 * of `scope` (g, or for a graph a call passed into a function's body, the
 * caller's graph), then says where an error is. */
static onnxshape_status load_held(onnxshape_model *m, model_graph *g, const model_graph *scope,
                                  graph_node *n, model_graph *sub, const Onnx__GraphProto *gp,
                                  onnxshape_diag *diag) {
  sub->owner = n;
  sub->depth = g->depth + 1;
  if (scope != NULL) {
    sub->parent = scope;
    sub->opset = scope->opset;
    sub->call = scope->call;
  }
  const char *node_label = diag->node;
  onnxshape_status st = load_graph(m, sub, gp, diag);
  diag->node = node_label;
  return placed(m, sub, st, diag);
}

/* The subgraph in `bytes` of attribute `attr` of node n of g (the k-th of
 * a GRAPHS attribute when many), which sees the names of `scope`. */
static onnxshape_status load_subgraph(onnxshape_model *m, model_graph *g, const model_graph *scope,
                                      graph_node *n, const char *attr,
                                      const ProtobufCBinaryData *bytes, int many, size_t k,
                                      onnxshape_diag *diag) {
  if (g->depth + 1 > MAX_SUBGRAPH_DEPTH) {
    return NFAIL(n, ONNXSHAPE_ERR_INVALID_MODEL,
                 "attribute '{}': subgraphs nest more than {} deep", ONNXSHAPE__ARGS(ARG_NAME(attr), ARG_UINT(MAX_SUBGRAPH_DEPTH)));
  }
  ProtobufCMessage *msg;
  onnxshape_status st = onnxshape__pb_decode_in(&onnx__graph_proto__descriptor, bytes->data,
                                                bytes->len, m->arena, &msg);
  if (st == ONNXSHAPE_ERR_MALFORMED) {
    return NFAIL(n, st, "attribute '{}' is not a valid GraphProto", ONNXSHAPE__ARGS(ARG_NAME(attr)));
  }
  if (st != ONNXSHAPE_OK) return out_of_memory(m, diag);
  model_graph *sub = model_alloc(m, 1, sizeof *sub);
  node_subgraph *entry = &n->subgraphs[n->n_subgraphs];
  const char *path = graph_path(m, g, n, attr, many, k);
  if (sub == NULL || path == NULL) {
    return out_of_memory(m, diag);
  }
  sub->path = path;
  entry->attr = attr;
  entry->graph = sub;
  n->n_subgraphs++;
  return load_held(m, g, scope, n, sub, (const Onnx__GraphProto *)msg, diag);
}

/* The attributes of a node that is not checked strictly, as far as analysis
 * needs them: every scalar and list as it is, ConstantOfShape's `value`
 * tensor decoded, every GRAPH and GRAPHS attribute loaded as a subgraph
 * that sees the names of g, or of scopes[i] for the i-th attribute when
 * scopes is given and that is not NULL (a graph a call passed in); for a
 * call, none (its body loads them where its references take them). */
static onnxshape_status load_other_attrs(onnxshape_model *m, model_graph *g, graph_node *n,
                                         const Onnx__NodeProto *np, int call,
                                         const model_graph *const *scopes, onnxshape_diag *diag) {
  size_t graphs = 0;
  for (size_t i = 0; i < np->n_attribute; i++) {
    const Onnx__AttributeProto *ap = np->attribute[i];
    graphs += (ap->has_g ? 1u : 0u) + ap->n_graphs;
  }
  n->attrs = model_alloc(m, np->n_attribute + 1, sizeof *n->attrs);
  n->subgraphs = model_alloc(m, graphs + 1, sizeof *n->subgraphs);
  if (n->attrs == NULL || n->subgraphs == NULL) {
    return out_of_memory(m, diag);
  }
  for (size_t i = 0; i < np->n_attribute; i++) {
    const Onnx__AttributeProto *ap = np->attribute[i];
    node_attr *a = &n->attrs[i];
    n->n_attrs = i + 1;
    a->name = ap->name != NULL ? ap->name : "";
    if (ap->ref_attr_name != NULL) return stray_ref(n, a->name, diag);
    a->type = ap->has_type ? (int)ap->type : 0;
    copy_scalars(a, ap);
    if (call) continue; /* a call's graphs load where its body's references take them */
    const model_graph *scope = scopes != NULL && scopes[i] != NULL ? scopes[i] : g;
    onnxshape_status st = ONNXSHAPE_OK;
    if (ap->has_g) st = load_subgraph(m, g, scope, n, a->name, &ap->g, 0, 0, diag);
    for (size_t k = 0; k < ap->n_graphs && st == ONNXSHAPE_OK; k++) {
      st = load_subgraph(m, g, scope, n, a->name, &ap->graphs[k], 1, k, diag);
    }
    if (st == ONNXSHAPE_OK && n->kind == (node_kind)(NODE_AOP + (int)AOP_CONSTANT_OF_SHAPE) &&
        strcmp(a->name, "value") == 0 && ap->t != NULL) {
      if (n->constant != NULL) {
        return NFAIL(n, ONNXSHAPE_ERR_INVALID_ATTRIBUTE, "attribute 'value' is set twice",
                     ONNXSHAPE__NO_ARGS);
      }
      onnxshape_diag inner;
      onnxshape_diag_init(&inner);
      st = onnxshape__tensor_from_proto(ap->t, m->ext, m->arena, &n->constant, &inner);
      if (st != ONNXSHAPE_OK) {
        return NFAIL(n, st, "attribute '{}': {}", ONNXSHAPE__ARGS(ARG_NAME(a->name), ARG_TEXT(inner.message)));
      }
    }
    if (st != ONNXSHAPE_OK) return st;
  }
  return ONNXSHAPE_OK;
}

/* The node's inputs (exactly n_in, each defined before the node) and its one
 * output (a new name). */
static onnxshape_status connect(onnxshape_model *m, model_graph *g, graph_node *n,
                                const Onnx__NodeProto *np, size_t n_in, onnxshape_diag *diag) {
  if (np->n_input != n_in) {
    return NFAIL(n, ONNXSHAPE_ERR_INVALID_MODEL, "takes {} input{}; the node has {}",
                 ONNXSHAPE__ARGS(ARG_UINT(n_in), ARG_STR(n_in == 1 ? "" : "s"),
                                 ARG_UINT(np->n_input)));
  }
  if (np->n_output != 1) {
    return NFAIL(n, ONNXSHAPE_ERR_INVALID_MODEL, "has 1 output; the node has {}",
                 ONNXSHAPE__ARGS(ARG_UINT(np->n_output)));
  }
  n->inputs = model_alloc(m, n_in + 1, sizeof *n->inputs);
  n->outputs = model_alloc(m, 1, sizeof *n->outputs);
  if (n->inputs == NULL || n->outputs == NULL) {
    return out_of_memory(m, diag);
  }
  n->n_inputs = n_in;
  n->n_outputs = 1;
  for (size_t i = 0; i < n_in; i++) {
    const char *in = np->input[i];
    if (in == NULL || in[0] == '\0') {
      return NFAIL(n, ONNXSHAPE_ERR_INVALID_MODEL, "input {} is empty; it is not optional",
                   ONNXSHAPE__ARGS(ARG_UINT(i)));
    }
    onnxshape_status st = connect_input(g, n, in, &n->inputs[i], diag);
    if (st != ONNXSHAPE_OK) return st;
  }
  const char *out = np->output[0];
  if (out == NULL || out[0] == '\0') {
    return NFAIL(n, ONNXSHAPE_ERR_INVALID_MODEL, "output 0 is empty", ONNXSHAPE__NO_ARGS);
  }
  return connect_output(m, g, n, out, &n->outputs[0], diag);
}

static const Onnx__FunctionProto *find_function(const onnxshape_model *m, const char *domain,
                                                const char *name, const char *overload,
                                                size_t *free_at);
static onnxshape_status resolve_refs(onnxshape_model *m, const model_call *c,
                                     const Onnx__NodeProto **np, const model_graph ***scopes,
                                     onnxshape_diag *diag);
static onnxshape_status load_body(onnxshape_model *m, model_graph *g, graph_node *n,
                                  const Onnx__NodeProto *np, const model_graph *const *scopes,
                                  const Onnx__FunctionProto *f, onnxshape_diag *diag);
static int calls_functions(const char *domain);

static onnxshape_status load_node(onnxshape_model *m, model_graph *g, const Onnx__NodeProto *np,
                                  size_t index, onnxshape_diag *diag) {
  graph_node *n = &g->nodes[index];
  const model_graph **scopes = NULL; /* where a graph a call passed in is loaded */
  if (g->call != NULL) {
    onnxshape_status st = resolve_refs(m, g->call, &np, &scopes, diag);
    if (st != ONNXSHAPE_OK) return st;
  }
  n->name = np->name != NULL ? np->name : "";
  n->op_type = np->op_type != NULL ? np->op_type : "";
  if (n->name[0] != '\0') {
    n->label = n->name; /* messages escape it, and shorten it in the middle */
  } else {
    (void)onnxshape__format(n->unnamed, sizeof n->unnamed, "#{}", ONNXSHAPE__ARGS(ARG_UINT(index)));
    n->label = n->unnamed;
  }
  diag->node = n->label;
  op_attr kernel_specs[2];
  const op_attr *specs = NULL;
  size_t n_specs = 0, n_in = 0;
  n->domain = is_default_domain(np->domain) ? "" : np->domain;
  onnxshape_status st = resolve_operator(g->opset, n, np, kernel_specs, &specs, &n_specs, &n_in, diag);
  if (st != ONNXSHAPE_OK) return st;
  if (!strict_kind(n->kind)) {
    size_t unused;
    const Onnx__FunctionProto *f =
        n->kind == NODE_OTHER && calls_functions(n->domain)
            ? find_function(m, n->domain, n->op_type, overload_of(np->overload), &unused)
            : NULL;
    st = load_other_attrs(m, g, n, np, f != NULL, scopes, diag);
    diag->node = n->label;
    /* A call's body first: the graphs it passes in see the caller's names
     * before the call, not the call's own outputs. */
    if (st == ONNXSHAPE_OK && f != NULL) st = load_body(m, g, n, np, scopes, f, diag);
    diag->node = n->label;
    if (st == ONNXSHAPE_OK) st = connect_other(m, g, n, np, diag);
    return st;
  }
  st = load_attrs(m, n, np, specs, n_specs, diag);
  if (st == ONNXSHAPE_OK) st = kernel_attrs(n, diag);
  if (st == ONNXSHAPE_OK && n->kind == NODE_CONSTANT) st = load_constant_value(m, n, diag);
  if (st == ONNXSHAPE_OK) st = connect(m, g, n, np, n_in, diag);
  return st;
}

/* A sparse initializer: its name, element type and dims, as a declaration
 * (analysis sees its type and dims; nothing runs it). */
static onnxshape_status load_sparse(onnxshape_model *m, model_graph *g, const ProtobufCBinaryData *b,
                                    size_t i, onnxshape_diag *diag) {
  ProtobufCMessage *msg;
  onnxshape_status st = onnxshape__pb_decode_in(&onnx__sparse_tensor_proto__descriptor, b->data,
                                                b->len, m->arena, &msg);
  if (st == ONNXSHAPE_ERR_MALFORMED) {
    return onnxshape__error(diag, st, "sparse initializer {} is not a valid SparseTensorProto",
                            ONNXSHAPE__ARGS(ARG_UINT(i)));
  }
  if (st != ONNXSHAPE_OK) return out_of_memory(m, diag);
  const Onnx__SparseTensorProto *sp = (const Onnx__SparseTensorProto *)msg;
  const char *name = sp->values != NULL && sp->values->name != NULL ? sp->values->name : "";
  if (name[0] == '\0') {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "sparse initializer {} has no name",
                            ONNXSHAPE__ARGS(ARG_UINT(i)));
  }
  value_decl *d = model_alloc(m, 1, sizeof *d);
  decl_dim *dims = model_alloc(m, sp->n_dims + 1, sizeof *dims);
  if (d == NULL || dims == NULL) {
    return out_of_memory(m, diag);
  }
  d->name = name;
  d->has_type = sp->values->has_data_type && onnxshape_type_get(sp->values->data_type) != NULL;
  d->elem_type = d->has_type ? sp->values->data_type : 0;
  d->has_shape = 1;
  d->rank = sp->n_dims;
  d->dims = dims;
  for (size_t k = 0; k < sp->n_dims; k++) {
    if (sp->dims[k] < 0) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL,
                              "sparse initializer '{}' has dim {} = {}",
                              ONNXSHAPE__ARGS(ARG_NAME(name), ARG_UINT(k), ARG_INT(sp->dims[k])));
    }
    dims[k].value = sp->dims[k];
  }
  size_t local;
  st = add_slot(m, g, name, SLOT_SPARSE, &local, diag);
  if (st == ONNXSHAPE_OK) g->slots[local].decl = d;
  return st;
}

/* The declaration (value_info, then a graph output) that names each value
 * of g, for values that nothing evaluates. */
static void attach_decls(model_graph *g) {
  for (size_t i = 0; i < g->n_value_info; i++) {
    size_t unused;
    long s = find_slot_at(g, g->value_info[i].name, &unused);
    if (s >= 0 && g->slots[s].decl == NULL) g->slots[s].decl = &g->value_info[i];
  }
  for (size_t i = 0; i < g->n_outputs; i++) {
    size_t unused;
    long s = find_slot_at(g, g->outputs[i].name, &unused);
    if (s >= 0 && g->slots[s].decl == NULL) g->slots[s].decl = &g->outputs[i];
  }
}

static onnxshape_status load_graph(onnxshape_model *m, model_graph *g, const Onnx__GraphProto *gp,
                                   onnxshape_diag *diag) {
  int main_graph = g->depth == 0;
  size_t cap = gp->n_input + gp->n_initializer + gp->n_sparse_initializer + 1;
  for (size_t i = 0; i < gp->n_node; i++) cap += gp->node[i]->n_output; /* bounded by the bytes */
  g->slot_index = new_index(m, cap, &g->slot_mask);
  g->slots = model_alloc(m, cap, sizeof *g->slots);
  g->inits = model_alloc(m, gp->n_initializer + 1, sizeof *g->inits);
  g->inputs = model_alloc(m, gp->n_input + 1, sizeof *g->inputs);
  g->input_slots = model_alloc(m, gp->n_input + 1, sizeof *g->input_slots);
  g->outputs = model_alloc(m, gp->n_output + 1, sizeof *g->outputs);
  g->output_slots = model_alloc(m, gp->n_output + 1, sizeof *g->output_slots);
  g->value_info = model_alloc(m, gp->n_value_info + 1, sizeof *g->value_info);
  g->nodes = model_alloc(m, gp->n_node + 1, sizeof *g->nodes);
  /* The list of graphs doubles when full (in the arena, where the old list
   * stays: twice the final size at most). */
  if (m->n_graphs == m->cap_graphs) {
    size_t room = m->cap_graphs == 0 ? 8 : 2 * m->cap_graphs;
    model_graph **graphs = room <= SIZE_MAX / 4 / sizeof *graphs
                               ? model_alloc(m, room, sizeof *graphs)
                               : NULL;
    if (graphs != NULL && m->n_graphs > 0) memcpy(graphs, m->graphs, m->n_graphs * sizeof *graphs);
    if (graphs != NULL) {
      m->graphs = graphs;
      m->cap_graphs = room;
    }
  }
  if (!g->slot_index || !g->slots || !g->inits || !g->inputs || !g->input_slots || !g->outputs ||
      !g->output_slots || !g->value_info || !g->nodes || m->n_graphs == m->cap_graphs) {
    return out_of_memory(m, diag);
  }
  m->graphs[m->n_graphs++] = g;
  for (size_t i = 0; i < gp->n_input; i++) {
    onnxshape_status st = load_decl(m, gp->input[i], &g->inputs[i], "input", main_graph, diag);
    g->n_inputs = i + 1;
    if (st != ONNXSHAPE_OK) return st;
    size_t local;
    st = add_slot(m, g, g->inputs[i].name, SLOT_INPUT, &local, diag);
    if (st != ONNXSHAPE_OK) return st;
    g->slots[local].input_index = i;
    g->slots[local].decl = &g->inputs[i];
    g->input_slots[i] = g->slots[local].id;
  }
  for (size_t i = 0; i < gp->n_initializer; i++) {
    onnxshape_owned_tensor *t;
    onnxshape_status st =
        onnxshape__tensor_from_proto(gp->initializer[i], m->ext, m->arena, &t, diag);
    if (st != ONNXSHAPE_OK) return st;
    g->inits[g->n_inits++] = t;
    if (t->name[0] == '\0') return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "initializer {} has no name", ONNXSHAPE__ARGS(ARG_UINT(i)));
    size_t unused;
    long s = find_slot_at(g, t->name, &unused);
    if (s >= 0 && (g->slots[s].init != NULL || g->slots[s].kind != SLOT_INPUT)) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "the name '{}' is defined twice", ONNXSHAPE__ARGS(ARG_NAME(t->name)));
    }
    if (s >= 0) { /* a graph input with a default value, which must fit its declaration */
      st = onnxshape__decl_check(&g->inputs[g->slots[s].input_index], t->view.type, t->view.rank,
                                 t->view.dims, "its initializer is", 1, diag);
      if (st != ONNXSHAPE_OK) return st;
      g->slots[s].init = t;
      continue;
    }
    size_t local;
    st = add_slot(m, g, t->name, SLOT_INITIALIZER, &local, diag);
    if (st != ONNXSHAPE_OK) return st;
    g->slots[local].init = t;
  }
  for (size_t i = 0; i < gp->n_sparse_initializer; i++) {
    onnxshape_status st = load_sparse(m, g, &gp->sparse_initializer[i], i, diag);
    if (st != ONNXSHAPE_OK) return st;
  }
  for (size_t i = 0; i < gp->n_value_info; i++) {
    onnxshape_status st = load_decl(m, gp->value_info[i], &g->value_info[i], "value_info", 0, diag);
    g->n_value_info = i + 1;
    if (st != ONNXSHAPE_OK) return st;
  }
  for (size_t i = 0; i < gp->n_node; i++) {
    onnxshape_status st = load_node(m, g, gp->node[i], i, diag);
    g->n_nodes = i + 1;
    if (st != ONNXSHAPE_OK) return st;
  }
  diag->node = NULL;
  if (main_graph && gp->n_output == 0) return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "the graph has no outputs", ONNXSHAPE__NO_ARGS);
  for (size_t i = 0; i < gp->n_output; i++) {
    onnxshape_status st = load_decl(m, gp->output[i], &g->outputs[i], "output", main_graph, diag);
    g->n_outputs = i + 1;
    if (st != ONNXSHAPE_OK) return st;
    long s = onnxshape__graph_find_slot(g, g->outputs[i].name);
    if (s < 0) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL,
                   "{} output '{}' is not produced by any node, input or initializer",
                   ONNXSHAPE__ARGS(ARG_STR(graph_kind(g)), ARG_NAME(g->outputs[i].name)));
    }
    g->output_slots[i] = (size_t)s;
  }
  attach_decls(g);
  return ONNXSHAPE_OK;
}

/* ---- model-local functions ---------------------------------------------
 * A node whose (domain, op_type, overload) names a model-local function is a
 * call: each call loads the function's body again, as a graph of its own
 * (graph_node.body) that sees only its own names, at the function's opset,
 * with each attribute reference replaced by the call's attribute (or the
 * function's default). Analysis then runs the body on the call's inputs
 * (docs/analysis.md, "Model-local functions"). */

static const char *fn_domain(const Onnx__FunctionProto *f) {
  return is_default_domain(f->domain) ? "" : f->domain;
}

/* A function as messages name it, for "'{}{}{}'". */
#define FN_ARGS(f) ONNXSHAPE__OP_ARGS(fn_domain(f), (f)->name)

/* 0 for the domains ONNX defines (the default domain, ai.onnx.*): a node
 * there names ONNX's operator, never a model-local function, as onnx's own
 * shape inference resolves it (the proto leaves the choice to runtimes; a
 * node that names no operator onnxshape knows is then not evaluated). */
static int calls_functions(const char *domain) {
  return !is_default_domain(domain) && strncmp(domain, "ai.onnx.", 8) != 0;
}


static size_t fn_hash(const char *domain, const char *name, const char *overload) {
  return name_hash(name) ^ (name_hash(domain) * 31u) ^ (name_hash(overload) * 961u);
}

static int fn_is(const Onnx__FunctionProto *f, const char *domain, const char *name,
                 const char *overload) {
  return strcmp(f->name, name) == 0 && strcmp(fn_domain(f), domain) == 0 &&
         strcmp(overload_of(f->overload), overload) == 0;
}

/* The function a node of domain (normalised: "" for the default domain),
 * op_type and overload calls, or NULL; *free_at is where the index would
 * take it. */
static const Onnx__FunctionProto *find_function(const onnxshape_model *m, const char *domain,
                                                const char *name, const char *overload,
                                                size_t *free_at) {
  if (m->fn_index == NULL) return NULL;
  size_t at = fn_hash(domain, name, overload) & m->fn_mask;
  for (size_t e; (e = m->fn_index[at]) != 0; at = (at + 1) & m->fn_mask) {
    const Onnx__FunctionProto *f = m->functions[e - 1];
    if (fn_is(f, domain, name, overload)) return f;
  }
  *free_at = at;
  return NULL;
}

/* Each function decoded, named, and indexed by (domain, name, overload),
 * which must be unique. */
static onnxshape_status load_functions(onnxshape_model *m, const Onnx__ModelProto *mp,
                                       onnxshape_diag *diag) {
  if (mp->n_functions == 0) return ONNXSHAPE_OK;
  m->functions = model_alloc(m, mp->n_functions, sizeof *m->functions);
  m->fn_index = new_index(m, mp->n_functions, &m->fn_mask);
  if (m->functions == NULL || m->fn_index == NULL) {
    m->fn_index = NULL;
    return out_of_memory(m, diag);
  }
  for (size_t i = 0; i < mp->n_functions; i++) {
    ProtobufCMessage *msg;
    onnxshape_status st = onnxshape__pb_decode_in(&onnx__function_proto__descriptor,
                                                  mp->functions[i].data, mp->functions[i].len,
                                                  m->arena, &msg);
    if (st == ONNXSHAPE_ERR_MALFORMED) {
      return onnxshape__error(diag, st, "function {} is not a valid FunctionProto",
                              ONNXSHAPE__ARGS(ARG_UINT(i)));
    }
    if (st != ONNXSHAPE_OK) return out_of_memory(m, diag);
    const Onnx__FunctionProto *f = (const Onnx__FunctionProto *)msg;
    if (f->name == NULL || f->name[0] == '\0') {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "function {} has no name",
                              ONNXSHAPE__ARGS(ARG_UINT(i)));
    }
    size_t at = 0;
    if (find_function(m, fn_domain(f), f->name, overload_of(f->overload), &at) != NULL) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "function '{}{}{}' is defined twice",
                              ONNXSHAPE__ARGS(FN_ARGS(f)));
    }
    m->functions[i] = f;
    m->fn_index[at] = i + 1;
    m->n_functions = i + 1;
  }
  return ONNXSHAPE_OK;
}

/* The k-th of call c's attributes followed by its function's defaults. */
static const Onnx__AttributeProto *call_attr(const model_call *c, size_t k) {
  const Onnx__NodeProto *call = c->node;
  const Onnx__FunctionProto *f = c->function;
  return k < call->n_attribute ? call->attribute[k] : f->attribute_proto[k - call->n_attribute];
}

/* k + 1 for the attribute named `ref` in call c's index (call_attr(c, k)),
 * or 0; *free_at is where the index would take it. */
static size_t attr_at(const model_call *c, const char *ref, size_t *free_at) {
  size_t at = name_hash(ref) & c->attrs_mask;
  for (size_t e; (e = c->attrs[at]) != 0; at = (at + 1) & c->attrs_mask) {
    if (strcmp(call_attr(c, e - 1)->name, ref) == 0) return e;
  }
  *free_at = at;
  return 0;
}

/* Indexes, by name, what the references in c's body can take: the call's
 * attributes, then the function's defaults for names the call does not
 * give (the first of a name wins), so that resolving takes time in the
 * number of references, not in references times attributes. */
static int index_call_attrs(onnxshape_model *m, model_call *c) {
  const Onnx__NodeProto *call = c->node;
  const Onnx__FunctionProto *f = c->function;
  size_t n = call->n_attribute + f->n_attribute_proto;
  c->attrs = new_index(m, n, &c->attrs_mask);
  if (c->attrs == NULL) return 0;
  for (size_t i = 0; i < n; i++) {
    const Onnx__AttributeProto *a = call_attr(c, i);
    size_t at = 0;
    if (a->name != NULL && attr_at(c, a->name, &at) == 0) c->attrs[at] = i + 1;
  }
  return 1;
}

/* Node *np of a function's body (or of a subgraph in it) with its
 * attribute references resolved against call c: *np itself when it has
 * none, else a copy, with *scopes saying for each of its attributes where a
 * graph value is loaded (the scope of the call's attribute it took; NULL:
 * where the node is). A reference must take an attribute of its own type. */
static onnxshape_status resolve_refs(onnxshape_model *m, const model_call *c,
                                     const Onnx__NodeProto **np, const model_graph ***scopes,
                                     onnxshape_diag *diag) {
  const Onnx__NodeProto *node = *np;
  size_t refs = 0;
  for (size_t i = 0; i < node->n_attribute; i++) refs += node->attribute[i]->ref_attr_name != NULL;
  if (refs == 0) return ONNXSHAPE_OK;
  Onnx__NodeProto *copy = model_alloc(m, 1, sizeof *copy);
  Onnx__AttributeProto **attrs = model_alloc(m, node->n_attribute + 1, sizeof *attrs);
  Onnx__AttributeProto *made = model_alloc(m, refs, sizeof *made);
  const model_graph **where = model_alloc(m, node->n_attribute + 1, sizeof *where);
  if (copy == NULL || attrs == NULL || made == NULL || where == NULL) return out_of_memory(m, diag);
  *copy = *node;
  copy->attribute = attrs;
  copy->n_attribute = 0;
  for (size_t i = 0; i < node->n_attribute; i++) {
    Onnx__AttributeProto *a = node->attribute[i];
    if (a->ref_attr_name == NULL) {
      attrs[copy->n_attribute++] = a;
      continue;
    }
    /* The call's attribute of that name, else the function's default, else
     * none: the attribute is then absent, as ONNX says. */
    size_t unused;
    size_t e = attr_at(c, a->ref_attr_name, &unused);
    if (e == 0) continue;
    size_t k = e - 1;
    const Onnx__NodeProto *call = c->node;
    const Onnx__AttributeProto *value = call_attr(c, k);
    if (a->has_type && value->has_type && a->type != value->type) {
      diag->node = node->name != NULL && node->name[0] != '\0' ? node->name : NULL;
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL,
                              "attribute '{}' refers to '{}', which is {}; the reference is {}",
                              ONNXSHAPE__ARGS(ARG_NAME(a->name != NULL ? a->name : ""),
                                              ARG_NAME(a->ref_attr_name),
                                              ARG_STR(attr_type_name((int)value->type)),
                                              ARG_STR(attr_type_name((int)a->type))));
    }
    *made = *value;
    made->name = a->name;
    made->ref_attr_name = NULL;
    where[copy->n_attribute] = k < call->n_attribute ? c->scopes[k] : NULL;
    attrs[copy->n_attribute++] = made++;
  }
  *np = copy;
  *scopes = where;
  return ONNXSHAPE_OK;
}

/* The default-domain opset a function's body resolves at: its own import,
 * else the model's. */
static onnxshape_status function_opset(const onnxshape_model *m, const graph_node *n,
                                       const Onnx__FunctionProto *f, int64_t *opset,
                                       onnxshape_diag *diag) {
  *opset = m->opset;
  int found = 0;
  for (size_t i = 0; i < f->n_opset_import; i++) {
    const Onnx__OperatorSetIdProto *o = f->opset_import[i];
    if (!is_default_domain(o->domain)) continue;
    if (found++) {
      return NFAIL(n, ONNXSHAPE_ERR_INVALID_MODEL,
                   "function '{}{}{}' imports the default domain twice",
                   ONNXSHAPE__ARGS(FN_ARGS(f)));
    }
    if (!o->has_version || o->version < 1 || o->version > ONNXSHAPE_MAX_OPSET) {
      return NFAIL(n, ONNXSHAPE_ERR_UNSUPPORTED_OPSET,
                   "function '{}{}{}' imports default-domain opset {}; this build supports 1 to {}",
                   ONNXSHAPE__ARGS(FN_ARGS(f), ARG_INT(o->version),
                                   ARG_INT(ONNXSHAPE_MAX_OPSET)));
    }
    *opset = o->version;
  }
  return ONNXSHAPE_OK;
}

/* ValueInfoProtos that only name values (a function's inputs and outputs
 * have names alone); NULL when out of memory. */
static Onnx__ValueInfoProto **named_values(onnxshape_model *m, char **names, size_t n) {
  Onnx__ValueInfoProto **list = model_alloc(m, n + 1, sizeof *list);
  Onnx__ValueInfoProto *v = model_alloc(m, n + 1, sizeof *v);
  if (list == NULL || v == NULL) return NULL;
  for (size_t i = 0; i < n; i++) {
    Onnx__ValueInfoProto init = ONNX__VALUE_INFO_PROTO__INIT;
    v[i] = init;
    v[i].name = names[i];
    list[i] = &v[i];
  }
  return list;
}

/* Node n of g (decoded from np; scopes as resolve_refs gave them, or NULL)
 * calls function f: its body, loaded for this call. */
static onnxshape_status load_body(onnxshape_model *m, model_graph *g, graph_node *n,
                                  const Onnx__NodeProto *np, const model_graph *const *scopes,
                                  const Onnx__FunctionProto *f, onnxshape_diag *diag) {
  for (const model_call *c = g->call; c != NULL; c = c->outer) {
    if (c->function == f) {
      return NFAIL(n, ONNXSHAPE_ERR_INVALID_MODEL,
                   "calls function '{}{}{}' inside its own body (a function cannot call itself)",
                   ONNXSHAPE__ARGS(FN_ARGS(f)));
    }
  }
  if (g->depth + 1 > MAX_SUBGRAPH_DEPTH) {
    return NFAIL(n, ONNXSHAPE_ERR_INVALID_MODEL, "function calls and subgraphs nest more than {} deep",
                 ONNXSHAPE__ARGS(ARG_UINT(MAX_SUBGRAPH_DEPTH)));
  }
  if (np->n_input > f->n_input || np->n_output > f->n_output) {
    return NFAIL(n, ONNXSHAPE_ERR_INVALID_MODEL,
                 "calls function '{}{}{}' with {} input(s) and {} output(s); it has {} and {}",
                 ONNXSHAPE__ARGS(FN_ARGS(f), ARG_UINT(np->n_input),
                                 ARG_UINT(np->n_output), ARG_UINT(f->n_input), ARG_UINT(f->n_output)));
  }
  model_graph *body = model_alloc(m, 1, sizeof *body);
  model_call *call = model_alloc(m, 1, sizeof *call);
  Onnx__GraphProto *gp = model_alloc(m, 1, sizeof *gp);
  size_t need = strlen(fn_domain(f)) + strlen(f->name) + 2;
  char *what = model_alloc(m, need, 1);
  const model_graph **attr_scopes = model_alloc(m, np->n_attribute + 1, sizeof *attr_scopes);
  if (body == NULL || call == NULL || gp == NULL || what == NULL || attr_scopes == NULL) {
    return out_of_memory(m, diag);
  }
  (void)snprintf(what, need, "%s%s%s", fn_domain(f), fn_domain(f)[0] != '\0' ? ":" : "", f->name);
  for (size_t k = 0; k < np->n_attribute; k++) {
    attr_scopes[k] = scopes != NULL && scopes[k] != NULL ? scopes[k] : g;
  }
  Onnx__GraphProto init = ONNX__GRAPH_PROTO__INIT;
  *gp = init;
  gp->n_node = f->n_node;
  gp->node = f->node;
  gp->n_input = f->n_input;
  gp->input = named_values(m, f->input, f->n_input);
  gp->n_output = f->n_output;
  gp->output = named_values(m, f->output, f->n_output);
  gp->n_value_info = f->n_value_info;
  gp->value_info = f->value_info;
  body->path = graph_path(m, g, n, what, 0, 0);
  if (gp->input == NULL || gp->output == NULL || body->path == NULL) {
    return out_of_memory(m, diag);
  }
  onnxshape_status st = function_opset(m, n, f, &body->opset, diag);
  if (st != ONNXSHAPE_OK) return st;
  *call = (model_call){f, np, g->call, NULL, 0, attr_scopes};
  if (!index_call_attrs(m, call)) return out_of_memory(m, diag);
  body->call = call;
  n->body = body;
  return load_held(m, g, NULL, n, body, gp, diag);
}

/* Every value by id, once all graphs are loaded. */
static onnxshape_status index_slots(onnxshape_model *m, onnxshape_diag *diag) {
  m->slot = model_alloc(m, m->n_slots + 1, sizeof *m->slot);
  if (m->slot == NULL) return out_of_memory(m, diag);
  for (size_t k = 0; k < m->n_graphs; k++) {
    model_graph *g = m->graphs[k];
    for (size_t i = 0; i < g->n_slots; i++) m->slot[g->slots[i].id] = &g->slots[i];
  }
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape__model_decode(const void *bytes, size_t len, const char *shown,
                                         int borrow, onnxshape__arena **arena, const void **proto,
                                         onnxshape_diag *diag) {
  ProtobufCMessage *msg;
  int limited;
  onnxshape_status st =
      onnxshape__pb_decode(&onnx__model_proto__descriptor, bytes != NULL ? bytes : (const void *)"",
                           len, onnxshape__memory_limit(len), borrow, arena, &msg, &limited);
  if (st == ONNXSHAPE_ERR_MALFORMED) {
    if (shown != NULL) {
      return onnxshape__error(diag, st, "'{}' is not a valid ONNX model (protobuf decoding failed)",
                   ONNXSHAPE__ARGS(ARG_NAME(shown)));
    }
    return onnxshape__error(diag, st, "not a valid ONNX model (protobuf decoding failed)", ONNXSHAPE__NO_ARGS);
  }
  if (st != ONNXSHAPE_OK && limited) {
    return onnxshape__error(diag, st,
                 "decoding the model ({} bytes) would take more than {} MiB of memory "
                 "(" ONNXSHAPE__LIMIT_TEXT ")",
                 ONNXSHAPE__ARGS(ARG_UINT(len), ARG_UINT(onnxshape__memory_limit(len) >> 20)));
  }
  if (st != ONNXSHAPE_OK) return onnxshape__out_of_memory(NULL, NULL, diag);
  *proto = msg;
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape__model_load(const void *proto, onnxshape__arena *a,
                                       onnxshape__extdir *ext, size_t len, onnxshape__map *source,
                                       onnxshape_model **out, onnxshape_diag *diag) {
  const Onnx__ModelProto *mp = proto;
  onnxshape_model *m = onnxshape__arena_alloc(a, sizeof *m); /* zeroed */
  if (m == NULL) {
    onnxshape__arena_release(a);
    return out_of_memory(m, diag);
  }
  m->arena = a;
  m->proto = (void *)(uintptr_t)proto;
  m->ext = ext;
  m->source_len = len;
  const char *caller_node = diag->node;
  onnxshape_status st;
  if (mp->ir_version < 3) {
    st = onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL,
               "ir_version {} is not supported (opset imports need IR version 3 or later)",
               ONNXSHAPE__ARGS(ARG_INT(mp->ir_version)));
  } else if (mp->graph == NULL) {
    st = onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "the model has no graph", ONNXSHAPE__NO_ARGS);
  } else {
    st = load_opset(m, mp, diag);
    m->g.path = "";
    m->g.opset = m->opset;
    if (st == ONNXSHAPE_OK) st = load_functions(m, mp, diag);
    if (st == ONNXSHAPE_OK) st = load_graph(m, &m->g, mp->graph, diag);
    if (st == ONNXSHAPE_OK) st = index_slots(m, diag);
  }
  diag->node = caller_node;
  m->ext = NULL;
  if (st != ONNXSHAPE_OK) {
    onnxshape_model_free(m);
    return st;
  }
  if (source != NULL && source->base != NULL) {
    m->source = model_alloc(m, 1, sizeof *m->source);
    if (m->source == NULL) {
      onnxshape_model_free(m);
      return out_of_memory(m, diag);
    }
    *m->source = *source;
    memset(source, 0, sizeof *source);
    source->fd = -1;
  }
  *out = m;
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape_model_parse(const void *bytes, size_t len, const char *base_dir,
                                       onnxshape_model **out, onnxshape_diag *diag) {
  if (out == NULL || (bytes == NULL && len > 0)) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "model_parse: NULL argument", ONNXSHAPE__NO_ARGS);
  }
  onnxshape_diag local;
  if (diag == NULL) {
    onnxshape_diag_init(&local);
    diag = &local;
  }
  onnxshape__arena *a = NULL;
  const void *proto = NULL;
  onnxshape_status st = onnxshape__model_decode(bytes, len, NULL, 0, &a, &proto, diag);
  if (st != ONNXSHAPE_OK) return st;
  onnxshape__extdir ext = {base_dir, -1, NULL, 0, 0};
  st = onnxshape__model_load(proto, a, &ext, len, NULL, out, diag);
  onnxshape__extdir_close(&ext);
  if (st == ONNXSHAPE_OK) onnxshape__diag_clear(diag);
  return st;
}

onnxshape_status onnxshape__model_file(const char *path, onnxshape__model_source *src,
                                       onnxshape__extdir *ext, onnxshape_diag *diag) {
  const char *base;
  char *dir;
  memset(src, 0, sizeof *src);
  src->map.fd = -1;
  memset(ext, 0, sizeof *ext);
  ext->fd = -1;
  onnxshape_status st = onnxshape__parent_name(path, &base, &dir, diag);
  if (st != ONNXSHAPE_OK) return st;
  ext->path = dir;
  int fd;
  struct stat sb;
  /* By its path; the directory is opened only for external data, and must
   * then still hold this file (onnxshape__extdir). */
  st = onnxshape__open_file(AT_FDCWD, path, path, &fd, &sb, diag);
  if (st == ONNXSHAPE_OK) {
    ext->file = base;
    ext->dev = sb.st_dev;
    ext->ino = sb.st_ino;
  }
  if (st == ONNXSHAPE_OK && (uint64_t)sb.st_size >= onnxshape__inplace_min &&
      (uint64_t)sb.st_size <= SIZE_MAX) {
    /* Mapped: decoding then reads only the pages that hold message fields,
     * never those of tensor data (docs/performance.md). */
    st = onnxshape__map_region(fd, &sb, 0, (size_t)sb.st_size, path, &src->map, diag);
    src->data = src->map.data;
    src->len = (size_t)sb.st_size;
  } else if (st == ONNXSHAPE_OK) {
    st = onnxshape__read_all(fd, &sb, path, &src->bytes, &src->len, diag);
    src->data = src->bytes;
    close(fd);
  }
  if (st != ONNXSHAPE_OK) {
    onnxshape__extdir_close(ext);
    onnxshape__free(dir);
    ext->path = NULL;
  }
  return st;
}

onnxshape_status onnxshape__model_file_decoded(const char *path, onnxshape__decoded_fn use,
                                               void *ctx, onnxshape_diag *diag) {
  onnxshape_diag local;
  if (diag == NULL) {
    onnxshape_diag_init(&local);
    diag = &local;
  }
  onnxshape__model_source src;
  onnxshape__extdir ext;
  onnxshape_status st = onnxshape__model_file(path, &src, &ext, diag);
  if (st != ONNXSHAPE_OK) return st;
  onnxshape__arena *a;
  const void *proto;
  int mapped = src.map.base != NULL;
  st = onnxshape__model_decode(src.data, src.len, path, mapped, &a, &proto, diag);
  /* A mapped file cut short while it was decoded reads as zeros (or raises
   * SIGBUS): that is this error, not a decoding error or a wrong model. */
  onnxshape_status now = onnxshape__map_check(&src.map, diag);
  if (now != ONNXSHAPE_OK && st == ONNXSHAPE_OK) onnxshape__arena_release(a);
  if (now != ONNXSHAPE_OK) st = now;
  onnxshape__free(src.bytes); /* a model read into memory holds copies of what it needs */
  if (st == ONNXSHAPE_OK) {
    st = use(proto, a, &ext, src.len, &src.map, ctx, diag);
    /* Loading reads the mapping too (subgraphs, functions and sparse
     * tensors held as bytes): a failure there may be the file's change. */
    if (st != ONNXSHAPE_OK && onnxshape__map_check(&src.map, diag) != ONNXSHAPE_OK) {
      st = ONNXSHAPE_ERR_IO;
    }
  }
  onnxshape__unmap(&src.map); /* unless a loaded model took it */
  onnxshape__extdir_close(&ext);
  onnxshape__free((void *)(uintptr_t)ext.path);
  return st;
}

static onnxshape_status load_decoded(const void *proto, onnxshape__arena *a,
                                     onnxshape__extdir *ext, size_t len, onnxshape__map *source,
                                     void *out, onnxshape_diag *diag) {
  return onnxshape__model_load(proto, a, ext, len, source, (onnxshape_model **)out, diag);
}

onnxshape_status onnxshape_model_read_file(const char *path, onnxshape_model **out,
                                           onnxshape_diag *diag) {
  if (path == NULL || out == NULL) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "model_read_file: NULL argument", ONNXSHAPE__NO_ARGS);
  }
  onnxshape_status st = onnxshape__model_file_decoded(path, load_decoded, out, diag);
  if (st == ONNXSHAPE_OK) onnxshape__diag_clear(diag);
  return st;
}

onnxshape_status onnxshape_model_check_files(const onnxshape_model *m, onnxshape_diag *diag) {
  if (m == NULL) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "model_check_files: NULL argument", ONNXSHAPE__NO_ARGS);
  }
  if (m->source != NULL) {
    onnxshape_status st = onnxshape__map_check(m->source, diag);
    if (st != ONNXSHAPE_OK) return st;
  }
  for (size_t k = 0; k < m->n_graphs; k++) {
    const model_graph *g = m->graphs[k];
    for (size_t i = 0; i < g->n_inits; i++) {
      onnxshape_status st = onnxshape__map_check(&g->inits[i]->map, diag);
      if (st != ONNXSHAPE_OK) return st;
    }
    for (size_t i = 0; i < g->n_nodes; i++) {
      const graph_node *n = &g->nodes[i];
      if (n->constant == NULL) continue;
      onnxshape_status st = onnxshape__map_check(&n->constant->map, diag);
      if (st != ONNXSHAPE_OK) return st;
    }
  }
  onnxshape__diag_clear(diag);
  return ONNXSHAPE_OK;
}

/* ---- sparse tensors, for the SONNX profile check ------------------------ */

/* The name of a SparseTensorProto: that of its `values` TensorProto (field
 * 1, whose name is field 8), read with the wire reader; "" when it has
 * none. */
static void sparse_name(const ProtobufCBinaryData *b, char *name, size_t cap) {
  name[0] = '\0';
  if (b->len == 0) return; /* empty bytes have no buffer (data is NULL) */
  const uint8_t *p = b->data, *end = b->data + b->len;
  wire_field f, g;
  while (p < end && wire_field_read(&p, end, &f)) {
    if (f.number != 1 || f.wire != WIRE_LEN) continue;
    const uint8_t *q = f.at, *stop = f.at + f.v;
    while (q < stop && wire_field_read(&q, stop, &g)) {
      if (g.number != 8 || g.wire != WIRE_LEN) continue;
      size_t n = g.v < cap - 1 ? (size_t)g.v : cap - 1;
      memcpy(name, g.at, n);
      name[n] = '\0';
    }
    return;
  }
}

static void sparse_decls(Onnx__ValueInfoProto **v, size_t n, const char *what,
                         void (*report)(void *, const char *), void *ctx) {
  char msg[ONNXSHAPE_DIAG_SIZE];
  for (size_t i = 0; i < n; i++) {
    if (v[i]->type != NULL && v[i]->type->value_case == ONNX__TYPE_PROTO__VALUE_SPARSE_TENSOR_TYPE) {
      onnxshape__format(msg, sizeof msg, "graph {} '{}' is a sparse tensor",
                        ONNXSHAPE__ARGS(ARG_STR(what), ARG_NAME(v[i]->name != NULL ? v[i]->name : "")));
      report(ctx, msg);
    }
  }
}

static int sparse_attribute(const Onnx__AttributeProto *ap) {
  return ap->has_sparse_tensor || ap->n_sparse_tensors > 0 ||
         (ap->has_type && (ap->type == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__SPARSE_TENSOR ||
                           ap->type == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__SPARSE_TENSORS));
}

void onnxshape__sparse_uses(const void *proto, void (*report)(void *ctx, const char *what),
                            void *ctx) {
  const Onnx__GraphProto *g = ((const Onnx__ModelProto *)proto)->graph;
  if (g == NULL) return;
  char msg[ONNXSHAPE_DIAG_SIZE], name[128];
  for (size_t i = 0; i < g->n_sparse_initializer; i++) {
    sparse_name(&g->sparse_initializer[i], name, sizeof name);
    if (name[0] != '\0') {
      onnxshape__format(msg, sizeof msg, "sparse initializer '{}'", ONNXSHAPE__ARGS(ARG_NAME(name)));
    } else {
      onnxshape__format(msg, sizeof msg, "sparse initializer #{} (unnamed)",
                        ONNXSHAPE__ARGS(ARG_UINT(i)));
    }
    report(ctx, msg);
  }
  for (size_t i = 0; i < g->n_node; i++) {
    const Onnx__NodeProto *np = g->node[i];
    for (size_t k = 0; k < np->n_attribute; k++) {
      const Onnx__AttributeProto *ap = np->attribute[k];
      if (!sparse_attribute(ap)) continue;
      const char *op = np->op_type != NULL ? np->op_type : "";
      const char *attr = ap->name != NULL ? ap->name : "";
      if (np->name != NULL && np->name[0] != '\0') {
        onnxshape__format(msg, sizeof msg, "node '{}' ({}): attribute '{}' is a sparse tensor",
                          ONNXSHAPE__ARGS(ARG_NAME(np->name), ARG_NAME(op), ARG_NAME(attr)));
      } else {
        onnxshape__format(msg, sizeof msg, "node #{} ({}): attribute '{}' is a sparse tensor",
                          ONNXSHAPE__ARGS(ARG_UINT(i), ARG_NAME(op), ARG_NAME(attr)));
      }
      report(ctx, msg);
    }
  }
  sparse_decls(g->input, g->n_input, "input", report, ctx);
  sparse_decls(g->output, g->n_output, "output", report, ctx);
  sparse_decls(g->value_info, g->n_value_info, "value_info", report, ctx);
}

/* ---- operators by count ------------------------------------------------ */

void onnxshape__count_op(const graph_node *n, op_count *counts, size_t *n_counts, size_t cap,
                         size_t *more) {
  const char *domain = n->domain != NULL ? n->domain : "";
  for (size_t k = 0; k < *n_counts; k++) {
    if (strcmp(counts[k].op, n->op_type) == 0 && strcmp(counts[k].domain, domain) == 0) {
      counts[k].count++;
      return;
    }
  }
  if (*n_counts == cap) {
    (*more)++;
    return;
  }
  counts[(*n_counts)++] = (op_count){domain, n->op_type, 1};
}

size_t onnxshape__count_ops(const model_graph *g, int (*select)(const graph_node *n),
                            op_count *counts, size_t cap, size_t *more) {
  size_t n = 0;
  *more = 0;
  for (size_t i = 0; i < g->n_nodes; i++) {
    if (select(&g->nodes[i])) onnxshape__count_op(&g->nodes[i], counts, &n, cap, more);
  }
  return n;
}

void onnxshape__op_counts_text(const op_count *counts, size_t n, size_t more, char *buf,
                               size_t cap) {
  size_t at = 0;
  buf[0] = '\0';
  for (size_t k = 0; k < n && at + 1 < cap; k++) {
    at += onnxshape__format(buf + at, cap - at, "{}{}{}{} ({})",
                            ONNXSHAPE__ARGS(ARG_STR(k > 0 ? ", " : ""),
                                            ONNXSHAPE__OP_ARGS(counts[k].domain, counts[k].op),
                                            ARG_UINT(counts[k].count)));
  }
  if (more > 0 && at + 1 < cap) {
    (void)onnxshape__format(buf + at, cap - at, ", and {} more nodes of other operators",
                            ONNXSHAPE__ARGS(ARG_UINT(more)));
  }
}
