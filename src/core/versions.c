/* SPDX-License-Identifier: Apache-2.0 */
#include <string.h>

#include "internal.h"

/* Bit mask of the types first..last (TensorProto numbers, inclusive). */
#define TYPE_RANGE(first, last) ((uint32_t)(((1ull << ((last) + 1)) - 1u) & ~((1ull << (first)) - 1u)))
#define TYPE_BIT(t) ((uint32_t)1u << (t))

#define T_1_15 TYPE_RANGE(1, 15)  /* everything before bfloat16 */
#define T_1_16 TYPE_RANGE(1, 16)  /* + bfloat16 (opset 13) */
#define T_1_20 TYPE_RANGE(1, 20)  /* + four float8 types (opset 19) */
#define T_1_22 TYPE_RANGE(1, 22)  /* + uint4, int4 (opset 21) */
#define T_1_23 TYPE_RANGE(1, 23)  /* + float4e2m1 (opset 23) */
#define T_1_24 TYPE_RANGE(1, 24)  /* + float8e8m0 (opset 24) */
#define T_1_26 TYPE_RANGE(1, 26)  /* + uint2, int2 (opset 25) */
#define T_RESHAPE_1 (TYPE_BIT(ONNXSHAPE_TYPE_FLOAT16) | TYPE_BIT(ONNXSHAPE_TYPE_FLOAT) | \
                     TYPE_BIT(ONNXSHAPE_TYPE_DOUBLE))

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

#define SHAPE_V(ver, mask, attrs, nattrs) {ONNXSHAPE_OP_SHAPE, "Shape", ver, mask, 1, nattrs, attrs}
static const onnxshape_op_version shape_versions[] = {
    SHAPE_V(1, T_1_15, NULL, 0),          SHAPE_V(13, T_1_16, NULL, 0),
    SHAPE_V(15, T_1_16, shape_attrs, 2),  SHAPE_V(19, T_1_20, shape_attrs, 2),
    SHAPE_V(21, T_1_22, shape_attrs, 2),  SHAPE_V(23, T_1_23, shape_attrs, 2),
    SHAPE_V(24, T_1_24, shape_attrs, 2),  SHAPE_V(25, T_1_26, shape_attrs, 2),
};

#define RESHAPE_V(ver, mask, nin, attrs, nattrs) \
  {ONNXSHAPE_OP_RESHAPE, "Reshape", ver, mask, nin, nattrs, attrs}
static const onnxshape_op_version reshape_versions[] = {
    RESHAPE_V(1, T_RESHAPE_1, 1, reshape1_attrs, 2),
    RESHAPE_V(5, T_1_15, 2, NULL, 0),
    RESHAPE_V(13, T_1_16, 2, NULL, 0),
    RESHAPE_V(14, T_1_16, 2, reshape14_attrs, 1),
    RESHAPE_V(19, T_1_20, 2, reshape14_attrs, 1),
    RESHAPE_V(21, T_1_22, 2, reshape14_attrs, 1),
    RESHAPE_V(23, T_1_23, 2, reshape14_attrs, 1),
    RESHAPE_V(24, T_1_24, 2, reshape14_attrs, 1),
    RESHAPE_V(25, T_1_26, 2, reshape14_attrs, 1),
};

#define SIZE_V(ver, mask) {ONNXSHAPE_OP_SIZE, "Size", ver, mask, 1, 0, NULL}
static const onnxshape_op_version size_versions[] = {
    SIZE_V(1, T_1_15),  SIZE_V(13, T_1_16), SIZE_V(19, T_1_20), SIZE_V(21, T_1_22),
    SIZE_V(23, T_1_23), SIZE_V(24, T_1_24), SIZE_V(25, T_1_26),
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Each operator's version list, by operator number - 1. */
static const struct {
  const onnxshape_op_version *first;
  size_t count;
} op_tables[3] = {
    [ONNXSHAPE_OP_SHAPE - 1] = {shape_versions, COUNT(shape_versions)},
    [ONNXSHAPE_OP_RESHAPE - 1] = {reshape_versions, COUNT(reshape_versions)},
    [ONNXSHAPE_OP_SIZE - 1] = {size_versions, COUNT(size_versions)},
};

const onnxshape_op_version *onnxshape_op_versions(onnxshape_op op, size_t *count) {
  unsigned o = (unsigned)op - 1u;
  int known = o < 3u;
  if (count != NULL) *count = known ? op_tables[o].count : 0;
  return known ? op_tables[o].first : NULL;
}

const char *onnxshape_op_name(onnxshape_op op) {
  const onnxshape_op_version *v = onnxshape_op_versions(op, NULL);
  return v != NULL ? v->op_name : "unknown";
}

onnxshape_status onnxshape_op_from_name(const char *name, onnxshape_op *op) {
  static const onnxshape_op ops[] = {ONNXSHAPE_OP_SHAPE, ONNXSHAPE_OP_RESHAPE, ONNXSHAPE_OP_SIZE};
  if (name == NULL || op == NULL) return ONNXSHAPE_ERR_UNKNOWN_OPERATOR;
  for (size_t i = 0; i < COUNT(ops); i++) {
    const char *candidate = onnxshape_op_name(ops[i]);
    if (name[0] == candidate[0] && strcmp(name, candidate) == 0) {
      *op = ops[i];
      return ONNXSHAPE_OK;
    }
  }
  return ONNXSHAPE_ERR_UNKNOWN_OPERATOR;
}

/* Each operator's table entry by since_version, as index + 1 (0: no such
 * version): the kernels' per-call check is one load, not a search.
 * tests/test_core.c checks it against a search of onnxshape_op_versions. */
#define VERSION_SLOTS (ONNXSHAPE_MAX_OPSET + 1)
/* One row per operator. */
/* clang-format off */
static const unsigned char version_slot[3][VERSION_SLOTS] = {
    [ONNXSHAPE_OP_SHAPE - 1] = {[1] = 1, [13] = 2, [15] = 3, [19] = 4, [21] = 5, [23] = 6,
                                [24] = 7, [25] = 8},
    [ONNXSHAPE_OP_RESHAPE - 1] = {[1] = 1, [5] = 2, [13] = 3, [14] = 4, [19] = 5, [21] = 6,
                                  [23] = 7, [24] = 8, [25] = 9},
    [ONNXSHAPE_OP_SIZE - 1] = {[1] = 1, [13] = 2, [19] = 3, [21] = 4, [23] = 5, [24] = 6,
                               [25] = 7},
};
/* clang-format on */

static const onnxshape_op_version *version_fast(onnxshape_op op, int version) {
  unsigned o = (unsigned)op - 1u;
  if (o >= 3u || version < 0 || version >= VERSION_SLOTS) return NULL;
  unsigned slot = version_slot[o][version];
  return slot != 0 ? &op_tables[o].first[slot - 1] : NULL;
}

const onnxshape_op_version *onnxshape_op_version_get(onnxshape_op op, int version) {
  return version_fast(op, version);
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
                           "no place to write the resolved version of {}", ONNXSHAPE__ARGS(ARG_STR(v->op_name)));
  }
  if (opset < 1 || opset > ONNXSHAPE_MAX_OPSET) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_UNSUPPORTED_OPSET, NULL, 0,
                           "{}: opset {} is not supported (this build knows opsets 1 to {})", ONNXSHAPE__ARGS(ARG_STR(v->op_name), ARG_INT(opset), ARG_INT(ONNXSHAPE_MAX_OPSET)));
  }
  /* Every operator here exists since opset 1, so some entry always matches. */
  size_t best = 0;
  for (size_t i = 0; i < n; i++) {
    if (v[i].since_version <= opset) best = i;
  }
  *version = v[best].since_version;
  onnxshape__diag_clear(diag);
  return ONNXSHAPE_OK;
}

/* Lists the allowed types of v into buf, for messages: "float16, float, double". */
static void allowed_types(const onnxshape_op_version *v, char *buf, size_t cap) {
  size_t used = 0;
  buf[0] = '\0';
  for (int32_t t = 1; t <= ONNXSHAPE_TYPE_LAST; t++) {
    if ((v->type_mask & TYPE_BIT(t)) == 0) continue;
    const char *name = onnxshape_type_name(t);
    size_t len = strlen(name);
    size_t sep = used > 0 ? 2 : 0;
    if (used + sep + len + 1 > cap) break;
    if (sep) {
      memcpy(buf + used, ", ", 2);
      used += 2;
    }
    memcpy(buf + used, name, len + 1);
    used += len;
  }
}

/* The error for a type that version v does not take: unknown, or not in
 * its type set. */
static onnxshape_status reject_type(const onnxshape_op_version *v, int32_t type,
                                    onnxshape_diag *diag) {
  if (onnxshape_type_get(type) == NULL) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_UNKNOWN_TYPE, v->op_name, v->since_version,
                           "element type {} is not a known TensorProto data type (1 to {})", ONNXSHAPE__ARGS(ARG_INT(type), ARG_INT(ONNXSHAPE_TYPE_LAST)));
  }
  char allowed[200];
  allowed_types(v, allowed, sizeof allowed);
  return onnxshape__fail(diag, ONNXSHAPE_ERR_TYPE_NOT_ALLOWED, v->op_name, v->since_version,
                         "input type {} is not allowed (allowed: {})", ONNXSHAPE__ARGS(ARG_STR(onnxshape_type_name(type)), ARG_STR(allowed)));
}

static onnxshape_status find_version(onnxshape_op op, int version,
                                     const onnxshape_op_version **out, onnxshape_diag *diag) {
  if (onnxshape_op_versions(op, NULL) == NULL) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_UNKNOWN_OPERATOR, NULL, 0,
                           "unknown operator number {}", ONNXSHAPE__ARGS(ARG_INT(op)));
  }
  const onnxshape_op_version *v = onnxshape_op_version_get(op, version);
  if (v == NULL) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_UNKNOWN_VERSION, NULL, 0,
                           "{} has no version {} (use onnxshape_resolve_version for an opset)", ONNXSHAPE__ARGS(ARG_STR(onnxshape_op_name(op)), ARG_INT(version)));
  }
  *out = v;
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape_check_type(onnxshape_op op, int version, int32_t type,
                                      onnxshape_diag *diag) {
  const onnxshape_op_version *v;
  return onnxshape__enter(op, version, type, &v, diag);
}

/* The rejections, with their messages; kept out of line so that the
 * accepting path of onnxshape__enter needs no stack frame. Reached only
 * when that path rejected: when the version exists, the type is what it
 * rejected (test_version_contracts_exhaustive in tests/test_core.c checks
 * every operator, version and type against the contract). */
ONNXSHAPE_NOINLINE static onnxshape_status enter_slow(onnxshape_op op, int version, int32_t type,
                                                      const onnxshape_op_version **v,
                                                      onnxshape_diag *diag) {
  onnxshape_status st = find_version(op, version, v, diag);
  if (st != ONNXSHAPE_OK) return st;
  return reject_type(*v, type, diag);
}

onnxshape_status onnxshape__enter(onnxshape_op op, int version, int32_t type,
                                  const onnxshape_op_version **v, onnxshape_diag *diag) {
  /* The usual case: a known version and an allowed type. */
  const onnxshape_op_version *e = version_fast(op, version);
  if (e != NULL && type >= 1 && type <= ONNXSHAPE_TYPE_LAST &&
      (e->type_mask & TYPE_BIT(type)) != 0) {
    *v = e;
    onnxshape__diag_clear(diag);
    return ONNXSHAPE_OK;
  }
  return enter_slow(op, version, type, v, diag);
}
