/* SPDX-License-Identifier: Apache-2.0 */
/* Element types, operator versions, status codes, diagnostics and dims
 * arithmetic (docs/semantics.md: "Versions and opset resolution",
 * "Element types"). */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "../src/core/internal.h"
#include "../src/core/catalog_fns.h"
#include "../src/ops/reshape_rules.h"

/* covers: STATUS-VALUES */
/* The pinned status values: changing one breaks users, so each is spelled out. */
static void test_status_values_are_pinned(void) {
  static const struct { onnxshape_status s; int value; const char *name; } want[] = {
      {ONNXSHAPE_OK, 0, "ONNXSHAPE_OK"},
      {ONNXSHAPE_ERR_INVALID_ARGUMENT, 1, "ONNXSHAPE_ERR_INVALID_ARGUMENT"},
      {ONNXSHAPE_ERR_UNKNOWN_TYPE, 2, "ONNXSHAPE_ERR_UNKNOWN_TYPE"},
      {ONNXSHAPE_ERR_TYPE_NOT_ALLOWED, 3, "ONNXSHAPE_ERR_TYPE_NOT_ALLOWED"},
      {ONNXSHAPE_ERR_UNKNOWN_OPERATOR, 4, "ONNXSHAPE_ERR_UNKNOWN_OPERATOR"},
      {ONNXSHAPE_ERR_UNSUPPORTED_OPSET, 5, "ONNXSHAPE_ERR_UNSUPPORTED_OPSET"},
      {ONNXSHAPE_ERR_UNKNOWN_VERSION, 6, "ONNXSHAPE_ERR_UNKNOWN_VERSION"},
      {ONNXSHAPE_ERR_INVALID_ATTRIBUTE, 7, "ONNXSHAPE_ERR_INVALID_ATTRIBUTE"},
      {ONNXSHAPE_ERR_NEGATIVE_DIM, 8, "ONNXSHAPE_ERR_NEGATIVE_DIM"},
      {ONNXSHAPE_ERR_OVERFLOW, 9, "ONNXSHAPE_ERR_OVERFLOW"},
      {ONNXSHAPE_ERR_DIM_BELOW_MINUS_ONE, 10, "ONNXSHAPE_ERR_DIM_BELOW_MINUS_ONE"},
      {ONNXSHAPE_ERR_MULTIPLE_INFERRED, 11, "ONNXSHAPE_ERR_MULTIPLE_INFERRED"},
      {ONNXSHAPE_ERR_ZERO_OUT_OF_RANGE, 12, "ONNXSHAPE_ERR_ZERO_OUT_OF_RANGE"},
      {ONNXSHAPE_ERR_ZERO_WITH_INFERRED, 13, "ONNXSHAPE_ERR_ZERO_WITH_INFERRED"},
      {ONNXSHAPE_ERR_INFERRED_FROM_ZERO, 14, "ONNXSHAPE_ERR_INFERRED_FROM_ZERO"},
      {ONNXSHAPE_ERR_NOT_DIVISIBLE, 15, "ONNXSHAPE_ERR_NOT_DIVISIBLE"},
      {ONNXSHAPE_ERR_COUNT_MISMATCH, 16, "ONNXSHAPE_ERR_COUNT_MISMATCH"},
      {ONNXSHAPE_ERR_INVALID_RANK, 17, "ONNXSHAPE_ERR_INVALID_RANK"},
      {ONNXSHAPE_ERR_BUFFER_TOO_SMALL, 18, "ONNXSHAPE_ERR_BUFFER_TOO_SMALL"},
      {ONNXSHAPE_ERR_DATA_SIZE, 19, "ONNXSHAPE_ERR_DATA_SIZE"},
      {ONNXSHAPE_ERR_MALFORMED, 20, "ONNXSHAPE_ERR_MALFORMED"},
      {ONNXSHAPE_ERR_INVALID_TENSOR, 21, "ONNXSHAPE_ERR_INVALID_TENSOR"},
      {ONNXSHAPE_ERR_INVALID_MODEL, 22, "ONNXSHAPE_ERR_INVALID_MODEL"},
      {ONNXSHAPE_ERR_IO, 23, "ONNXSHAPE_ERR_IO"},
      {ONNXSHAPE_ERR_OUT_OF_MEMORY, 24, "ONNXSHAPE_ERR_OUT_OF_MEMORY"},
      {ONNXSHAPE_ERR_NOT_FOUND, 25, "ONNXSHAPE_ERR_NOT_FOUND"},
  };
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    CHECK_I64(want[i].s, want[i].value);
    CHECK_STR(onnxshape_status_name(want[i].s), want[i].name);
    CHECK(strlen(onnxshape_status_text(want[i].s)) > 0);
  }
  CHECK_STR(onnxshape_status_name((onnxshape_status)26), "ONNXSHAPE_UNKNOWN_STATUS");
  CHECK_STR(onnxshape_status_name((onnxshape_status)-1), "ONNXSHAPE_UNKNOWN_STATUS");
  CHECK_STR(onnxshape_status_text((onnxshape_status)99), "unknown status");
  CHECK_STR(onnxshape_status_text(ONNXSHAPE_ERR_OVERFLOW),
            "a product of dimensions or a byte count overflows");
}

/* covers: TYPE-TABLE */
static void test_type_table(void) {
  static const struct { int32_t t; const char *name; uint32_t bits; } want[] = {
      {1, "float", 32},           {2, "uint8", 8},           {3, "int8", 8},
      {4, "uint16", 16},          {5, "int16", 16},          {6, "int32", 32},
      {7, "int64", 64},           {8, "string", 0},          {9, "bool", 8},
      {10, "float16", 16},        {11, "double", 64},        {12, "uint32", 32},
      {13, "uint64", 64},         {14, "complex64", 64},     {15, "complex128", 128},
      {16, "bfloat16", 16},       {17, "float8e4m3fn", 8},   {18, "float8e4m3fnuz", 8},
      {19, "float8e5m2", 8},      {20, "float8e5m2fnuz", 8}, {21, "uint4", 4},
      {22, "int4", 4},            {23, "float4e2m1", 4},     {24, "float8e8m0", 8},
      {25, "uint2", 2},           {26, "int2", 2},
  };
  CHECK_I64(sizeof want / sizeof want[0], 26);
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    const onnxshape_type_info *info = onnxshape_type_get(want[i].t);
    CHECK(info != NULL);
    if (info == NULL) continue;
    CHECK_I64(info->type, want[i].t);
    CHECK_STR(info->name, want[i].name);
    CHECK_I64(info->bits, want[i].bits);
    CHECK_STR(onnxshape_type_name(want[i].t), want[i].name);
  }
  CHECK(onnxshape_type_get(0) == NULL);
  CHECK(onnxshape_type_get(27) == NULL);
  CHECK(onnxshape_type_get(-1) == NULL);
  CHECK_STR(onnxshape_type_name(27), "unknown");
}

/* covers: STORAGE-BYTES STORAGE-PACKED STORAGE-STRINGS */
static void test_storage_bytes(void) {
  size_t b = 12345;
  static const struct { int32_t t; int64_t n; size_t bytes; } cases[] = {
      {ONNXSHAPE_TYPE_FLOAT, 0, 0},      {ONNXSHAPE_TYPE_FLOAT, 3, 12},
      {ONNXSHAPE_TYPE_BOOL, 5, 5},       {ONNXSHAPE_TYPE_COMPLEX128, 2, 32},
      {ONNXSHAPE_TYPE_INT4, 0, 0},       {ONNXSHAPE_TYPE_INT4, 1, 1},
      {ONNXSHAPE_TYPE_INT4, 2, 1},       {ONNXSHAPE_TYPE_UINT4, 3, 2},
      {ONNXSHAPE_TYPE_FLOAT4E2M1, 7, 4}, {ONNXSHAPE_TYPE_INT2, 1, 1},
      {ONNXSHAPE_TYPE_UINT2, 4, 1},      {ONNXSHAPE_TYPE_INT2, 5, 2},
      {ONNXSHAPE_TYPE_UINT2, 11, 3},     {ONNXSHAPE_TYPE_FLOAT8E8M0, 9, 9},
      {ONNXSHAPE_TYPE_STRING, 3, 3 * sizeof(onnxshape_string)},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    CHECK_STATUS(onnxshape_type_storage_bytes(cases[i].t, cases[i].n, &b), ONNXSHAPE_OK);
    CHECK_I64(b, cases[i].bytes);
  }
  /* Near the limit of size_t, whatever its width: the largest count that
   * fits and the next one. Sub-byte counts divide first, so they reach the
   * limit at 2 (4-bit) or 4 (2-bit) times the count of a byte type. */
  static const struct { int32_t t; uint64_t per_byte; unsigned bytes; } wide[] = {
      {ONNXSHAPE_TYPE_UINT8, 1, 1}, {ONNXSHAPE_TYPE_INT64, 1, 8},
      {ONNXSHAPE_TYPE_INT4, 2, 1},  {ONNXSHAPE_TYPE_INT2, 4, 1},
  };
  for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++) {
    /* The count whose storage is the largest multiple of the element size
     * <= SIZE_MAX, limited to INT64_MAX (the largest count there is). */
    uint64_t max_bytes = (uint64_t)SIZE_MAX / wide[i].bytes * wide[i].bytes;
    uint64_t elems = max_bytes / wide[i].bytes; /* whole slots */
    uint64_t n = elems > (uint64_t)INT64_MAX / wide[i].per_byte ? (uint64_t)INT64_MAX
                                                                : elems * wide[i].per_byte;
    uint64_t need = (n + wide[i].per_byte - 1) / wide[i].per_byte * wide[i].bytes;
    CHECK_STATUS(onnxshape_type_storage_bytes(wide[i].t, (int64_t)n, &b), ONNXSHAPE_OK);
    CHECK_I64(b, need);
    if (n < (uint64_t)INT64_MAX) {
      b = 555;
      CHECK_STATUS(onnxshape_type_storage_bytes(wide[i].t, (int64_t)(n + wide[i].per_byte), &b),
                   ONNXSHAPE_ERR_OVERFLOW);
      CHECK_I64(b, 555);
    }
  }
  b = 777;
  CHECK_STATUS(onnxshape_type_storage_bytes(ONNXSHAPE_TYPE_INT64, INT64_MAX / 2, &b),
               ONNXSHAPE_ERR_OVERFLOW);
  CHECK_STATUS(onnxshape_type_storage_bytes(ONNXSHAPE_TYPE_COMPLEX128, INT64_MAX / 4, &b),
               ONNXSHAPE_ERR_OVERFLOW);
  CHECK_STATUS(onnxshape_type_storage_bytes(ONNXSHAPE_TYPE_STRING, INT64_MAX, &b),
               ONNXSHAPE_ERR_OVERFLOW);
  CHECK_I64(b, 777); /* untouched on failure */
  CHECK_STATUS(onnxshape_type_storage_bytes(0, 1, &b), ONNXSHAPE_ERR_UNKNOWN_TYPE);
  CHECK_STATUS(onnxshape_type_storage_bytes(27, 1, &b), ONNXSHAPE_ERR_UNKNOWN_TYPE);
  CHECK_STATUS(onnxshape_type_storage_bytes(1, -1, &b), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(onnxshape_type_storage_bytes(1, 1, NULL), ONNXSHAPE_ERR_INVALID_ARGUMENT);
}

/* The rulebook's version lists, written out here independently of the table. */
static const int shape_vers[] = {1, 13, 15, 19, 21, 23, 24, 25};
static const int reshape_vers[] = {1, 5, 13, 14, 19, 21, 23, 24, 25};
static const int size_vers[] = {1, 13, 19, 21, 23, 24, 25};

static int newest_at_most(const int *vers, size_t n, int opset) {
  int best = -1;
  for (size_t i = 0; i < n; i++) {
    if (vers[i] <= opset) best = vers[i];
  }
  return best;
}

static void check_resolution(onnxshape_op op, const int *vers, size_t n) {
  size_t count = 0;
  const onnxshape_op_version *table = onnxshape_op_versions(op, &count);
  CHECK_I64(count, n);
  for (size_t i = 0; i < n && table != NULL && i < count; i++) {
    CHECK_I64(table[i].since_version, vers[i]);
    CHECK(onnxshape_op_version_get(op, vers[i]) == &table[i]);
  }
  for (int opset = 1; opset <= 28; opset++) {
    int v = -7;
    CHECK_STATUS(onnxshape_resolve_version(op, opset, &v, NULL), ONNXSHAPE_OK);
    CHECK_I64(v, newest_at_most(vers, n, opset));
  }
  int v = -7;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  CHECK_STATUS(onnxshape_resolve_version(op, 0, &v, &d), ONNXSHAPE_ERR_UNSUPPORTED_OPSET);
  CHECK_STATUS(onnxshape_resolve_version(op, 29, &v, &d), ONNXSHAPE_ERR_UNSUPPORTED_OPSET);
  CHECK_STATUS(onnxshape_resolve_version(op, INT64_MIN, &v, NULL),
               ONNXSHAPE_ERR_UNSUPPORTED_OPSET);
  CHECK_I64(v, -7);
  CHECK_STATUS(onnxshape_resolve_version(op, 13, NULL, NULL), ONNXSHAPE_ERR_INVALID_ARGUMENT);
}

/* covers: OPSET-VERSIONS OPSET-RESOLVE OPSET-RANGE */
static void test_version_resolution(void) {
  check_resolution(ONNXSHAPE_OP_SHAPE, shape_vers, sizeof shape_vers / sizeof(int));
  check_resolution(ONNXSHAPE_OP_RESHAPE, reshape_vers, sizeof reshape_vers / sizeof(int));
  check_resolution(ONNXSHAPE_OP_SIZE, size_vers, sizeof size_vers / sizeof(int));
  int v;
  CHECK_STATUS(onnxshape_resolve_version((onnxshape_op)9, 13, &v, NULL),
               ONNXSHAPE_ERR_UNKNOWN_OPERATOR);
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  CHECK_STATUS(onnxshape_resolve_version(ONNXSHAPE_OP_RESHAPE, 29, &v, &d),
               ONNXSHAPE_ERR_UNSUPPORTED_OPSET);
  CHECK_MESSAGE(d.message, "Reshape: opset 29 is not supported (this build knows opsets 1 to 28)");
  /* The direct lookup agrees with a search of the table everywhere,
   * including versions and operator numbers out of range. */
  for (int op = -1; op <= 5; op++) {
    size_t n = 0;
    const onnxshape_op_version *table = onnxshape_op_versions((onnxshape_op)op, &n);
    for (int ver = -3; ver <= 40; ver++) {
      const onnxshape_op_version *want = NULL;
      for (size_t i = 0; i < n; i++) {
        if (table[i].since_version == ver) want = &table[i];
      }
      CHECK(onnxshape_op_version_get((onnxshape_op)op, ver) == want);
    }
  }
  CHECK(onnxshape_op_version_get(ONNXSHAPE_OP_RESHAPE, INT32_MIN) == NULL);
  CHECK(onnxshape_op_version_get(ONNXSHAPE_OP_RESHAPE, INT32_MAX) == NULL);
  CHECK(onnxshape_op_version_get(ONNXSHAPE_OP_SHAPE, 14) == NULL);
  CHECK(onnxshape_op_version_get(ONNXSHAPE_OP_RESHAPE, 4) == NULL);
  CHECK(onnxshape_op_versions((onnxshape_op)0, NULL) == NULL);
}

/* covers: OPSET-VERSIONS */
static void test_op_names(void) {
  onnxshape_op op = (onnxshape_op)0;
  CHECK_STATUS(onnxshape_op_from_name("Reshape", &op), ONNXSHAPE_OK);
  CHECK_I64(op, ONNXSHAPE_OP_RESHAPE);
  CHECK_STATUS(onnxshape_op_from_name("Shape", &op), ONNXSHAPE_OK);
  CHECK_I64(op, ONNXSHAPE_OP_SHAPE);
  CHECK_STATUS(onnxshape_op_from_name("Size", &op), ONNXSHAPE_OK);
  CHECK_I64(op, ONNXSHAPE_OP_SIZE);
  CHECK_STATUS(onnxshape_op_from_name("reshape", &op), ONNXSHAPE_ERR_UNKNOWN_OPERATOR);
  CHECK_STATUS(onnxshape_op_from_name(NULL, &op), ONNXSHAPE_ERR_UNKNOWN_OPERATOR);
  CHECK_STR(onnxshape_op_name(ONNXSHAPE_OP_SHAPE), "Shape");
  CHECK_STR(onnxshape_op_name(ONNXSHAPE_OP_RESHAPE), "Reshape");
  CHECK_STR(onnxshape_op_name(ONNXSHAPE_OP_SIZE), "Size");
  CHECK_STR(onnxshape_op_name((onnxshape_op)42), "unknown");
  CHECK_STR(onnxshape_op_name((onnxshape_op)0), "unknown");
  /* The name and every version's op_name agree. */
  const onnxshape_op all[] = {ONNXSHAPE_OP_SHAPE, ONNXSHAPE_OP_RESHAPE, ONNXSHAPE_OP_SIZE};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
    size_t n = 0;
    const onnxshape_op_version *v = onnxshape_op_versions(all[i], &n);
    CHECK(n > 0u);
    for (size_t k = 0; k < n; k++) {
      CHECK_STR(v[k].op_name, onnxshape_op_name(all[i]));
    }
  }
}

/* Highest allowed type number per version: the rulebook's ranges. */
static int max_type(onnxshape_op op, int version) {
  switch (version) {
    case 1: return op == ONNXSHAPE_OP_RESHAPE ? -1 : 15;
    case 5: return 15;
    case 13: case 14: case 15: return 16;
    case 19: return 20;
    case 21: return 22;
    case 23: return 23;
    case 24: return 24;
    case 25: return 26;
  }
  return 0;
}

static void check_type_sets(onnxshape_op op, const int *vers, size_t n) {
  for (size_t i = 0; i < n; i++) {
    int top = max_type(op, vers[i]);
    for (int32_t t = 1; t <= 26; t++) {
      int allowed = top < 0 ? (t == 1 || t == 10 || t == 11) : t <= top;
      CHECK_STATUS(onnxshape_check_type(op, vers[i], t, NULL),
                   allowed ? ONNXSHAPE_OK : ONNXSHAPE_ERR_TYPE_NOT_ALLOWED);
    }
    CHECK_STATUS(onnxshape_check_type(op, vers[i], 0, NULL), ONNXSHAPE_ERR_UNKNOWN_TYPE);
    CHECK_STATUS(onnxshape_check_type(op, vers[i], 27, NULL), ONNXSHAPE_ERR_UNKNOWN_TYPE);
  }
}

/* covers: TYPE-SET TYPE-SET-RESHAPE1 */
static void test_type_sets_per_version(void) {
  check_type_sets(ONNXSHAPE_OP_SHAPE, shape_vers, sizeof shape_vers / sizeof(int));
  check_type_sets(ONNXSHAPE_OP_RESHAPE, reshape_vers, sizeof reshape_vers / sizeof(int));
  check_type_sets(ONNXSHAPE_OP_SIZE, size_vers, sizeof size_vers / sizeof(int));
  CHECK_STATUS(onnxshape_check_type(ONNXSHAPE_OP_SHAPE, 14, 1, NULL),
               ONNXSHAPE_ERR_UNKNOWN_VERSION);
  CHECK_STATUS(onnxshape_check_type((onnxshape_op)7, 14, 1, NULL),
               ONNXSHAPE_ERR_UNKNOWN_OPERATOR);
}

/* covers: TYPE-SET TYPE-SET-RESHAPE1 ERROR-MESSAGE */
/* Each newly added type: accepted at the version that adds it, rejected at
 * the version just before, for each operator. */
static void test_new_types_at_their_version(void) {
  static const struct { int32_t type; int added; } added[] = {
      {ONNXSHAPE_TYPE_BFLOAT16, 13},       {ONNXSHAPE_TYPE_FLOAT8E4M3FN, 19},
      {ONNXSHAPE_TYPE_FLOAT8E4M3FNUZ, 19}, {ONNXSHAPE_TYPE_FLOAT8E5M2, 19},
      {ONNXSHAPE_TYPE_FLOAT8E5M2FNUZ, 19}, {ONNXSHAPE_TYPE_UINT4, 21},
      {ONNXSHAPE_TYPE_INT4, 21},           {ONNXSHAPE_TYPE_FLOAT4E2M1, 23},
      {ONNXSHAPE_TYPE_FLOAT8E8M0, 24},     {ONNXSHAPE_TYPE_UINT2, 25},
      {ONNXSHAPE_TYPE_INT2, 25},
  };
  static const struct { onnxshape_op op; const int *vers; size_t n; } ops[] = {
      {ONNXSHAPE_OP_SHAPE, shape_vers, 8},
      {ONNXSHAPE_OP_RESHAPE, reshape_vers, 9},
      {ONNXSHAPE_OP_SIZE, size_vers, 7},
  };
  for (size_t o = 0; o < 3; o++) {
    for (size_t a = 0; a < sizeof added / sizeof added[0]; a++) {
      size_t at = 0;
      while (at < ops[o].n && ops[o].vers[at] != added[a].added) at++;
      CHECK(at > 0 && at < ops[o].n);
      if (at == 0 || at >= ops[o].n) continue;
      CHECK_STATUS(onnxshape_check_type(ops[o].op, ops[o].vers[at], added[a].type, NULL),
                   ONNXSHAPE_OK);
      CHECK_STATUS(onnxshape_check_type(ops[o].op, ops[o].vers[at - 1], added[a].type, NULL),
                   ONNXSHAPE_ERR_TYPE_NOT_ALLOWED);
    }
  }
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  CHECK_STATUS(onnxshape_check_type(ONNXSHAPE_OP_SIZE, 23, ONNXSHAPE_TYPE_UINT2, &d),
               ONNXSHAPE_ERR_TYPE_NOT_ALLOWED);
  CHECK_MESSAGE(d.message, "Size-23: input type uint2 is not allowed (allowed: float, uint8, int8, "
                           "uint16, int16, int32, int64, string, bool, float16, double, uint32, "
                           "uint64, complex64, complex128, bfloat16, float8e4m3fn, "
                           "float8e4m3fnuz, float8e5m2, float8e5m2fnuz, uint4, int4, float4e2m1)");
  CHECK_STATUS(onnxshape_check_type(ONNXSHAPE_OP_RESHAPE, 1, ONNXSHAPE_TYPE_INT32, &d),
               ONNXSHAPE_ERR_TYPE_NOT_ALLOWED);
  CHECK_MESSAGE(d.message, "Reshape-1: input type int32 is not allowed (allowed: float, float16, double)");
}

/* covers: SHAPE-ATTRS-VERSION SHAPE-DEFAULTS RESHAPE-ALLOWZERO-VERSION RESHAPE-V1-ATTRIBUTE */
static void test_attribute_specs(void) {
  const onnxshape_op_version *v = onnxshape_op_version_get(ONNXSHAPE_OP_SHAPE, 13);
  CHECK(v != NULL && v->num_attrs == 0 && v->num_inputs == 1);
  v = onnxshape_op_version_get(ONNXSHAPE_OP_SHAPE, 15);
  CHECK(v != NULL && v->num_attrs == 2);
  if (v != NULL && v->num_attrs == 2) {
    CHECK_STR(v->attrs[0].name, "start");
    CHECK(v->attrs[0].type == ONNXSHAPE_ATTR_INT && !v->attrs[0].required &&
          v->attrs[0].has_default && v->attrs[0].default_value == 0);
    CHECK_STR(v->attrs[1].name, "end");
    CHECK(v->attrs[1].type == ONNXSHAPE_ATTR_INT && !v->attrs[1].required &&
          !v->attrs[1].has_default);
  }
  v = onnxshape_op_version_get(ONNXSHAPE_OP_RESHAPE, 1);
  CHECK(v != NULL && v->num_inputs == 1 && v->num_attrs == 2);
  if (v != NULL && v->num_attrs == 2) {
    CHECK_STR(v->attrs[0].name, "consumed_inputs");
    CHECK(v->attrs[0].type == ONNXSHAPE_ATTR_INTS && !v->attrs[0].required);
    CHECK_STR(v->attrs[1].name, "shape");
    CHECK(v->attrs[1].type == ONNXSHAPE_ATTR_INTS && v->attrs[1].required);
  }
  for (int ver = 5; ver <= 25; ver++) {
    v = onnxshape_op_version_get(ONNXSHAPE_OP_RESHAPE, ver);
    if (v == NULL) continue;
    CHECK_I64(v->num_inputs, 2);
    CHECK_I64(v->num_attrs, ver >= 14 ? 1 : 0);
    if (ver >= 14 && v->num_attrs == 1) {
      CHECK_STR(v->attrs[0].name, "allowzero");
      CHECK(v->attrs[0].has_default && v->attrs[0].default_value == 0);
    }
  }
  size_t n;
  const onnxshape_op_version *sv = onnxshape_op_versions(ONNXSHAPE_OP_SIZE, &n);
  for (size_t i = 0; sv != NULL && i < n; i++) {
    CHECK_I64(sv[i].num_attrs, 0);
    CHECK_I64(sv[i].num_inputs, 1);
    CHECK_STR(sv[i].op_name, "Size");
  }
}

/* covers: DIMS-COUNT SIZE-ZERO-FIRST SIZE-OVERFLOW */
static void test_dims_count(void) {
  int64_t c = -5;
  CHECK_STATUS(onnxshape_dims_count(NULL, 0, &c), ONNXSHAPE_OK);
  CHECK_I64(c, 1);
  const int64_t d1[] = {2, 3, 4};
  CHECK_STATUS(onnxshape_dims_count(d1, 3, &c), ONNXSHAPE_OK);
  CHECK_I64(c, 24);
  const int64_t huge_zero[] = {INT64_C(1) << 32, INT64_C(1) << 32, 0};
  CHECK_STATUS(onnxshape_dims_count(huge_zero, 3, &c), ONNXSHAPE_OK);
  CHECK_I64(c, 0);
  const int64_t zero_first[] = {0, INT64_MAX, INT64_MAX};
  CHECK_STATUS(onnxshape_dims_count(zero_first, 3, &c), ONNXSHAPE_OK);
  CHECK_I64(c, 0);
  const int64_t max1[] = {INT64_MAX, 1};
  CHECK_STATUS(onnxshape_dims_count(max1, 2, &c), ONNXSHAPE_OK);
  CHECK_I64(c, INT64_MAX);
  c = 99;
  const int64_t over[] = {INT64_C(1) << 32, INT64_C(1) << 31};
  CHECK_STATUS(onnxshape_dims_count(over, 2, &c), ONNXSHAPE_ERR_OVERFLOW);
  const int64_t wraps[] = {INT64_C(2305843009213693955), 8};
  CHECK_STATUS(onnxshape_dims_count(wraps, 2, &c), ONNXSHAPE_ERR_OVERFLOW);
  const int64_t neg[] = {2, -1, 0};
  CHECK_STATUS(onnxshape_dims_count(neg, 3, &c), ONNXSHAPE_ERR_NEGATIVE_DIM);
  CHECK_I64(c, 99);
  CHECK_STATUS(onnxshape_dims_count(NULL, 1, &c), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(onnxshape_dims_count(d1, 3, NULL), ONNXSHAPE_ERR_INVALID_ARGUMENT);
}

static uint64_t next_random(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

static void check_arith(uint64_t a, uint64_t b) {
  if (b != 0u) {
    uint64_t rem = 12345u;
    uint64_t q = onnxshape__udiv64_soft(a, b, &rem);
    if (q != a / b || rem != a % b) {
      printf("  udiv64_soft(%llu, %llu) = %llu rem %llu\n", (unsigned long long)a,
             (unsigned long long)b, (unsigned long long)q, (unsigned long long)rem);
    }
    CHECK(q == a / b && rem == a % b);
  }
  if (a <= (uint64_t)INT64_MAX && b <= (uint64_t)INT64_MAX) {
    int64_t x = (int64_t)a, y = (int64_t)b, r = -7;
    int fits = x == 0 || y <= INT64_MAX / x;
    CHECK_I64(onnxshape__mul_nonneg(x, y, &r), fits);
    CHECK_I64(r, fits ? x * y : -7);
  }
}

/* covers: DIMS-COUNT RESHAPE-INFER-DIVISIBLE
 * The 64-bit arithmetic without a divide instruction (internal.h): the long
 * division of builds optimized for size, and the division-free overflow
 * check of products, against C's operators on edge values (every pair) and
 * on random values of every bit length. */
static void test_wide_arithmetic(void) {
  static const uint64_t edge[] = {0u, 1u, 2u, 3u, 7u, 10u, 0x7fffffffu, 0x80000000u,
                                  0xffffffffu, UINT64_C(0x100000000), UINT64_C(0x100000001),
                                  UINT64_C(0x17fffffff), UINT64_C(3037000499),
                                  UINT64_C(3037000500), UINT64_C(1) << 62,
                                  (UINT64_C(1) << 62) + 1u, UINT64_C(0x7fffffffffffffff),
                                  UINT64_C(0x8000000000000000), UINT64_C(0xfffffffffffffffe),
                                  UINT64_C(0xffffffffffffffff)};
  size_t n = sizeof edge / sizeof edge[0];
  for (size_t i = 0; i < n; i++) {
    for (size_t j = 0; j < n; j++) {
      check_arith(edge[i], edge[j]);
    }
  }
  uint64_t x = UINT64_C(0x9e3779b97f4a7c15);
  for (int k = 0; k < 200000; k++) {
    uint64_t a = next_random(&x) >> (next_random(&x) % 64u);
    uint64_t b = next_random(&x) >> (next_random(&x) % 64u);
    check_arith(a, b);
  }
}

/* covers: RESHAPE-ALLOWZERO-VALUES
 * Static inference's check of a Reshape whose data type is not known
 * (type 0): the allowzero attribute is still checked. */
static void test_check_known_allowzero(void) {
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  const int64_t shape[] = {2, -1};
  const onnxshape_reshape_attrs bad = {1, 2}, early = {1, 1}, good = {1, 1};
  CHECK_STATUS(onnxshape__reshape_check_known(14, 0, shape, 2, SIZE_MAX, &bad, &d),
               ONNXSHAPE_ERR_INVALID_ATTRIBUTE);
  CHECK_MESSAGE(d.message, "Reshape-14: allowzero = 2; it must be 0 or 1");
  CHECK_STATUS(onnxshape__reshape_check_known(13, 0, shape, 2, SIZE_MAX, &early, &d),
               ONNXSHAPE_ERR_INVALID_ATTRIBUTE);
  CHECK_MESSAGE(d.message, "Reshape-13: attribute 'allowzero' is not defined before Reshape-14");
  CHECK_STATUS(onnxshape__reshape_check_known(14, 0, shape, 2, SIZE_MAX, &good, &d), ONNXSHAPE_OK);
}

/* covers: DIAG-STATE DIAG-PINNED
 * onnxshape__reshape_check_known after a failure, with the same diag: a
 * success leaves it empty (reshape_rules.h), with the type known or not
 * (type 0 has no entry check, which would clear it), and a later failure
 * words its own rule, not the earlier one. */
static void test_check_known_leaves_no_stale_message(void) {
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  d.node = "r";
  const int64_t two_inferred[] = {-1, -1}, fine[] = {2, -1}, below[] = {3, -4};
  const int32_t types[] = {0, ONNXSHAPE_TYPE_FLOAT};
  for (size_t i = 0; i < 2; i++) {
    CHECK_STATUS(onnxshape__reshape_check_known(14, types[i], two_inferred, 2, 3, NULL, &d),
                 ONNXSHAPE_ERR_MULTIPLE_INFERRED);
    CHECK_MESSAGE(d.message, "Reshape-14 (node 'r'): shape[0] and shape[1] are both -1; at most "
                             "one dimension can be inferred");
    CHECK_STATUS(onnxshape__reshape_check_known(14, types[i], fine, 2, 3, NULL, &d), ONNXSHAPE_OK);
    CHECK_STR(d.message, "");
    CHECK_STATUS(onnxshape__reshape_check_known(21, types[i], below, 2, SIZE_MAX, NULL, &d),
                 ONNXSHAPE_ERR_DIM_BELOW_MINUS_ONE);
    CHECK_MESSAGE(d.message,
                  "Reshape-21 (node 'r'): shape[1] = -4; a dimension cannot be below -1");
    CHECK_STATUS(onnxshape__reshape_check_known(21, types[i], fine, 2, SIZE_MAX, NULL, &d),
                 ONNXSHAPE_OK);
    CHECK_STR(d.message, "");
  }
  /* A diag that is NULL is allowed, failing or not. */
  CHECK_STATUS(onnxshape__reshape_check_known(14, 0, two_inferred, 2, 3, NULL, NULL),
               ONNXSHAPE_ERR_MULTIPLE_INFERRED);
  CHECK_STATUS(onnxshape__reshape_check_known(14, 0, fine, 2, 3, NULL, NULL), ONNXSHAPE_OK);
}

/* covers: ERROR-MESSAGE */
static void test_diag_format(void) {
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  CHECK(d.node == NULL && d.message[0] == '\0');
  d.node = "n0";
  const int64_t dims[] = {2, 3};
  const int64_t shape[] = {2, -2};
  int64_t out[2];
  CHECK_STATUS(onnxshape_reshape_infer(14, 1, dims, 2, shape, 2, NULL, out, 2, &d),
               ONNXSHAPE_ERR_DIM_BELOW_MINUS_ONE);
  CHECK_MESSAGE(d.message, "Reshape-14 (node 'n0'): shape[1] = -2; a dimension cannot be below -1");
  /* A long node name is shortened in the middle: the rule stays whole. */
  char longname[1000];
  memset(longname, 'x', sizeof longname - 1);
  memcpy(longname, "head", 4);
  memcpy(longname + sizeof longname - 5, "tail", 4);
  longname[sizeof longname - 1] = '\0';
  d.node = longname;
  CHECK_STATUS(onnxshape_reshape_infer(14, 1, dims, 2, shape, 2, NULL, out, 2, &d),
               ONNXSHAPE_ERR_DIM_BELOW_MINUS_ONE);
  CHECK_MESSAGE(d.message, "Reshape-14 (node 'headxxxxxxxxxxxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxxxxxxxxxxtail'): "
                       "shape[1] = -2; a dimension cannot be below -1");
  /* Control characters and bytes that are not UTF-8 in a name are escaped,
   * so a name cannot start a new line of output. */
  d.node = "n\nonnxshape: error: forged\xff";
  CHECK_STATUS(onnxshape_reshape_infer(14, 1, dims, 2, shape, 2, NULL, out, 2, &d),
               ONNXSHAPE_ERR_DIM_BELOW_MINUS_ONE);
  CHECK_MESSAGE(d.message, "Reshape-14 (node 'n\\nonnxshape: error: forged\\xff'): shape[1] = -2; a "
                       "dimension cannot be below -1");
  /* An empty node name names no node. */
  d.node = "";
  CHECK_STATUS(onnxshape_reshape_infer(14, 1, dims, 2, shape, 2, NULL, out, 2, &d),
               ONNXSHAPE_ERR_DIM_BELOW_MINUS_ONE);
  CHECK_MESSAGE(d.message, "Reshape-14: shape[1] = -2; a dimension cannot be below -1");
  /* A failure always has a message: an empty format with no operator and
   * no node gives "error <status number>", as a build without messages
   * does. */
  d.node = NULL;
  CHECK_STATUS(onnxshape__fail(&d, ONNXSHAPE_ERR_IO, NULL, 0, "", ONNXSHAPE__NO_ARGS),
               ONNXSHAPE_ERR_IO);
  char io_number[32];
  snprintf(io_number, sizeof io_number, "error %d", (int)ONNXSHAPE_ERR_IO);
  CHECK_STR(d.message, io_number);
  /* Success clears a previous message. */
  d.node = NULL;
  const int64_t ok_shape[] = {3, 2};
  CHECK_STATUS(onnxshape_reshape_infer(14, 1, dims, 2, ok_shape, 2, NULL, out, 2, &d),
               ONNXSHAPE_OK);
  CHECK_MESSAGE(d.message, "");
  onnxshape_diag_init(NULL);
}

/* covers: TEXT-ESCAPE */
/* onnxshape_escape: what is kept, what becomes an escape, and a buffer that
 * is too small (escapes are never cut). */
static void test_escape(void) {
  char buf[64];
  static const struct {
    const char *in;
    size_t len;
    const char *out;
  } cases[] = {
      {"plain name", 10, "plain name"},
      {"a\\b", 3, "a\\\\b"},
      {"\n\t\r\x01\x1f\x7f", 6, "\\n\\t\\r\\x01\\x1f\\x7f"},
      {"caf\xc3\xa9 \xe8\xbc\xb8 \xf0\x9f\x98\x80", 14, "caf\xc3\xa9 \xe8\xbc\xb8 \xf0\x9f\x98\x80"},
      {"\xff", 1, "\\xff"},
      {"a\xc3", 2, "a\\xc3"},                            /* cut sequence */
      {"\xc0\xaf", 2, "\\xc0\\xaf"},                      /* overlong '/' */
      {"\xed\xa0\x80", 3, "\\xed\\xa0\\x80"},             /* a surrogate */
      {"\xf4\x90\x80\x80", 4, "\\xf4\\x90\\x80\\x80"},    /* past U+10FFFF */
      {"\xc2\x85", 2, "\\xc2\\x85"},                      /* C1 next line */
      {"\xe2\x80\xa8", 3, "\\xe2\\x80\\xa8"},             /* line separator */
      {"ab\xe2\x80\xae" "cd", 7, "ab\\xe2\\x80\\xaecd"},  /* right-to-left override */
      {"a\0b", 3, "a\\x00b"},
  };
  /* The decoder refuses no text, no bytes and no place for the result. */
  uint32_t cp = 7;
  CHECK_I64(onnxshape_utf8_decode(NULL, 1, &cp), 0);
  CHECK_I64(onnxshape_utf8_decode("a", 0, &cp), 0);
  CHECK_I64(onnxshape_utf8_decode("a", 1, NULL), 0);
  CHECK_I64(cp, 7);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    size_t n = onnxshape_escape(buf, sizeof buf, cases[i].in, cases[i].len);
    CHECK_STR(buf, cases[i].out);
    CHECK_I64(n, strlen(cases[i].out));
  }
  /* Too small: "ab\n" needs 4 bytes and a NUL; with 4 only "ab" fits. */
  CHECK_I64(onnxshape_escape(buf, 4, "ab\n", 3), 4);
  CHECK_STR(buf, "ab");
  CHECK_I64(onnxshape_escape(buf, 5, "ab\n", 3), 4);
  CHECK_STR(buf, "ab\\n");
  CHECK_I64(onnxshape_escape(NULL, 0, "\xff\xff", 2), 8);
  CHECK_I64(onnxshape_escape(buf, sizeof buf, NULL, 5), 0);
  CHECK_STR(buf, "");
}

/* covers: ERROR-MESSAGE TEXT-ESCAPE */
/* The library's formatter: every argument kind, the extremes of 64-bit
 * integers, a format with more `{}` than arguments, and truncation. */
static void test_formatter(void) {
  char buf[128];
  size_t n = onnxshape__format(buf, sizeof buf, "{} {} {} {} '{}' [{}] {}",
                               ONNXSHAPE__ARGS(ARG_INT(INT64_MIN), ARG_INT(-1), ARG_UINT(UINT64_MAX),
                                               ARG_UINT(0), ARG_STR("a\nb"), ARG_TEXT("x\\ny"),
                                               ARG_STR(NULL)));
  CHECK_STR(buf, "-9223372036854775808 -1 18446744073709551615 0 'a\\nb' [x\\ny] (null)");
  CHECK_I64(n, strlen(buf));
  onnxshape__format(buf, sizeof buf, "{}{}", ONNXSHAPE__ARGS(ARG_INT(7)));
  CHECK_STR(buf, "7{?}");
  onnxshape__format(buf, sizeof buf, "no {arguments} {", ONNXSHAPE__NO_ARGS);
  CHECK_STR(buf, "no {arguments} {");
  /* Truncated at the end of the buffer, never past it. */
  CHECK_I64(onnxshape__format(buf, 6, "{}", ONNXSHAPE__ARGS(ARG_INT(1234567))), 0);
  CHECK_STR(buf, "");
  /* A string is cut between characters, a number or an escape never. */
  CHECK_I64(onnxshape__format(buf, 6, "ab {}", ONNXSHAPE__ARGS(ARG_STR("cdefgh"))), 5);
  CHECK_STR(buf, "ab cd");
  CHECK_I64(onnxshape__format(buf, 6, "abc {}", ONNXSHAPE__ARGS(ARG_STR("\n"))), 4);
  CHECK_STR(buf, "abc ");
  CHECK_I64(onnxshape__format(buf, 0, "x", ONNXSHAPE__NO_ARGS), 0);
}

/* covers: ERROR-MESSAGE */
/* The kernels' failures: onnxshape__defer records one in diag and
 * onnxshape__finish words it as onnxshape__fail would have (with the node
 * named at the time it is worded); finishing a success, a worded message or
 * twice changes nothing, and a failure with no message gets "error N". */
static void test_deferred_failure(void) {
  onnxshape_diag d, now;
  onnxshape_diag_init(&d);
  onnxshape_diag_init(&now);
  d.node = now.node = "n\t1";
  CHECK_STATUS(onnxshape__defer(&d, ONNXSHAPE_ERR_OVERFLOW, "Size", 13,
                                "{} dims[{}] = {}; {} {}", VAL_STR("data"), VAL_UINT(UINT64_MAX),
                                VAL_INT(INT64_MIN)),
               ONNXSHAPE_ERR_OVERFLOW);
  CHECK(d.message[0] != '\0'); /* not worded yet, but never empty (diag_failed) */
  CHECK_STATUS(onnxshape__finish(&d, ONNXSHAPE_ERR_OVERFLOW), ONNXSHAPE_ERR_OVERFLOW);
  (void)onnxshape__fail(&now, ONNXSHAPE_ERR_OVERFLOW, "Size", 13, "{} dims[{}] = {}; {} {}",
                        ONNXSHAPE__ARGS(ARG_STR("data"), ARG_UINT(UINT64_MAX), ARG_INT(INT64_MIN)));
  CHECK_MESSAGE(d.message, "Size-13 (node 'n\\t1'): data dims[18446744073709551615] = "
                           "-9223372036854775808; {?} {?}");
  CHECK_STR(d.message, now.message);
  /* Worded already: a second finish, or a success, leaves it. */
  CHECK_STATUS(onnxshape__finish(&d, ONNXSHAPE_ERR_OVERFLOW), ONNXSHAPE_ERR_OVERFLOW);
  CHECK_STR(d.message, now.message);
  CHECK_STATUS(onnxshape__finish(&d, ONNXSHAPE_OK), ONNXSHAPE_OK);
  CHECK_STR(d.message, now.message);
  /* No operator, no values, and each kind the kernels record. */
  d.node = NULL;
  CHECK_STATUS(onnxshape__finish(&d, onnxshape__defer(&d, ONNXSHAPE_ERR_UNKNOWN_OPERATOR, NULL, 0,
                                                      "no values")),
               ONNXSHAPE_ERR_UNKNOWN_OPERATOR);
  CHECK_MESSAGE(d.message, "no values");
  CHECK_STATUS(onnxshape__finish(&d, onnxshape__defer(&d, ONNXSHAPE_ERR_TYPE_NOT_ALLOWED, "Shape", 1,
                                                      "'{}' [{}]", VAL_NAME("a\nb"),
                                                      VAL_TYPES((1u << 1) | (1u << 7)))),
               ONNXSHAPE_ERR_TYPE_NOT_ALLOWED);
  CHECK_MESSAGE(d.message, "Shape-1: 'a\\nb' [float, int64]");
#if !defined(ONNXSHAPE_NO_MESSAGES) /* there, every failure is worded where it happens */
  /* A failure whose message is empty gets the status's number. */
  d.message[0] = '\0';
  CHECK_STATUS(onnxshape__finish(&d, ONNXSHAPE_ERR_IO), ONNXSHAPE_ERR_IO);
  char io_number[32];
  snprintf(io_number, sizeof io_number, "error %d", (int)ONNXSHAPE_ERR_IO);
  CHECK_STR(d.message, io_number);
#endif
  /* No diag: the status alone. */
  CHECK_STATUS(onnxshape__finish(NULL, onnxshape__defer(NULL, ONNXSHAPE_ERR_IO, "Size", 1, "x")),
               ONNXSHAPE_ERR_IO);
}

/* The ACSL contracts of onnxshape_check_type() and onnxshape_op_version_get()
 * (include/onnxshape.h; onnxshape__enter in src/core/internal.h) are not
 * proved by WP: the version table is a finite function, so this test checks
 * them on every input that matters, with the contract's own definitions
 * (is_version, last_type, type_allowed) written again in C. docs/proofs.md
 * cites it. Requirements: OPSET-VERSIONS, TYPE-SET, TYPE-SET-RESHAPE1. */
static int spec_is_version(int op, int v) {
  switch (op) {
    case ONNXSHAPE_OP_SHAPE:
      return v == 1 || v == 13 || v == 15 || v == 19 || v == 21 || v == 23 || v == 24 || v == 25;
    case ONNXSHAPE_OP_RESHAPE:
      return v == 1 || v == 5 || v == 13 || v == 14 || v == 19 || v == 21 || v == 23 ||
             v == 24 || v == 25;
    case ONNXSHAPE_OP_SIZE:
      return v == 1 || v == 13 || v == 19 || v == 21 || v == 23 || v == 24 || v == 25;
  }
  return 0;
}

static int spec_last_type(int v) {
  return v >= 25 ? 26 : v >= 24 ? 24 : v >= 23 ? 23 : v >= 21 ? 22 : v >= 19 ? 20 : v >= 13 ? 16 : 15;
}

static int spec_type_allowed(int op, int v, int t) {
  if (op == ONNXSHAPE_OP_RESHAPE && v == 1) return t == 1 || t == 10 || t == 11;
  return 1 <= t && t <= spec_last_type(v);
}

/* covers: OPSET-VERSIONS TYPE-SET TYPE-SET-RESHAPE1 */
static void test_version_contracts_exhaustive(void) {
  long checked = 0;
  for (int op = -1; op <= 5; op++) {
    for (int v = -2; v <= 40; v++) {
      const onnxshape_op_version *e = onnxshape_op_version_get((onnxshape_op)op, v);
      CHECK((e != NULL) == spec_is_version(op, v));
      if (e != NULL) {
        CHECK_I64(e->op, op);
        CHECK_I64(e->since_version, v);
      }
      for (int32_t t = -3; t <= 30; t++) {
        onnxshape_status st = onnxshape_check_type((onnxshape_op)op, v, t, NULL);
        int ok = spec_is_version(op, v) && spec_type_allowed(op, v, t);
        CHECK((st == ONNXSHAPE_OK) == ok);
        if (st == ONNXSHAPE_ERR_UNKNOWN_VERSION) CHECK(!spec_is_version(op, v));
        if (st == ONNXSHAPE_ERR_UNKNOWN_TYPE) CHECK(t < 1 || t > ONNXSHAPE_TYPE_LAST);
        if (st == ONNXSHAPE_ERR_TYPE_NOT_ALLOWED) CHECK(!spec_type_allowed(op, v, t));
        CHECK(st == ONNXSHAPE_OK || st == ONNXSHAPE_ERR_UNKNOWN_OPERATOR ||
              st == ONNXSHAPE_ERR_UNKNOWN_VERSION || st == ONNXSHAPE_ERR_UNKNOWN_TYPE ||
              st == ONNXSHAPE_ERR_TYPE_NOT_ALLOWED);
        checked++;
      }
    }
  }
  CHECK_I64(checked, 7L * 43 * 34);
}

/* covers: TYPE-TABLE OPSET-VERSIONS TYPE-SET */
/* The accessors the fast path inlines (catalog_fns.h) against the public
 * tables, on every number around the tables' ranges: bytes per element is
 * bits / 8 for whole-byte types and 0 otherwise (strings, sub-byte types, no
 * type); the last type of a version is its type set's upper end, 0 for no
 * version and for Reshape-1 (whose set is not a range). */
static void test_inlined_catalog_exhaustive(void) {
  long checked = 0;
  for (int32_t t = -3; t <= 40; t++) {
    const onnxshape_type_info *info = onnxshape_type_get(t);
    size_t want = info != NULL && info->bits >= 8 ? (size_t)info->bits / 8u : 0u;
    CHECK_I64((int64_t)onnxshape__elem_bytes(t), (int64_t)want);
    checked++;
  }
  for (int op = 0; op < 5; op++) {
    for (int v = -2; v <= 40; v++) {
      int32_t last = onnxshape__last_type((onnxshape_op)op, v);
      int32_t want = 0;
      if (onnxshape_op_version_get((onnxshape_op)op, v) != NULL &&
          !(op == ONNXSHAPE_OP_RESHAPE && v == 1)) {
        /* the largest type the version accepts, by the public check */
        for (int32_t t = 1; t <= ONNXSHAPE_TYPE_LAST; t++) {
          if (onnxshape_check_type((onnxshape_op)op, v, t, NULL) == ONNXSHAPE_OK) want = t;
        }
      }
      CHECK_I64(last, want);
      checked++;
    }
  }
  CHECK_I64(checked, 44L + 5L * 43);
}

/* A diagnostic holding a message from an earlier call. */
static void stale(onnxshape_diag *d) {
  onnxshape_diag_init(d);
  snprintf(d->message, sizeof d->message, "stale message from an earlier call");
}

/* covers: DIAG-STATE ERROR-MESSAGE */
/* Every kernel, given a diagnostic that still holds an earlier message:
 * a successful call leaves it empty, a failed one replaces it by its own
 * reason. */
static void test_diag_state_every_kernel(void) {
  const int64_t dims[2] = {2, 3};
  const int64_t bad_dims[2] = {2, -3};
  const float values[6] = {0};
  onnxshape_tensor t = {ONNXSHAPE_TYPE_FLOAT, 2, dims, values, sizeof values};
  onnxshape_tensor bad = {ONNXSHAPE_TYPE_FLOAT, 2, bad_dims, values, sizeof values};
  const int64_t target[1] = {-1};
  int64_t out[4];
  size_t len;
  int64_t count;
  onnxshape_tensor view;
  float dst[6];
  onnxshape_diag d;
  int calls = 0;
#define OK_THEN_EMPTY(expr)            \
  do {                                 \
    stale(&d);                         \
    CHECK_STATUS(expr, ONNXSHAPE_OK);  \
    CHECK_MESSAGE(d.message, "");          \
    calls++;                           \
  } while (0)
#define FAIL_THEN_REASON(expr, st, text)                 \
  do {                                                  \
    stale(&d);                                          \
    CHECK_STATUS(expr, st);                             \
    CHECK_MESSAGE(d.message, text);                         \
    calls++;                                            \
  } while (0)
  OK_THEN_EMPTY(onnxshape_check_type(ONNXSHAPE_OP_SIZE, 13, ONNXSHAPE_TYPE_FLOAT, &d));
  FAIL_THEN_REASON(onnxshape_check_type(ONNXSHAPE_OP_SIZE, 2, ONNXSHAPE_TYPE_FLOAT, &d),
                   ONNXSHAPE_ERR_UNKNOWN_VERSION, "Size has no version 2 (use onnxshape_resolve_version for an opset)");
  OK_THEN_EMPTY(onnxshape_shape_infer(15, ONNXSHAPE_TYPE_FLOAT, 2, NULL, &len, &d));
  FAIL_THEN_REASON(onnxshape_shape_infer(15, 0, 2, NULL, &len, &d), ONNXSHAPE_ERR_UNKNOWN_TYPE,
                   "Shape-15: element type 0 is not a known TensorProto data type (1 to 26)");
  OK_THEN_EMPTY(onnxshape_shape_run(15, &t, NULL, out, 4, &len, &d));
  FAIL_THEN_REASON(onnxshape_shape_run(15, &bad, NULL, out, 4, &len, &d), ONNXSHAPE_ERR_NEGATIVE_DIM,
                   "Shape-15: data dims[1] = -3; a dimension cannot be negative");
  OK_THEN_EMPTY(onnxshape_size_infer(13, ONNXSHAPE_TYPE_FLOAT, &d));
  FAIL_THEN_REASON(onnxshape_size_infer(13, 27, &d), ONNXSHAPE_ERR_UNKNOWN_TYPE,
                   "Size-13: element type 27 is not a known TensorProto data type (1 to 26)");
  OK_THEN_EMPTY(onnxshape_size_run(13, &t, &count, &d));
  FAIL_THEN_REASON(onnxshape_size_run(13, &bad, &count, &d), ONNXSHAPE_ERR_NEGATIVE_DIM,
                   "Size-13: data dims[1] = -3; a dimension cannot be negative");
  OK_THEN_EMPTY(onnxshape_reshape_infer(14, ONNXSHAPE_TYPE_FLOAT, dims, 2, target, 1, NULL, out, 4, &d));
  FAIL_THEN_REASON(onnxshape_reshape_infer(14, ONNXSHAPE_TYPE_FLOAT, dims, 2, target, 1, NULL, out, 0, &d),
                   ONNXSHAPE_ERR_BUFFER_TOO_SMALL, "Reshape-14: the output has 1 dims; out_dims holds 0");
  OK_THEN_EMPTY(onnxshape_reshape_check_shape_input(14, ONNXSHAPE_TYPE_INT64, 1, &d));
  FAIL_THEN_REASON(onnxshape_reshape_check_shape_input(14, ONNXSHAPE_TYPE_INT64, 2, &d),
                   ONNXSHAPE_ERR_INVALID_RANK, "Reshape-14: the 'shape' input has rank 2; it must be 1-D");
  OK_THEN_EMPTY(onnxshape_reshape_run_view(14, &t, target, 1, NULL, out, 4, &view, &d));
  FAIL_THEN_REASON(onnxshape_reshape_run_view(14, &bad, target, 1, NULL, out, 4, &view, &d),
                   ONNXSHAPE_ERR_NEGATIVE_DIM, "Reshape-14: data dims[1] = -3; a dimension cannot be negative");
  OK_THEN_EMPTY(onnxshape_reshape_run_copy(14, &t, target, 1, NULL, out, 4, dst, sizeof dst, &view, &d));
  FAIL_THEN_REASON(onnxshape_reshape_run_copy(14, &t, target, 1, NULL, out, 4, dst, 4, &view, &d),
                   ONNXSHAPE_ERR_BUFFER_TOO_SMALL, "Reshape-14: the output needs 24 bytes; the destination holds 4");
#undef OK_THEN_EMPTY
#undef FAIL_THEN_REASON
  CHECK_I64(calls, 18);
}

/* The status semantics.md's order of checks gives Reshape-14 on float data
 * with dims d[0 .. r-1], target s[0 .. n-1], allowzero az (-1: not set) and
 * room for cap dims, written again here from the rulebook, with the output
 * dims in o on success. */
static onnxshape_status reshape_reference(const int64_t *d, size_t r, const int64_t *s, size_t n,
                                          int az_attr, size_t cap, int64_t *o) {
  int az = az_attr == 1;
  if (az_attr > 1) return ONNXSHAPE_ERR_INVALID_ATTRIBUTE;
  int64_t c = 1;
  for (size_t i = 0; i < r; i++) {
    if (d[i] < 0) return ONNXSHAPE_ERR_NEGATIVE_DIM;
  }
  for (size_t i = 0; i < r; i++) c *= d[i]; /* small dims: no overflow */
  size_t minus = SIZE_MAX;
  int zero = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] < -1) return ONNXSHAPE_ERR_DIM_BELOW_MINUS_ONE;
    if (s[i] == -1) {
      if (minus != SIZE_MAX) return ONNXSHAPE_ERR_MULTIPLE_INFERRED;
      minus = i;
    }
    if (s[i] == 0) {
      if (!az && i >= r) return ONNXSHAPE_ERR_ZERO_OUT_OF_RANGE;
      zero = 1;
    }
  }
  if (az && zero && minus != SIZE_MAX) return ONNXSHAPE_ERR_ZERO_WITH_INFERRED;
  int64_t p = 1;
  for (size_t i = 0; i < n; i++) {
    o[i] = s[i] == 0 && !az ? d[i] : s[i];
    if (i != minus) p *= o[i];
  }
  if (minus != SIZE_MAX) {
    if (p == 0) return ONNXSHAPE_ERR_INFERRED_FROM_ZERO;
    if (c % p != 0) return ONNXSHAPE_ERR_NOT_DIVISIBLE;
    o[minus] = c / p;
  } else if (p != c) {
    return ONNXSHAPE_ERR_COUNT_MISMATCH;
  }
  return cap < n ? ONNXSHAPE_ERR_BUFFER_TOO_SMALL : ONNXSHAPE_OK;
}

/* covers: ERROR-ORDER ERROR-MESSAGE DIAG-STATE KERNEL-RESULT-ONLY KERNEL-UNTOUCHED-ON-ERROR */
/* Every Reshape-14 call on data of rank 0 to 2 (dims from {0, 2, 3, -1})
 * and targets of length 0 to 3 (values from {-2, -1, 0, 1, 2, 3}), with
 * allowzero unset, 0, 1 or 2, and out_dims room for the target or one dim
 * less: the exact status of the reference above, a non-empty message on
 * failure and an empty one on success, the reference's output dims, and the
 * entries of out_dims past the output (or all of them, on failure) left as
 * they were. */
static void test_reshape_status_exhaustive(void) {
  static const int64_t dim_values[4] = {0, 2, 3, -1};
  static const int64_t target_values[6] = {-2, -1, 0, 1, 2, 3};
  const int64_t sentinel = 0x5a5a5a5a5a5a5a5aLL;
  long checked = 0, failures = 0;
  for (size_t r = 0; r <= 2; r++) {
    size_t dim_cases = r == 0 ? 1 : r == 1 ? 4 : 16;
    for (size_t dc = 0; dc < dim_cases; dc++) {
      int64_t d[2] = {dim_values[dc % 4], dim_values[dc / 4]};
      for (size_t n = 0; n <= 3; n++) {
        size_t target_cases = n == 0 ? 1 : n == 1 ? 6 : n == 2 ? 36 : 216;
        for (size_t tc = 0; tc < target_cases; tc++) {
          int64_t s[3] = {target_values[tc % 6], target_values[tc / 6 % 6], target_values[tc / 36]};
          for (int az = -1; az <= 2; az++) {
            for (size_t less = 0; less <= (n > 0 ? 1u : 0u); less++) {
              onnxshape_reshape_attrs attrs = {az >= 0, az};
              int64_t want_dims[3];
              onnxshape_status want = reshape_reference(d, r, s, n, az, n - less, want_dims);
              int64_t out[5];
              for (size_t k = 0; k < 5; k++) out[k] = sentinel;
              onnxshape_diag diag;
              stale(&diag);
              onnxshape_status got = onnxshape_reshape_infer(14, ONNXSHAPE_TYPE_FLOAT, d, r, s, n,
                                                             az >= 0 ? &attrs : NULL, out,
                                                             n - less, &diag);
              CHECK_STATUS(got, want);
              if (want == ONNXSHAPE_OK) {
                CHECK_MESSAGE(diag.message, "");
                for (size_t k = 0; k < n; k++) CHECK_I64(out[k], want_dims[k]);
                for (size_t k = n; k < 5; k++) CHECK_I64(out[k], sentinel);
              } else {
                CHECK_MESSAGE_PREFIX(diag.message, "Reshape-14: ");
                for (size_t k = 0; k < 5; k++) CHECK_I64(out[k], sentinel);
                failures++;
              }
              checked++;
            }
          }
        }
      }
    }
  }
  /* 21 data cases x 259 targets x 4 allowzero, and the short out_dims for
   * the 258 non-empty targets. */
  CHECK_I64(checked, 21L * 4 * (259 + 258));
  CHECK(failures > 0 && failures < checked);
}

/* covers: OPSET-RESOLVE OPSET-VERSIONS DIAG-PINNED
 * The messages of an operator number that is none of Shape, Reshape and
 * Size, and of version resolution without a place for its result. */
static void test_operator_number_messages(void) {
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  int v = -1;
  CHECK_STATUS(onnxshape_resolve_version((onnxshape_op)9, 14, &v, &d),
               ONNXSHAPE_ERR_UNKNOWN_OPERATOR);
  CHECK_MESSAGE(d.message, "unknown operator number 9");
  CHECK_STATUS(onnxshape_resolve_version(ONNXSHAPE_OP_RESHAPE, 14, NULL, &d),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(d.message, "no place to write the resolved version of Reshape");
  CHECK_I64(v, -1);
  CHECK_STATUS(onnxshape_check_type((onnxshape_op)0, 14, ONNXSHAPE_TYPE_FLOAT, &d),
               ONNXSHAPE_ERR_UNKNOWN_OPERATOR);
  CHECK_MESSAGE(d.message, "unknown operator number 0");
  int64_t count = -5;
  const onnxshape_tensor none = {ONNXSHAPE_TYPE_FLOAT, 0, NULL, NULL, 0};
  CHECK_STATUS(onnxshape_size_run(13, &none, NULL, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(d.message, "Size-13: data and out must not be NULL");
  CHECK_STATUS(onnxshape_size_run(21, NULL, &count, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(d.message, "Size-21: data and out must not be NULL");
  CHECK_I64(count, -5);
}

RUN_TESTS(TEST_ENTRY(test_status_values_are_pinned), TEST_ENTRY(test_type_table),
          TEST_ENTRY(test_storage_bytes), TEST_ENTRY(test_version_resolution),
          TEST_ENTRY(test_op_names), TEST_ENTRY(test_type_sets_per_version),
          TEST_ENTRY(test_new_types_at_their_version), TEST_ENTRY(test_attribute_specs),
          TEST_ENTRY(test_dims_count), TEST_ENTRY(test_wide_arithmetic), TEST_ENTRY(test_diag_format), TEST_ENTRY(test_check_known_allowzero),
          TEST_ENTRY(test_check_known_leaves_no_stale_message), TEST_ENTRY(test_escape), TEST_ENTRY(test_formatter), TEST_ENTRY(test_deferred_failure),
          TEST_ENTRY(test_version_contracts_exhaustive),
          TEST_ENTRY(test_inlined_catalog_exhaustive),
          TEST_ENTRY(test_diag_state_every_kernel), TEST_ENTRY(test_operator_number_messages), TEST_ENTRY(test_reshape_status_exhaustive))
