/* SPDX-License-Identifier: Apache-2.0 */
/* Property test: random input dims and random Reshape targets (with 0, -1,
 * huge values and allowzero), plus random Shape slices and Size, checked
 * against a reference written here independently, in 128-bit arithmetic.
 * ONNXSHAPE_SEED=<n> replays a run; ONNXSHAPE_CASES=<n> changes the count. */
#include <stdlib.h>
#include <time.h>

#include "harness.h"

/* Products of dims (each <= INT64_MAX) in 64 unsigned bits, saturated at
 * SAT = INT64_MAX + 1 so that nothing can wrap: the reference needs no
 * 128-bit type, so it runs on every target, 32-bit ones included. */
#define SAT ((uint64_t)INT64_MAX + 1u)
static uint64_t sat_mul(uint64_t a, uint64_t b) {
  if (a == 0 || b == 0) return 0;
  if (a >= SAT || b >= SAT || a > (uint64_t)INT64_MAX / b) return SAT;
  return a * b;
}

static uint64_t rng_state;
static uint64_t rnd(void) { /* xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * UINT64_C(2685821657736338717);
}
static int64_t pick(int64_t lo, int64_t hi) { return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1)); }

#define MAXR 8
#define LIMIT ((uint64_t)INT64_MAX)

/* The reference: the rulebook's Reshape rule, step by step, with saturated
 * products (sat_mul) so that nothing can wrap. */
static onnxshape_status ref_reshape(const int64_t *in, size_t rank, const int64_t *shape,
                                    size_t len, int allowzero, int64_t *out) {
  uint64_t n = 1;
  for (size_t i = 0; i < rank; i++) if (in[i] == 0) n = 0;
  for (size_t i = 0; i < rank && n != 0; i++) {
    n = sat_mul(n, (uint64_t)in[i]);
    if (n > LIMIT) return ONNXSHAPE_ERR_OVERFLOW;
  }
  int minus = -1, zero = -1;
  for (size_t i = 0; i < len; i++) {
    if (shape[i] < -1) return ONNXSHAPE_ERR_DIM_BELOW_MINUS_ONE;
    if (shape[i] == -1) {
      if (minus >= 0) return ONNXSHAPE_ERR_MULTIPLE_INFERRED;
      minus = (int)i;
    }
    if (shape[i] == 0) {
      if (!allowzero && i >= rank) return ONNXSHAPE_ERR_ZERO_OUT_OF_RANGE;
      if (zero < 0) zero = (int)i;
    }
  }
  if (allowzero && zero >= 0 && minus >= 0) return ONNXSHAPE_ERR_ZERO_WITH_INFERRED;
  int64_t r[MAXR];
  uint64_t known = 1;
  int any_zero = 0;
  for (size_t i = 0; i < len; i++) {
    r[i] = (shape[i] == 0 && !allowzero) ? in[i] : shape[i];
    if ((int)i == minus) continue;
    if (r[i] == 0) any_zero = 1;
  }
  for (size_t i = 0; i < len && !any_zero; i++) {
    if ((int)i == minus) continue;
    known = sat_mul(known, (uint64_t)r[i]); /* saturates at LIMIT + 1 */
  }
  if (any_zero) known = 0;
  if (known > LIMIT) {
    if (minus < 0 || n != 0) return ONNXSHAPE_ERR_OVERFLOW;
    r[minus] = 0;
  } else if (minus >= 0) {
    if (known == 0) return ONNXSHAPE_ERR_INFERRED_FROM_ZERO;
    if (n % known != 0) return ONNXSHAPE_ERR_NOT_DIVISIBLE;
    r[minus] = (int64_t)(n / known);
  } else if (known != n) {
    return ONNXSHAPE_ERR_COUNT_MISMATCH;
  }
  for (size_t i = 0; i < len; i++) out[i] = r[i];
  return ONNXSHAPE_OK;
}

static int64_t random_dim(void) {
  int64_t k = pick(0, 99);
  if (k < 8) return 0;
  if (k < 11) return INT64_C(1) << pick(20, 62);
  return pick(1, 6);
}

/* A target that is often valid: the input's count split into factors, then
 * some entries replaced by 0 (copy) or -1, plus random noise. */
static size_t random_target(const int64_t *in, size_t rank, int64_t *shape) {
  size_t len = (size_t)pick(0, MAXR);
  int64_t k = pick(0, 99);
  for (size_t i = 0; i < len; i++) {
    int64_t x = pick(0, 99);
    if (x < 10) shape[i] = 0;
    else if (x < 18) shape[i] = -1;
    else if (x < 20) shape[i] = pick(-5, -2);
    else if (x < 23) shape[i] = INT64_C(1) << pick(20, 62);
    else if (k < 60 && i < rank) shape[i] = in[i]; /* keep the input's dim */
    else shape[i] = pick(1, 6);
  }
  if (k < 30 && len == rank) {
    for (size_t i = 0; i < len; i++) shape[i] = in[i];
    if (len > 0) shape[(size_t)pick(0, (int64_t)len - 1)] = -1;
  }
  return len;
}

static void check_reshape_case(uint64_t seed, int *failures) {
  int64_t in[MAXR], shape[MAXR], got[MAXR], want[MAXR];
  size_t rank = (size_t)pick(0, 6);
  for (size_t i = 0; i < rank; i++) in[i] = random_dim();
  size_t len = random_target(in, rank, shape);
  int allowzero = (int)pick(0, 1);
  onnxshape_reshape_attrs a = {1, allowzero};
  for (size_t i = 0; i < MAXR; i++) got[i] = want[i] = INT64_MIN;
  onnxshape_status st = onnxshape_reshape_infer(25, ONNXSHAPE_TYPE_FLOAT, in, rank, shape, len,
                                                &a, got, MAXR, NULL);
  onnxshape_status ref = ref_reshape(in, rank, shape, len, allowzero, want);
  int ok = st == ref;
  if (ok && st == ONNXSHAPE_OK) {
    ok = memcmp(got, want, len * sizeof(int64_t)) == 0;
    /* Invariant: a successful Reshape preserves the element count. */
    int64_t c_in, c_out;
    ok = ok && onnxshape_dims_count(in, rank, &c_in) == ONNXSHAPE_OK;
    onnxshape_status cs = onnxshape_dims_count(got, len, &c_out);
    ok = ok && cs == ONNXSHAPE_OK && c_in == c_out;
  }
  if (!ok) {
    if (*failures < 10) {
      fprintf(stderr, "reshape mismatch (seed %" PRIu64 "): rank %zu in [", seed, rank);
      for (size_t i = 0; i < rank; i++) fprintf(stderr, " %" PRId64, in[i]);
      fprintf(stderr, " ] target [");
      for (size_t i = 0; i < len; i++) fprintf(stderr, " %" PRId64, shape[i]);
      fprintf(stderr, " ] allowzero %d: got %s, reference %s\n", allowzero,
              onnxshape_status_name(st), onnxshape_status_name(ref));
    }
    (*failures)++;
  }
}

/* The kernels over every version number around Reshape's, every type
 * number and data that is sometimes short, against the reference and the
 * documented order of the checks: version and type, allowzero, the rules,
 * the bytes of the data, the bytes of the destination. (The kernels accept
 * the usual call on a fast path and leave the rest to the full checks; this
 * reaches both, on either side of each of the fast path's bounds.) */
static void check_run_case(uint64_t seed, int *failures) {
  static unsigned char src[4096], dst[4096];
  int64_t in[MAXR], shape[MAXR], want[MAXR], view_dims[MAXR], copy_dims[MAXR];
  size_t rank = (size_t)pick(0, 6);
  for (size_t i = 0; i < rank; i++) in[i] = random_dim();
  size_t len = random_target(in, rank, shape);
  int version = (int)pick(0, ONNXSHAPE_MAX_OPSET + 2);
  /* out_dims sometimes one entry short */
  size_t capacity = pick(0, 9) == 0 && len > 0 ? len - 1 : MAXR;
  int32_t type = (int32_t)pick(0, ONNXSHAPE_TYPE_LAST + 2);
  int has_allowzero = (int)pick(0, 1), allowzero = has_allowzero ? (int)pick(0, 1) : 0;
  onnxshape_reshape_attrs a = {has_allowzero, allowzero};

  onnxshape_status want_st = onnxshape_check_type(ONNXSHAPE_OP_RESHAPE, version, type, NULL);
  if (want_st == ONNXSHAPE_OK && has_allowzero && version < 14) {
    want_st = ONNXSHAPE_ERR_INVALID_ATTRIBUTE;
  }
  if (want_st == ONNXSHAPE_OK) want_st = ref_reshape(in, rank, shape, len, allowzero, want);
  if (want_st == ONNXSHAPE_OK && capacity < len) want_st = ONNXSHAPE_ERR_BUFFER_TOO_SMALL;
  int64_t infer_dims[MAXR];
  for (size_t i = 0; i < MAXR; i++) infer_dims[i] = INT64_MIN;
  onnxshape_status st =
      onnxshape_reshape_infer(version, type, in, rank, shape, len, &a, infer_dims, capacity, NULL);
  int ok =
      st == want_st && (st != ONNXSHAPE_OK ? infer_dims[0] == INT64_MIN
                                           : memcmp(infer_dims, want, len * sizeof(int64_t)) == 0);
  size_t need = 0;
  int64_t count = 0;
  if (want_st == ONNXSHAPE_OK) {
    CHECK_STATUS(onnxshape_dims_count(in, rank, &count), ONNXSHAPE_OK);
    if (onnxshape_type_storage_bytes(type, count, &need) != ONNXSHAPE_OK) {
      want_st = ONNXSHAPE_ERR_OVERFLOW;
    }
  }
  /* The data holds what its dims need, one byte less, or more. */
  int64_t k = pick(0, 9);
  size_t held = k < 2 && need > 0 ? need - 1 : k < 3 ? need + (size_t)pick(1, 64) : need;
  onnxshape_status view_st = want_st;
  if (view_st == ONNXSHAPE_OK && held < need) view_st = ONNXSHAPE_ERR_DATA_SIZE;

  /* A view never reads the data, so a large one needs no memory. */
  onnxshape_tensor t = {type, rank, in, src, held};
  onnxshape_tensor out = {0, 0, NULL, NULL, 0};
  for (size_t i = 0; i < MAXR; i++) view_dims[i] = copy_dims[i] = INT64_MIN;
  if (ok) {
    st = onnxshape_reshape_run_view(version, &t, shape, len, &a, view_dims, capacity, &out, NULL);
    ok = st == view_st;
  }
  if (ok && st == ONNXSHAPE_OK) {
    ok = memcmp(view_dims, want, len * sizeof(int64_t)) == 0 && out.type == type &&
         out.rank == len && out.dims == view_dims && out.data == src && out.data_bytes == need;
  } else if (ok) {
    ok = view_dims[0] == INT64_MIN && out.dims == NULL; /* untouched on error */
  }
  /* A copy moves real bytes, so only when they fit the buffers here; the
   * destination is sometimes one byte short. */
  if (ok && held <= sizeof src) {
    size_t room = k == 9 && need > 0 ? need - 1 : sizeof dst;
    onnxshape_status copy_st = view_st;
    if (copy_st == ONNXSHAPE_OK && room < need) copy_st = ONNXSHAPE_ERR_BUFFER_TOO_SMALL;
    for (size_t i = 0; i < held; i++) src[i] = (unsigned char)rnd();
    memset(dst, 0xA5, sizeof dst);
    out.data = NULL;
    st = onnxshape_reshape_run_copy(version, &t, shape, len, &a, copy_dims, capacity, dst, room,
                                    &out, NULL);
    ok = st == copy_st;
    if (ok && st == ONNXSHAPE_OK) {
      ok = memcmp(copy_dims, want, len * sizeof(int64_t)) == 0 && out.data == dst &&
           out.data_bytes == need && memcmp(dst, src, need) == 0 &&
           (need == sizeof dst || dst[need] == 0xA5);
    } else if (ok) {
      ok = copy_dims[0] == INT64_MIN && dst[0] == 0xA5;
    }
  }
  if (!ok) {
    if (*failures < 10) {
      fprintf(stderr, "run mismatch (seed %" PRIu64 "): Reshape-%d %s rank %zu in [", seed, version,
              onnxshape_type_name(type), rank);
      for (size_t i = 0; i < rank; i++) fprintf(stderr, " %" PRId64, in[i]);
      fprintf(stderr, " ] target [");
      for (size_t i = 0; i < len; i++) fprintf(stderr, " %" PRId64, shape[i]);
      fprintf(stderr, " ] allowzero %d/%d, %zu of %zu bytes: got %s; want %s (infer), %s (run)\n",
              has_allowzero, allowzero, held, need, onnxshape_status_name(st),
              onnxshape_status_name(want_st), onnxshape_status_name(view_st));
    }
    (*failures)++;
  }
}

/* The rulebook's clamp; r >= 0, so a + r cannot wrap when a < 0. */
static int64_t ref_clamp(int64_t a, int64_t r) {
  if (a < 0) a += r;
  if (a < 0) a = 0;
  if (a > r) a = r;
  return a;
}

static void check_shape_size_case(uint64_t seed, int *failures) {
  int64_t in[MAXR], out[MAXR];
  size_t rank = (size_t)pick(0, 6);
  for (size_t i = 0; i < rank; i++) in[i] = random_dim();
  int64_t edge[] = {INT64_MIN, INT64_MAX, INT64_MIN + 1, INT64_MAX - 1};
  onnxshape_shape_attrs a = {(int)pick(0, 1), pick(-10, 10), (int)pick(0, 1), pick(-10, 10)};
  if (pick(0, 9) == 0) a.start = edge[pick(0, 3)];
  if (pick(0, 9) == 0) a.end = edge[pick(0, 3)];
  const onnxshape_tensor t = {ONNXSHAPE_TYPE_INT8, rank, in, NULL, 0};
  size_t len = 999;
  onnxshape_status st = onnxshape_shape_run(25, &t, &a, out, MAXR, &len, NULL);
  int64_t s = ref_clamp(a.has_start ? a.start : 0, (int64_t)rank);
  int64_t e = ref_clamp(a.has_end ? a.end : (int64_t)rank, (int64_t)rank);
  size_t want_len = e > s ? (size_t)(e - s) : 0;
  int ok = st == ONNXSHAPE_OK && len == want_len &&
           (want_len == 0 || memcmp(out, in + s, want_len * sizeof(int64_t)) == 0);
  /* Size: 0 if any dim is 0, else the product if it fits. */
  uint64_t p = 1;
  int zero = 0, over = 0;
  for (size_t i = 0; i < rank; i++) zero |= in[i] == 0;
  for (size_t i = 0; i < rank && !zero; i++) {
    p = sat_mul(p, (uint64_t)in[i]);
    if (p > LIMIT) { over = 1; break; }
  }
  int64_t n = -1;
  onnxshape_status ss = onnxshape_size_run(25, &t, &n, NULL);
  if (zero) ok = ok && ss == ONNXSHAPE_OK && n == 0;
  else if (over) ok = ok && ss == ONNXSHAPE_ERR_OVERFLOW;
  else ok = ok && ss == ONNXSHAPE_OK && (uint64_t)n == p;
  if (!ok) {
    if (*failures < 10) {
      fprintf(stderr, "shape/size mismatch (seed %" PRIu64 "): rank %zu start %d:%" PRId64
              " end %d:%" PRId64 "\n", seed, rank, a.has_start, a.start, a.has_end, a.end);
    }
    (*failures)++;
  }
}

/* covers: RESHAPE-ZERO-COPY RESHAPE-ZERO-COPY-RANGE RESHAPE-ZERO-LITERAL RESHAPE-LITERAL
 * RESHAPE-INFER RESHAPE-INFER-ZERO RESHAPE-INFER-DIVISIBLE RESHAPE-COUNT RESHAPE-SCALAR
 * RESHAPE-ALLOWZERO-INFERRED RESHAPE-BELOW-MINUS-ONE RESHAPE-ONE-INFERRED RESHAPE-OVERFLOW
 * SHAPE-CLAMP SHAPE-DEFAULTS SHAPE-OUTPUT SHAPE-EMPTY SIZE-OUTPUT SIZE-ZERO-FIRST SIZE-OVERFLOW
 * ERROR-ORDER */
static void test_random_cases(void) {
  const char *env = getenv("ONNXSHAPE_SEED");
  uint64_t seed = env != NULL ? strtoull(env, NULL, 10) : (uint64_t)time(NULL);
  const char *cases_env = getenv("ONNXSHAPE_CASES");
  long cases = cases_env != NULL ? strtol(cases_env, NULL, 10) : 200000;
  if (seed == 0) seed = 1;
  rng_state = seed;
  printf("property test: seed %" PRIu64
         ", %ld reshape infer cases, %ld reshape run cases, "
         "%ld shape/size cases\n",
         seed, cases, cases, cases);
  int failures = 0;
  for (long i = 0; i < cases; i++) check_reshape_case(seed, &failures);
  for (long i = 0; i < cases; i++) check_run_case(seed, &failures);
  for (long i = 0; i < cases; i++) check_shape_size_case(seed, &failures);
  if (failures > 0) {
    fprintf(stderr, "%d failing cases; replay with ONNXSHAPE_SEED=%" PRIu64 "\n", failures, seed);
  }
  CHECK_I64(failures, 0);
}

/* covers: RESHAPE-INFER RESHAPE-OVERFLOW RESHAPE-COUNT */
/* The generator must reach every outcome, or the comparison proves little. */
static void test_generator_reaches_every_outcome(void) {
  rng_state = 12345;
  int seen[32] = {0};
  for (int i = 0; i < 100000; i++) {
    int64_t in[MAXR], shape[MAXR], out[MAXR];
    size_t rank = (size_t)pick(0, 6);
    for (size_t k = 0; k < rank; k++) in[k] = random_dim();
    size_t len = random_target(in, rank, shape);
    int allowzero = (int)pick(0, 1);
    onnxshape_status st = ref_reshape(in, rank, shape, len, allowzero, out);
    seen[st]++;
  }
  static const onnxshape_status outcomes[] = {
      ONNXSHAPE_OK, ONNXSHAPE_ERR_OVERFLOW, ONNXSHAPE_ERR_DIM_BELOW_MINUS_ONE,
      ONNXSHAPE_ERR_MULTIPLE_INFERRED, ONNXSHAPE_ERR_ZERO_OUT_OF_RANGE,
      ONNXSHAPE_ERR_ZERO_WITH_INFERRED, ONNXSHAPE_ERR_INFERRED_FROM_ZERO,
      ONNXSHAPE_ERR_NOT_DIVISIBLE, ONNXSHAPE_ERR_COUNT_MISMATCH};
  for (size_t i = 0; i < sizeof outcomes / sizeof outcomes[0]; i++) {
    printf("  %-36s %6d of 100000\n", onnxshape_status_name(outcomes[i]), seen[outcomes[i]]);
    CHECK(seen[outcomes[i]] >= 100);
  }
}

RUN_TESTS(TEST_ENTRY(test_generator_reaches_every_outcome), TEST_ENTRY(test_random_cases))
