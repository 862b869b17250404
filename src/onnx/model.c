/* SPDX-License-Identifier: Apache-2.0 */
/* ModelProto to the checked, protobuf-free form of model.h. Every static
 * rule is checked here, so running a model fails only on data. */
#define _POSIX_C_SOURCE 200809L
#include "model.h"

#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
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

void onnxshape_model_free(onnxshape_model *m) {
  if (m == NULL) return;
  for (size_t i = 0; i < m->n_inits; i++) onnxshape_owned_tensor_free(m->inits[i]);
  for (size_t i = 0; i < m->n_nodes; i++) {
    graph_node *n = &m->nodes[i];
    for (size_t a = 0; a < n->n_attrs; a++) onnxshape_owned_tensor_free(n->attrs[a].t);
    onnxshape_owned_tensor_free(n->constant);
  }
  onnxshape__arena_release(m->arena); /* the model, its arrays and the decoded ModelProto */
}

size_t onnxshape_model_input_count(const onnxshape_model *m) { return m ? m->n_inputs : 0; }
const char *onnxshape_model_input_name(const onnxshape_model *m, size_t i) {
  return m && i < m->n_inputs ? m->inputs[i].name : NULL;
}
int onnxshape_model_input_has_default(const onnxshape_model *m, size_t i) {
  return m && i < m->n_inputs && m->slots[m->input_slots[i]].init != NULL;
}
size_t onnxshape_model_output_count(const onnxshape_model *m) { return m ? m->n_outputs : 0; }
const char *onnxshape_model_output_name(const onnxshape_model *m, size_t i) {
  return m && i < m->n_outputs ? m->outputs[i].name : NULL;
}
int64_t onnxshape_model_opset(const onnxshape_model *m) { return m ? m->opset : 0; }

/* ---- loading --------------------------------------------------------- */

static int is_default_domain(const char *d) {
  return d == NULL || d[0] == '\0' || strcmp(d, "ai.onnx") == 0;
}

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

/* The slot named `name`, or -1; *free_at is where the index would take it. */
static inline long find_slot_at(const onnxshape_model *m, const char *name, size_t *free_at) {
  size_t at = name_hash(name) & m->slot_mask;
  for (size_t e; (e = m->slot_index[at]) != 0; at = (at + 1) & m->slot_mask) {
    const char *s = m->slots[e - 1].name;
    if (s[0] == name[0] && strcmp(s, name) == 0) return (long)(e - 1);
  }
  *free_at = at;
  return -1;
}

long onnxshape__model_find_slot(const onnxshape_model *m, const char *name) {
  size_t unused;
  return find_slot_at(m, name, &unused);
}

static onnxshape_status load_decl(onnxshape_model *m, const Onnx__ValueInfoProto *vi,
                                  value_decl *d, const char *what, onnxshape_diag *diag) {
  d->name = vi->name != NULL ? vi->name : "";
  if (d->name[0] == '\0') return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "a graph {} has no name", ONNXSHAPE__ARGS(ARG_STR(what)));
  const Onnx__TypeProto *tp = vi->type;
  if (tp == NULL || tp->value_case == ONNX__TYPE_PROTO__VALUE__NOT_SET) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL,
                 "graph {} '{}' has no type (ONNX requires one for graph inputs and outputs)", ONNXSHAPE__ARGS(ARG_STR(what), ARG_NAME(d->name)));
  }
  if (tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL,
                 "graph {} '{}' is not a tensor (sequences, maps, optionals and sparse tensors "
                 "are not supported)", ONNXSHAPE__ARGS(ARG_STR(what), ARG_NAME(d->name)));
  }
  const Onnx__TypeProto__Tensor *tt = tp->tensor_type;
  if (!tt->has_elem_type || onnxshape_type_get(tt->elem_type) == NULL) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "graph {} '{}' has {} element type {}", ONNXSHAPE__ARGS(ARG_STR(what), ARG_NAME(d->name), ARG_NAME(tt->has_elem_type ? "unknown" : "no"), ARG_INT(tt->elem_type)));
  }
  d->has_type = 1;
  d->elem_type = tt->elem_type;
  if (tt->shape != NULL) {
    d->has_shape = 1;
    d->rank = tt->shape->n_dim;
    if (d->rank > 0) {
      d->dims = model_alloc(m, d->rank, sizeof *d->dims);
      if (d->dims == NULL) return onnxshape__error(diag, ONNXSHAPE_ERR_OUT_OF_MEMORY, "out of memory", ONNXSHAPE__NO_ARGS);
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

static onnxshape_status add_slot(onnxshape_model *m, const char *name, slot_kind kind,
                                 size_t *index, onnxshape_diag *diag) {
  size_t at = 0;
  if (find_slot_at(m, name, &at) >= 0) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "the name '{}' is defined twice", ONNXSHAPE__ARGS(ARG_NAME(name)));
  }
  value_slot *s = &m->slots[m->n_slots];
  s->name = name;
  s->kind = kind;
  s->init = NULL;
  *index = m->n_slots++;
  m->slot_index[at] = m->n_slots;
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
    return onnxshape__error(diag, ONNXSHAPE_ERR_OUT_OF_MEMORY, "out of memory", ONNXSHAPE__NO_ARGS);
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

/* Checks one attribute against the version's list and decodes it. */
static onnxshape_status load_attr(onnxshape_model *m, graph_node *n, const Onnx__AttributeProto *ap,
                                  node_attr *a, const op_attr *specs, size_t n_specs,
                                  onnxshape_diag *diag) {
  a->name = ap->name != NULL ? ap->name : "";
  if (ap->ref_attr_name != NULL) {
    return NFAIL(n, ONNXSHAPE_ERR_INVALID_ATTRIBUTE,
                 "attribute '{}' refers to a function attribute, which is only valid inside a "
                 "function", ONNXSHAPE__ARGS(ARG_NAME(a->name)));
  }
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
  a->i = ap->i;
  a->f = ap->f;
  a->ints = ap->ints;
  a->n_ints = ap->n_ints;
  a->floats = ap->floats;
  a->n_floats = ap->n_floats;
  a->s.data = (const char *)ap->s.data;
  a->s.length = ap->s.len;
  if (a->type == ATTR_STRINGS && ap->n_strings > 0) {
    a->strings = model_alloc(m, ap->n_strings, sizeof *a->strings);
    if (a->strings == NULL) return onnxshape__error(diag, ONNXSHAPE_ERR_OUT_OF_MEMORY, "out of memory", ONNXSHAPE__NO_ARGS);
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

/* The operator of a node, its version at the model's opset, and what that
 * version takes: attributes (into *specs, room for 2 kernel attributes) and
 * the number of inputs. */
static onnxshape_status resolve_operator(const onnxshape_model *m, graph_node *n,
                                         const Onnx__NodeProto *np, op_attr kernel_specs[2],
                                         const op_attr **specs, size_t *n_specs, size_t *n_in,
                                         onnxshape_diag *diag) {
  if (!is_default_domain(np->domain)) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_UNKNOWN_OPERATOR,
                 "operator '{}' of domain '{}' is not supported (only the default domain)",
                 ONNXSHAPE__ARGS(ARG_NAME(n->op_type), ARG_NAME(np->domain)));
  }
  onnxshape_op op;
  if (onnxshape_op_from_name(n->op_type, &op) == ONNXSHAPE_OK) {
    n->kind = (node_kind)op;
    onnxshape_status st = onnxshape_resolve_version(op, m->opset, &n->version, NULL);
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
    n->version = onnxshape__other_version(ONNXSHAPE__CONSTANT, m->opset);
    *specs = constant_attrs(n->version, n_specs);
    *n_in = 0;
    return ONNXSHAPE_OK;
  }
  if (strcmp(n->op_type, "Identity") == 0) {
    n->kind = NODE_IDENTITY;
    n->version = onnxshape__other_version(ONNXSHAPE__IDENTITY, m->opset);
    *specs = NULL;
    *n_specs = 0;
    *n_in = 1;
    return ONNXSHAPE_OK;
  }
  return onnxshape__error(diag, ONNXSHAPE_ERR_UNKNOWN_OPERATOR,
               "operator '{}' is not supported (onnxshape runs Shape, Reshape, Size, Constant "
               "and Identity)",
               ONNXSHAPE__ARGS(ARG_NAME(n->op_type)));
}

/* Every attribute of the node: defined for its version, of the right type,
 * set at most once; every required one present. */
static onnxshape_status load_attrs(onnxshape_model *m, graph_node *n, const Onnx__NodeProto *np,
                                   const op_attr *specs, size_t n_specs, onnxshape_diag *diag) {
  if (np->n_attribute > 0) {
    n->attrs = model_alloc(m, np->n_attribute, sizeof *n->attrs);
    if (n->attrs == NULL) return onnxshape__error(diag, ONNXSHAPE_ERR_OUT_OF_MEMORY, "out of memory", ONNXSHAPE__NO_ARGS);
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

/* The node's inputs (exactly n_in, each defined before the node) and its one
 * output (a new name). */
static onnxshape_status connect(onnxshape_model *m, graph_node *n, const Onnx__NodeProto *np,
                                size_t n_in, onnxshape_diag *diag) {
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
    return onnxshape__error(diag, ONNXSHAPE_ERR_OUT_OF_MEMORY, "out of memory", ONNXSHAPE__NO_ARGS);
  }
  n->n_inputs = n_in;
  n->n_outputs = 1;
  for (size_t i = 0; i < n_in; i++) {
    const char *in = np->input[i];
    if (in == NULL || in[0] == '\0') {
      return NFAIL(n, ONNXSHAPE_ERR_INVALID_MODEL, "input {} is empty; it is not optional",
                   ONNXSHAPE__ARGS(ARG_UINT(i)));
    }
    long s = onnxshape__model_find_slot(m, in);
    if (s < 0) {
      return NFAIL(n, ONNXSHAPE_ERR_INVALID_MODEL,
                   "input '{}' is not a graph input, an initializer or the output of an earlier "
                   "node",
                   ONNXSHAPE__ARGS(ARG_NAME(in)));
    }
    n->inputs[i] = (size_t)s;
  }
  const char *out = np->output[0];
  if (out == NULL || out[0] == '\0') {
    return NFAIL(n, ONNXSHAPE_ERR_INVALID_MODEL, "output 0 is empty", ONNXSHAPE__NO_ARGS);
  }
  if (onnxshape__model_find_slot(m, out) >= 0) {
    return NFAIL(n, ONNXSHAPE_ERR_INVALID_MODEL, "output '{}' is already defined",
                 ONNXSHAPE__ARGS(ARG_NAME(out)));
  }
  return add_slot(m, out, SLOT_NODE, &n->outputs[0], diag);
}

static onnxshape_status load_node(onnxshape_model *m, const Onnx__NodeProto *np, size_t index,
                                  onnxshape_diag *diag) {
  graph_node *n = &m->nodes[index];
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
  onnxshape_status st = resolve_operator(m, n, np, kernel_specs, &specs, &n_specs, &n_in, diag);
  if (st == ONNXSHAPE_OK) st = load_attrs(m, n, np, specs, n_specs, diag);
  if (st == ONNXSHAPE_OK) st = kernel_attrs(n, diag);
  if (st == ONNXSHAPE_OK && n->kind == NODE_CONSTANT) st = load_constant_value(m, n, diag);
  if (st == ONNXSHAPE_OK) st = connect(m, n, np, n_in, diag);
  return st;
}

static onnxshape_status load_graph(onnxshape_model *m, const Onnx__GraphProto *g,
                                   onnxshape_diag *diag) {
  if (g->n_sparse_initializer > 0) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "sparse initializers are not supported", ONNXSHAPE__NO_ARGS);
  }
  size_t cap = g->n_input + g->n_initializer + g->n_node + 1;
  size_t index_size = 8;
  while (index_size / 2 < cap && index_size <= SIZE_MAX / 4) index_size *= 2;
  m->slot_mask = index_size - 1;
  m->slot_index = index_size / 2 >= cap ? model_alloc(m, index_size, sizeof *m->slot_index) : NULL;
  m->slots = model_alloc(m, cap, sizeof *m->slots);
  m->inits = model_alloc(m, g->n_initializer + 1, sizeof *m->inits);
  m->inputs = model_alloc(m, g->n_input + 1, sizeof *m->inputs);
  m->input_slots = model_alloc(m, g->n_input + 1, sizeof *m->input_slots);
  m->outputs = model_alloc(m, g->n_output + 1, sizeof *m->outputs);
  m->output_slots = model_alloc(m, g->n_output + 1, sizeof *m->output_slots);
  m->nodes = model_alloc(m, g->n_node + 1, sizeof *m->nodes);
  if (!m->slot_index || !m->slots || !m->inits || !m->inputs || !m->input_slots || !m->outputs ||
      !m->output_slots || !m->nodes) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_OUT_OF_MEMORY, "out of memory", ONNXSHAPE__NO_ARGS);
  }
  for (size_t i = 0; i < g->n_input; i++) {
    onnxshape_status st = load_decl(m, g->input[i], &m->inputs[i], "input", diag);
    m->n_inputs = i + 1;
    if (st != ONNXSHAPE_OK) return st;
    st = add_slot(m, m->inputs[i].name, SLOT_INPUT, &m->input_slots[i], diag);
    if (st != ONNXSHAPE_OK) return st;
    m->slots[m->input_slots[i]].input_index = i;
  }
  for (size_t i = 0; i < g->n_initializer; i++) {
    onnxshape_owned_tensor *t;
    onnxshape_status st =
        onnxshape__tensor_from_proto(g->initializer[i], m->ext, m->arena, &t, diag);
    if (st != ONNXSHAPE_OK) return st;
    m->inits[m->n_inits++] = t;
    if (t->name[0] == '\0') return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "initializer {} has no name", ONNXSHAPE__ARGS(ARG_UINT(i)));
    long s = onnxshape__model_find_slot(m, t->name);
    if (s >= 0 && m->slots[s].init != NULL) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "the name '{}' is defined twice", ONNXSHAPE__ARGS(ARG_NAME(t->name)));
    }
    if (s >= 0) { /* a graph input with a default value, which must fit its declaration */
      st = onnxshape__decl_check(&m->inputs[m->slots[s].input_index], t->view.type, t->view.rank,
                                 t->view.dims, "its initializer is", 1, diag);
      if (st != ONNXSHAPE_OK) return st;
      m->slots[s].init = t;
      continue;
    }
    size_t idx;
    st = add_slot(m, t->name, SLOT_INITIALIZER, &idx, diag);
    if (st != ONNXSHAPE_OK) return st;
    m->slots[idx].init = t;
  }
  for (size_t i = 0; i < g->n_node; i++) {
    onnxshape_status st = load_node(m, g->node[i], i, diag);
    m->n_nodes = i + 1;
    if (st != ONNXSHAPE_OK) return st;
  }
  diag->node = NULL;
  if (g->n_output == 0) return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "the graph has no outputs", ONNXSHAPE__NO_ARGS);
  for (size_t i = 0; i < g->n_output; i++) {
    onnxshape_status st = load_decl(m, g->output[i], &m->outputs[i], "output", diag);
    m->n_outputs = i + 1;
    if (st != ONNXSHAPE_OK) return st;
    long s = onnxshape__model_find_slot(m, m->outputs[i].name);
    if (s < 0) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL,
                   "graph output '{}' is not produced by any node, input or initializer", ONNXSHAPE__ARGS(ARG_NAME(m->outputs[i].name)));
    }
    m->output_slots[i] = (size_t)s;
  }
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape__model_decode(const void *bytes, size_t len, const char *shown,
                                         onnxshape__arena **arena, const void **proto,
                                         onnxshape_diag *diag) {
  ProtobufCMessage *msg;
  int limited;
  onnxshape_status st =
      onnxshape__pb_decode(&onnx__model_proto__descriptor, bytes != NULL ? bytes : (const void *)"",
                           len, onnxshape__memory_limit(len), arena, &msg, &limited);
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
  if (st != ONNXSHAPE_OK) return onnxshape__error(diag, st, "out of memory", ONNXSHAPE__NO_ARGS);
  *proto = msg;
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape__model_load(const void *proto, onnxshape__arena *a,
                                       onnxshape__extdir *ext, size_t len, onnxshape_model **out,
                                       onnxshape_diag *diag) {
  const Onnx__ModelProto *mp = proto;
  onnxshape_model *m = onnxshape__arena_alloc(a, sizeof *m); /* zeroed */
  if (m == NULL) {
    onnxshape__arena_release(a);
    return onnxshape__error(diag, ONNXSHAPE_ERR_OUT_OF_MEMORY, "out of memory", ONNXSHAPE__NO_ARGS);
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
    if (st == ONNXSHAPE_OK) st = load_graph(m, mp->graph, diag);
  }
  diag->node = caller_node;
  m->ext = NULL;
  if (st != ONNXSHAPE_OK) {
    onnxshape_model_free(m);
    return st;
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
  onnxshape_status st = onnxshape__model_decode(bytes, len, NULL, &a, &proto, diag);
  if (st != ONNXSHAPE_OK) return st;
  onnxshape__extdir ext = {base_dir, -1};
  st = onnxshape__model_load(proto, a, &ext, len, out, diag);
  onnxshape__extdir_close(&ext);
  if (st == ONNXSHAPE_OK) onnxshape__diag_clear(diag);
  return st;
}

onnxshape_status onnxshape__model_file(const char *path, unsigned char **bytes, size_t *len,
                                       onnxshape__extdir *ext, onnxshape_diag *diag) {
  const char *base;
  char *dir;
  ext->path = NULL;
  ext->fd = -1;
  onnxshape_status st = onnxshape__open_parent(path, &ext->fd, &base, &dir, diag);
  if (st != ONNXSHAPE_OK) return st;
  ext->path = dir;
  int fd;
  struct stat sb;
  st = onnxshape__open_file(ext->fd, base, path, &fd, &sb, diag);
  if (st == ONNXSHAPE_OK) {
    st = onnxshape__read_all(fd, &sb, path, bytes, len, diag);
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
  unsigned char *bytes;
  size_t len;
  onnxshape__extdir ext;
  onnxshape_status st = onnxshape__model_file(path, &bytes, &len, &ext, diag);
  if (st != ONNXSHAPE_OK) return st;
  onnxshape__arena *a;
  const void *proto;
  st = onnxshape__model_decode(bytes, len, path, &a, &proto, diag);
  onnxshape__free(bytes); /* the decoded model holds copies of what it needs */
  if (st == ONNXSHAPE_OK) st = use(proto, a, &ext, len, ctx, diag);
  onnxshape__extdir_close(&ext);
  onnxshape__free((void *)(uintptr_t)ext.path);
  return st;
}

static onnxshape_status load_decoded(const void *proto, onnxshape__arena *a,
                                     onnxshape__extdir *ext, size_t len, void *out,
                                     onnxshape_diag *diag) {
  return onnxshape__model_load(proto, a, ext, len, (onnxshape_model **)out, diag);
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
  for (size_t i = 0; i < m->n_inits; i++) {
    onnxshape_status st = onnxshape__map_check(&m->inits[i]->map, diag);
    if (st != ONNXSHAPE_OK) return st;
  }
  for (size_t i = 0; i < m->n_nodes; i++) {
    const graph_node *n = &m->nodes[i];
    if (n->constant == NULL) continue;
    onnxshape_status st = onnxshape__map_check(&n->constant->map, diag);
    if (st != ONNXSHAPE_OK) return st;
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
