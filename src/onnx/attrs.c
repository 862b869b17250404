/* SPDX-License-Identifier: Apache-2.0 */
/* The attributes of a node as the loader checks them (load.h): the
 * operator a node names and what its version takes, the kernels' and
 * Constant's attributes checked as strictly as the kernels, and Constant's
 * value. */
#include <stdio.h>
#include <string.h>

#include "load.h"
#include "../core/le.h"
#include "../ops/reshape_rules.h"

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

const char *onnxshape__attr_type_name(int t) {
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
  uint32_t allowed = onnxshape__other_types(ONNXSHAPE__CONSTANT, n->version);
  if ((allowed & (1u << type)) == 0) {
    return NFAIL(n, ONNXSHAPE_ERR_TYPE_NOT_ALLOWED, "value type {} is not allowed (allowed: {})",
                 ONNXSHAPE__ARGS(ARG_STR(onnxshape_type_name(type)), ARG_TYPES(allowed)));
  }
  return ONNXSHAPE_OK;
}

/* An attribute's numbers, lists of numbers and string, as they are in the
 * decoded AttributeProto, and the count of its strings (not the strings:
 * load_attr copies them for the operators that read them). */
void onnxshape__copy_scalars(node_attr *a, const Onnx__AttributeProto *ap) {
  a->i = ap->i;
  a->f = ap->f;
  a->ints = ap->ints;
  a->n_ints = ap->n_ints;
  a->floats = ap->floats;
  a->n_floats = ap->n_floats;
  a->s.data = (const char *)ap->s.data;
  a->s.length = ap->s.len;
  a->n_strings = ap->n_strings;
}

/* An attribute reference (ref_attr_name) outside a function's body, where
 * it refers to nothing (inside one, references are resolved before the
 * node loads). */
onnxshape_status onnxshape__stray_ref(const graph_node *n, const char *attr, onnxshape_diag *diag) {
  return NFAIL(n, ONNXSHAPE_ERR_INVALID_ATTRIBUTE,
               "attribute '{}' refers to a function attribute, which is only valid inside a "
               "function", ONNXSHAPE__ARGS(ARG_NAME(attr)));
}

/* Checks one attribute against the version's list and decodes it. */
static onnxshape_status load_attr(onnxshape_model *m, graph_node *n, const Onnx__AttributeProto *ap,
                                  node_attr *a, const op_attr *specs, size_t n_specs,
                                  onnxshape_diag *diag) {
  a->name = ap->name != NULL ? ap->name : "";
  if (ap->ref_attr_name != NULL) return onnxshape__stray_ref(n, a->name, diag);
  const op_attr *spec = NULL;
  for (size_t i = 0; i < n_specs; i++) {
    if (strcmp(specs[i].name, a->name) == 0) spec = &specs[i];
  }
  if (spec == NULL) {
    return NFAIL(n, ONNXSHAPE_ERR_INVALID_ATTRIBUTE, "attribute '{}' is not defined for {}-{}", ONNXSHAPE__ARGS(ARG_NAME(a->name), ARG_NAME(op_display(n)), ARG_INT(n->version)));
  }
  a->type = ap->has_type ? (int)ap->type : 0;
  if (a->type != spec->type) {
    return NFAIL(n, ONNXSHAPE_ERR_INVALID_ATTRIBUTE, "attribute '{}' has type {}; it must be {}", ONNXSHAPE__ARGS(ARG_NAME(a->name), ARG_STR(onnxshape__attr_type_name(a->type)), ARG_STR(onnxshape__attr_type_name(spec->type))));
  }
  onnxshape__copy_scalars(a, ap);
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
onnxshape_status onnxshape__resolve_operator(int64_t opset, graph_node *n,
                                         const Onnx__NodeProto *np, op_attr kernel_specs[2],
                                         const op_attr **specs, size_t *n_specs, size_t *n_in,
                                         onnxshape_diag *diag) {
  n->op = OP_OTHER;
  n->version = 0;
  operator_id id;
  int version;
  if (!is_default_domain(np->domain) || !onnxshape__op_find(n->op_type, opset, &id, &version)) {
    return ONNXSHAPE_OK;
  }
  n->op = id;
  n->version = version;
  if ((onnxshape__op_flags(id) & OPF_KERNEL) != 0) {
    onnxshape_op op = node_kernel(id);
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
  } else if (id == OP_CONSTANT) {
    *specs = constant_attrs(n->version, n_specs);
    *n_in = 0;
  } else if (id == OP_IDENTITY) {
    *specs = NULL;
    *n_specs = 0;
    *n_in = 1;
  }
  return ONNXSHAPE_OK;
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
      /* Its value's rule and message are Reshape's own (src/ops/reshape.c). */
      int allowzero;
      onnxshape_status st =
          onnxshape__reshape_allowzero(n->version, &n->reshape_attrs, &allowzero, diag);
      if (st != ONNXSHAPE_OK) return onnxshape__finish(diag, st);
    } else if (strcmp(a->name, "shape") == 0) {
      n->reshape1_shape = a->ints;
      n->reshape1_len = a->n_ints;
    }
  }
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape__load_strict_attrs(onnxshape_model *m, graph_node *n,
                                             const Onnx__NodeProto *np, const op_attr *specs,
                                             size_t n_specs, onnxshape_diag *diag) {
  onnxshape_status st = load_attrs(m, n, np, specs, n_specs, diag);
  if (st == ONNXSHAPE_OK) st = kernel_attrs(n, diag);
  if (st == ONNXSHAPE_OK && n->op == OP_CONSTANT) st = load_constant_value(m, n, diag);
  return st;
}
