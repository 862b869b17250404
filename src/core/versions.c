/* SPDX-License-Identifier: Apache-2.0 */
/* The operator versions of the public API, built from the lists of
 * catalog.h; lookups and the messages of a refused version or type.
 * tests/test_core.c (test_version_contracts_exhaustive) checks every
 * function here against the specification on every input that matters. */
#include "catalog_fns.h"

static const onnxshape_attr_spec shape_attrs[] = {
    {"start", ONNXSHAPE_ATTR_INT, 0, 1, 0},
    {"end", ONNXSHAPE_ATTR_INT, 0, 0, 0}, /* default: the input's rank */
};
static const onnxshape_attr_spec reshape1_attrs[] = {
    {"consumed_inputs", ONNXSHAPE_ATTR_INTS, 0, 0, 0}, /* legacy, ignored */
    {"shape", ONNXSHAPE_ATTR_INTS, 1, 0, 0},
};
static const onnxshape_attr_spec reshape14_attrs[] = {
    {"allowzero", ONNXSHAPE_ATTR_INT, 0, 1, 0},
};

#define TYPES_OF(v) ONNXSHAPE__TYPES_UP_TO(ONNXSHAPE__LAST_TYPE(v))

#define SHAPE_ENTRY(v)                                                 \
  {ONNXSHAPE_OP_SHAPE, ONNXSHAPE__SHAPE_NAME, v, TYPES_OF(v), 1,                     \
   (v) >= ONNXSHAPE__SHAPE_ATTRS_SINCE ? 2u : 0u,                      \
   (v) >= ONNXSHAPE__SHAPE_ATTRS_SINCE ? shape_attrs : NULL},
static const onnxshape_op_version shape_versions[] = {ONNXSHAPE__SHAPE_VERSIONS(SHAPE_ENTRY)};

#define RESHAPE_ENTRY(v)                                                                      \
  {ONNXSHAPE_OP_RESHAPE, ONNXSHAPE__RESHAPE_NAME, v, (v) == 1 ? ONNXSHAPE__FLOAT_TYPES : TYPES_OF(v),       \
   (v) >= ONNXSHAPE__SHAPE_INPUT_SINCE ? 2u : 1u,                                             \
   (v) == 1 ? 2u : (v) >= ONNXSHAPE__ALLOWZERO_SINCE ? 1u : 0u,                               \
   (v) == 1 ? reshape1_attrs : (v) >= ONNXSHAPE__ALLOWZERO_SINCE ? reshape14_attrs : NULL},
static const onnxshape_op_version reshape_versions[] = {
    ONNXSHAPE__RESHAPE_VERSIONS(RESHAPE_ENTRY)};

#define SIZE_ENTRY(v) {ONNXSHAPE_OP_SIZE, ONNXSHAPE__SIZE_NAME, v, TYPES_OF(v), 1, 0, NULL},
static const onnxshape_op_version size_versions[] = {ONNXSHAPE__SIZE_VERSIONS(SIZE_ENTRY)};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Each operator's version list, by operator number - 1. */
static const struct {
  const onnxshape_op_version *first;
  size_t count;
} op_tables[3] = {
    [(int)ONNXSHAPE_OP_SHAPE - 1] = {shape_versions, COUNT(shape_versions)},
    [(int)ONNXSHAPE_OP_RESHAPE - 1] = {reshape_versions, COUNT(reshape_versions)},
    [(int)ONNXSHAPE_OP_SIZE - 1] = {size_versions, COUNT(size_versions)},
};

const onnxshape_op_version *onnxshape_op_versions(onnxshape_op op, size_t *count) {
  unsigned o = (unsigned)op - 1u;
  const onnxshape_op_version *first = NULL;
  size_t n = 0;
  if (o < 3u) {
    first = op_tables[o].first;
    n = op_tables[o].count;
  }
  if (count != NULL) {
    *count = n;
  }
  return first;
}

/* A switch, not a lookup in the version tables: a refusal's message names
 * the operator, and a bare-metal image then links no table (about 1 KB of
 * flash). */
const char *onnxshape_op_name(onnxshape_op op) {
  switch (op) {
    case ONNXSHAPE_OP_SHAPE:
      return ONNXSHAPE__SHAPE_NAME;
    case ONNXSHAPE_OP_RESHAPE:
      return ONNXSHAPE__RESHAPE_NAME;
    case ONNXSHAPE_OP_SIZE:
      return ONNXSHAPE__SIZE_NAME;
    default:
      return "unknown";
  }
}

/* The kernels need nothing of the C library but memcpy, memmove and memset
 * (a bare-metal build links no string functions): this stands in for
 * strcmp() == 0. */
static int same_text(const char *a, const char *b) {
  while (*a != '\0' && *a == *b) {
    a++;
    b++;
  }
  return *a == *b;
}


onnxshape_status onnxshape_op_from_name(const char *name, onnxshape_op *op) {
  static const onnxshape_op ops[] = {ONNXSHAPE_OP_SHAPE, ONNXSHAPE_OP_RESHAPE, ONNXSHAPE_OP_SIZE};
  if (name == NULL || op == NULL) {
    return ONNXSHAPE_ERR_UNKNOWN_OPERATOR;
  }
  for (size_t i = 0; i < COUNT(ops); i++) {
    if (same_text(name, onnxshape_op_name(ops[i])) != 0) {
      *op = ops[i];
      return ONNXSHAPE_OK;
    }
  }
  return ONNXSHAPE_ERR_UNKNOWN_OPERATOR;
}

const onnxshape_op_version *onnxshape_op_version_get(onnxshape_op op, int version) {
  size_t n;
  const onnxshape_op_version *v = onnxshape_op_versions(op, &n);
  for (size_t i = 0; i < n; i++) {
    if (v[i].since_version == version) {
      return &v[i];
    }
  }
  return NULL;
}

onnxshape_status onnxshape_resolve_version(onnxshape_op op, int64_t opset, int *version,
                                           onnxshape_diag *diag) {
  size_t n;
  const onnxshape_op_version *v = onnxshape_op_versions(op, &n);
  if (v == NULL) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_UNKNOWN_OPERATOR, NULL, 0,
                           "unknown operator number {}", ONNXSHAPE__ARGS(ARG_INT(op)));
  }
  if (version == NULL) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, NULL, 0,
                           "no place to write the resolved version of {}",
                           ONNXSHAPE__ARGS(ARG_STR(v->op_name)));
  }
  if (opset < 1 || opset > ONNXSHAPE_MAX_OPSET) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_UNSUPPORTED_OPSET, NULL, 0,
                           "{}: opset {} is not supported (this build knows opsets 1 to {})",
                           ONNXSHAPE__ARGS(ARG_STR(v->op_name), ARG_INT(opset),
                                           ARG_INT(ONNXSHAPE_MAX_OPSET)));
  }
  /* Every operator here exists since opset 1, so some entry always matches. */
  size_t best = 0;
  for (size_t i = 0; i < n && v[i].since_version <= opset; i++) {
    best = i;
  }
  *version = v[best].since_version;
  onnxshape__diag_clear(diag);
  return ONNXSHAPE_OK;
}

/* ---- Constant and Identity (the loader's and the runner's) ---------------- */

uint32_t onnxshape__other_types(onnxshape__other_op op, int version) {
  int32_t last = ONNXSHAPE__LAST_TYPE(version);
  return (op == ONNXSHAPE__CONSTANT && version < 9) ? ONNXSHAPE__FLOAT_TYPES
                                                    : ONNXSHAPE__TYPES_UP_TO(last);
}

onnxshape_status onnxshape__identity_check(int version, int32_t type, onnxshape_diag *diag) {
  uint32_t types = onnxshape__other_types(ONNXSHAPE__IDENTITY, version);
  if (type >= 1 && type <= ONNXSHAPE_TYPE_LAST) {
    uint32_t bit = (uint32_t)1u << (uint32_t)type;
    if ((types & bit) != 0u) {
      return ONNXSHAPE_OK;
    }
  }
  return onnxshape__fail(diag, ONNXSHAPE_ERR_TYPE_NOT_ALLOWED, "Identity", version,
                         "input type {} is not allowed",
                         ONNXSHAPE__ARGS(ARG_STR(onnxshape_type_name(type))));
}

/* ---- Refusals -------------------------------------------------------------- */

onnxshape_status onnxshape__reject(onnxshape_op op, int version, int32_t type,
                                   onnxshape_diag *diag) {
  /* Decided from the catalog's lists alone (catalog_fns.h), not from the
   * version tables above: a build without messages then links no table. */
  if ((unsigned)op - 1u >= 3u) {
    return onnxshape__defer(diag, ONNXSHAPE_ERR_UNKNOWN_OPERATOR, NULL, 0,
                            "unknown operator number {}", VAL_INT(op));
  }
  int32_t last = onnxshape__last_type(op, version);
  int reshape1 = 0;
  if (op == ONNXSHAPE_OP_RESHAPE && version == 1) {
    reshape1 = 1;
  }
  if (last == 0 && reshape1 == 0) {
    return onnxshape__defer(diag, ONNXSHAPE_ERR_UNKNOWN_VERSION, NULL, 0,
                            "{} has no version {} (use onnxshape_resolve_version for an opset)",
                            VAL_STR(onnxshape_op_name(op)), VAL_INT(version));
  }
  if (type < 1 || type > ONNXSHAPE_TYPE_LAST) {
    return onnxshape__defer(diag, ONNXSHAPE_ERR_UNKNOWN_TYPE, onnxshape_op_name(op), version,
                            "element type {} is not a known TensorProto data type (1 to {})",
                            VAL_INT(type), VAL_INT(ONNXSHAPE_TYPE_LAST));
  }
  return onnxshape__defer(diag, ONNXSHAPE_ERR_TYPE_NOT_ALLOWED, onnxshape_op_name(op), version,
                          "input type {} is not allowed (allowed: {})",
                          VAL_STR(onnxshape_type_name(type)),
                                         VAL_TYPES(reshape1 != 0 ? ONNXSHAPE__FLOAT_TYPES
                                                                 : ONNXSHAPE__TYPES_UP_TO(last)));
}

