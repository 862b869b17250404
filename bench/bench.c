/* SPDX-License-Identifier: Apache-2.0 */
/* The in-process benchmark of make bench (scripts/bench runs it, then the
 * whole-process and onnxruntime measurements, and writes the report).
 *
 *   per call:   Shape, Size and Reshape, _infer + _run (and _run alone), on
 *               bench/cases.h;
 *   by size:    Reshape as a view and as a copy, and memcpy (the floor), at
 *               1 KiB, 1 MiB, 64 MiB and 256 MiB;
 *   model:      parse a single-node model from memory and run it; run an
 *               already-loaded model;
 *   analyse:    (with --analyse MODEL...) per model file: read and load it
 *               (onnxshape_model_read_file) and analyse it
 *               (onnxshape_model_infer_with, no bindings), what
 *               `onnxshape infer` does before printing.
 *
 * Each figure is the median of REPEATS timed runs (after a warm-up), with
 * the minimum and maximum as the spread, in nanoseconds per operation,
 * written as one JSON object on stdout.
 * Usage: bench MODEL.onnx INPUT.pb [--quick] [--model-only]
 *        bench --analyse MODEL.onnx...
 * (--model-only: the model figures alone, for run.py's alternating rounds
 * with onnxruntime). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cases.h"
#include "onnxshape.h"

#define REPEATS 7

static int quick;
static volatile int64_t sink; /* keeps results alive */

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

typedef void (*bench_fn)(void *ctx, long iters);

typedef struct figure {
  double median, min, max;
} figure;

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* ns per iteration of each of n functions: median, min and max over
 * REPEATS runs of iters[i]. The runs are interleaved (each repeat times
 * every function once), so that figures compared with one another see the
 * same phases of a noisy machine. */
#define MAX_SET 18 /* the per-call figures: 3 cases x 3 operators x 2 */
static void measure_set(int n, const bench_fn *fns, void *const *ctxs, const long *iters_in,
                        figure *out) {
  double per[MAX_SET][REPEATS];
  long iters[MAX_SET];
  for (int i = 0; i < n; i++) {
    iters[i] = quick ? iters_in[i] / 20 + 1 : iters_in[i];
    fns[i](ctxs[i], iters[i] / 4 + 1); /* warm-up: caches, page faults, branch predictors */
  }
  for (int r = 0; r < REPEATS; r++) {
    for (int i = 0; i < n; i++) {
      double t0 = now_ns();
      fns[i](ctxs[i], iters[i]);
      per[i][r] = (now_ns() - t0) / (double)iters[i];
    }
  }
  for (int i = 0; i < n; i++) {
    qsort(per[i], REPEATS, sizeof per[i][0], cmp_double);
    out[i] = (figure){per[i][REPEATS / 2], per[i][0], per[i][REPEATS - 1]};
  }
}

static figure measure(bench_fn fn, void *ctx, long iters) {
  figure f;
  measure_set(1, &fn, &ctx, &iters, &f);
  return f;
}

static void print_figure(const char *key, figure f) {
  printf("\"%s\":{\"median_ns\":%.3f,\"min_ns\":%.3f,\"max_ns\":%.3f}", key, f.median, f.min,
         f.max);
}

static void fail(const char *what, onnxshape_status st, const onnxshape_diag *d) {
  fprintf(stderr, "bench: %s: %s %s\n", what, onnxshape_status_name(st), d ? d->message : "");
  exit(1);
}

/* ---- per call ----------------------------------------------------------- */

typedef struct call_ctx {
  const bench_case *c;
  onnxshape_tensor t;
  int infer; /* 1: _infer then _run per iteration; 0: the _run call alone (what a
                runtime that inferred once pays per run) */
} call_ctx;

static void run_shape(void *p, long iters) {
  call_ctx *x = p;
  onnxshape_shape_attrs a = {1, x->c->start, 1, x->c->end};
  int64_t out[8];
  size_t len = 0;
  for (long i = 0; i < iters; i++) {
    onnxshape_status st = ONNXSHAPE_OK;
    if (x->infer) st = onnxshape_shape_infer(25, x->t.type, x->t.rank, &a, &len, NULL);
    st |= onnxshape_shape_run(25, &x->t, &a, out, 8, &len, NULL);
    sink += (int64_t)st + out[0] + (int64_t)len;
  }
}

static void run_size(void *p, long iters) {
  call_ctx *x = p;
  int64_t n = 0;
  for (long i = 0; i < iters; i++) {
    onnxshape_status st = ONNXSHAPE_OK;
    if (x->infer) st = onnxshape_size_infer(25, x->t.type, NULL);
    st |= onnxshape_size_run(25, &x->t, &n, NULL);
    sink += (int64_t)st + n;
  }
}

static void run_reshape(void *p, long iters) {
  call_ctx *x = p;
  const onnxshape_reshape_attrs a = {1, 0};
  int64_t dims[8];
  onnxshape_tensor out;
  for (long i = 0; i < iters; i++) {
    onnxshape_status st = ONNXSHAPE_OK;
    if (x->infer) {
      st = onnxshape_reshape_infer(25, x->t.type, x->t.dims, x->t.rank, x->c->target,
                                   x->c->target_len, &a, dims, 8, NULL);
    }
    st |= onnxshape_reshape_run_view(25, &x->t, x->c->target, x->c->target_len, &a, dims, 8,
                                     &out, NULL);
    sink += (int64_t)st + dims[0] + (int64_t)out.data_bytes;
  }
}

/* ---- by size ------------------------------------------------------------ */

typedef struct size_ctx {
  onnxshape_tensor t;
  void *dst;
  size_t bytes;
} size_ctx;

static const int64_t size_target[] = {-1, 4};

static void run_view(void *p, long iters) {
  size_ctx *x = p;
  int64_t dims[2];
  onnxshape_tensor out;
  for (long i = 0; i < iters; i++) {
    onnxshape_status st = onnxshape_reshape_run_view(25, &x->t, size_target, 2, NULL, dims, 2,
                                                     &out, NULL);
    sink += (int64_t)st + dims[0];
  }
}

static void run_copy(void *p, long iters) {
  size_ctx *x = p;
  int64_t dims[2];
  onnxshape_tensor out;
  for (long i = 0; i < iters; i++) {
    onnxshape_status st = onnxshape_reshape_run_copy(25, &x->t, size_target, 2, NULL, dims, 2,
                                                     x->dst, x->bytes, &out, NULL);
    sink += (int64_t)st + ((volatile unsigned char *)x->dst)[x->bytes - 1];
  }
}

static void run_memcpy(void *p, long iters) {
  size_ctx *x = p;
  for (long i = 0; i < iters; i++) {
    memcpy(x->dst, x->t.data, x->bytes);
    sink += ((volatile unsigned char *)x->dst)[x->bytes - 1];
  }
}

/* ---- model -------------------------------------------------------------- */

typedef struct model_ctx {
  const void *bytes;
  size_t len;
  const onnxshape_model *loaded;
  onnxshape_binding binding;
} model_ctx;

static void run_one(const onnxshape_model *m, const onnxshape_binding *b) {
  onnxshape_result *r = NULL;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_status st = onnxshape_model_run(m, b, 1, &r, &d);
  if (st != ONNXSHAPE_OK) fail("model_run", st, &d);
  sink += (int64_t)onnxshape_result_tensor(r, 0)->dims[0];
  onnxshape_result_free(r);
}

static void run_load_and_run(void *p, long iters) {
  model_ctx *x = p;
  for (long i = 0; i < iters; i++) {
    onnxshape_model *m = NULL;
    onnxshape_diag d;
    onnxshape_diag_init(&d);
    onnxshape_status st = onnxshape_model_parse(x->bytes, x->len, NULL, &m, &d);
    if (st != ONNXSHAPE_OK) fail("model_parse", st, &d);
    run_one(m, &x->binding);
    onnxshape_model_free(m);
  }
}

static void run_loaded(void *p, long iters) {
  model_ctx *x = p;
  for (long i = 0; i < iters; i++) run_one(x->loaded, &x->binding);
}

static void *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    perror(path);
    exit(2);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  void *b = malloc(n > 0 ? (size_t)n : 1);
  if (b == NULL || fread(b, 1, (size_t)n, f) != (size_t)n) {
    fprintf(stderr, "bench: cannot read %s\n", path);
    exit(2);
  }
  fclose(f);
  *len = (size_t)n;
  return b;
}

/* The model figures, as "model":{...} and the closing brace. */
static void bench_model(const char *model_path, const char *input_path) {
  model_ctx m = {NULL, 0, NULL, {NULL, NULL}};
  m.bytes = read_all(model_path, &m.len);
  onnxshape_owned_tensor *in = NULL;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_status st = onnxshape_tensor_read_file(input_path, &in, &d);
  if (st != ONNXSHAPE_OK) fail("tensor_read_file", st, &d);
  m.binding.name = onnxshape_owned_tensor_name(in);
  m.binding.tensor = onnxshape_owned_tensor_get(in);
  onnxshape_model *loaded = NULL;
  st = onnxshape_model_parse(m.bytes, m.len, NULL, &loaded, &d);
  if (st != ONNXSHAPE_OK) fail("model_parse", st, &d);
  m.loaded = loaded;
  printf("\"model\":{");
  print_figure("load_and_run", measure(run_load_and_run, &m, 100000));
  printf(",");
  print_figure("run_loaded", measure(run_loaded, &m, 1000000));
  printf("}}\n");
  onnxshape_model_free(loaded);
  onnxshape_owned_tensor_free(in);
  free((void *)m.bytes);
}

/* ---- model analysis ----------------------------------------------------- */

static void run_analyse(void *p, long iters) {
  const char *path = p;
  for (long i = 0; i < iters; i++) {
    onnxshape_model *m = NULL;
    onnxshape_inference *inf = NULL;
    onnxshape_diag d;
    onnxshape_diag_init(&d);
    onnxshape_status st = onnxshape_model_read_file(path, &m, &d);
    if (st != ONNXSHAPE_OK) fail(path, st, &d);
    st = onnxshape_model_infer_with(m, NULL, &inf, &d);
    if (st != ONNXSHAPE_OK) fail(path, st, &d);
    sink += (int64_t)onnxshape_inference_count(inf);
    onnxshape_inference_free(inf);
    onnxshape_model_free(m);
  }
}

/* {"analyse":[{"model":PATH,"load_infer":FIGURE},...]}: iterations per
 * repeat chosen so that one repeat takes about 20 ms. */
static int bench_analyse(int n, char **paths) {
  printf("{\"repeats\":%d,\"analyse\":[", REPEATS);
  for (int i = 0; i < n; i++) {
    double t0 = now_ns();
    run_analyse(paths[i], 1);
    double once = now_ns() - t0;
    long iters = once > 2e7 ? 1 : (long)(2e7 / (once > 1e3 ? once : 1e3));
    printf("%s{\"model\":\"%s\",", i ? "," : "", paths[i]);
    print_figure("load_infer", measure(run_analyse, paths[i], iters));
    printf("}");
  }
  printf("]}\n");
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "--analyse") == 0) return bench_analyse(argc - 2, argv + 2);
  if (argc < 3) {
    fprintf(stderr, "usage: bench MODEL.onnx INPUT.pb [--quick] [--model-only]\n"
                    "       bench --analyse MODEL.onnx...\n");
    return 2;
  }
  int model_only = 0;
  for (int i = 3; i < argc; i++) {
    quick |= strcmp(argv[i], "--quick") == 0;
    model_only |= strcmp(argv[i], "--model-only") == 0;
  }
  if (model_only) {
    printf("{\"repeats\":%d,", REPEATS);
    bench_model(argv[1], argv[2]);
    return 0;
  }
  printf("{\"repeats\":%d,\"per_call\":[", REPEATS);
  /* Every per-call figure in one interleaved set: each repeat times all of
   * them once, so the repeats of one figure are spread over the whole set's
   * run (seconds) instead of a fraction of a second, and a short slow spell
   * of the machine moves one repeat of each figure, not all of one. */
  static const char *const ops[] = {"Shape", "Size", "Reshape"};
  static const bench_fn fns[] = {run_shape, run_size, run_reshape};
  enum { N_OPS = sizeof ops / sizeof ops[0], N_CALLS = BENCH_CASE_COUNT * N_OPS * 2 };
  _Static_assert(N_CALLS <= MAX_SET, "measure_set takes every per-call figure");
  static float data[150528]; /* the largest case's elements */
  call_ctx calls[N_CALLS];
  bench_fn call_fns[N_CALLS];
  void *call_ctxs[N_CALLS];
  long call_iters[N_CALLS];
  figure call_figs[N_CALLS];
  for (size_t c = 0; c < BENCH_CASE_COUNT; c++) {
    if (bench_cases[c].size > (int64_t)(sizeof data / sizeof data[0])) return 1;
    for (size_t o = 0; o < N_OPS; o++) {
      for (int infer = 1; infer >= 0; infer--) {
        size_t k = (c * N_OPS + o) * 2 + (size_t)(1 - infer);
        calls[k] = (call_ctx){&bench_cases[c],
                              {ONNXSHAPE_TYPE_FLOAT, bench_cases[c].rank, bench_cases[c].dims,
                               data, (size_t)bench_cases[c].size * sizeof(float)},
                              infer};
        call_fns[k] = fns[o];
        call_ctxs[k] = &calls[k];
        call_iters[k] = 2000000;
      }
    }
  }
  measure_set(N_CALLS, call_fns, call_ctxs, call_iters, call_figs);
  for (size_t c = 0; c < BENCH_CASE_COUNT; c++) {
    for (size_t o = 0; o < N_OPS; o++) {
      size_t k = (c * N_OPS + o) * 2;
      printf("%s{\"op\":\"%s\",\"case\":\"%s\",\"rank\":%zu,", c + o ? "," : "", ops[o],
             bench_cases[c].name, bench_cases[c].rank);
      print_figure("time", call_figs[k]);
      printf(",");
      print_figure("run_only", call_figs[k + 1]);
      printf("}");
    }
  }
  printf("],\"by_size\":[");
  static const size_t sizes[] = {1024, 1u << 20, 64u << 20, 256u << 20};
  size_t max = sizes[sizeof sizes / sizeof sizes[0] - 1];
  unsigned char *src = malloc(max), *dst = malloc(max);
  if (src == NULL || dst == NULL) {
    fprintf(stderr, "bench: out of memory\n");
    return 1;
  }
  for (size_t i = 0; i < max; i++) src[i] = (unsigned char)(i * 31u);
  memset(dst, 0, max);
  enum { N_SIZES = sizeof sizes / sizeof sizes[0] };
  int64_t counts[N_SIZES];
  size_ctx ctx[N_SIZES];
  for (size_t s = 0; s < N_SIZES; s++) {
    counts[s] = (int64_t)(sizes[s] / sizeof(float));
    ctx[s] = (size_ctx){{ONNXSHAPE_TYPE_FLOAT, 1, &counts[s], src, sizes[s]}, dst, sizes[s]};
  }
  /* The views at every size in one interleaved set (their spread is a target). */
  figure views[N_SIZES];
  bench_fn view_fns[N_SIZES];
  void *view_ctxs[N_SIZES];
  long view_iters[N_SIZES];
  for (size_t s = 0; s < N_SIZES; s++) {
    view_fns[s] = run_view;
    view_ctxs[s] = &ctx[s];
    view_iters[s] = 2000000;
  }
  measure_set(N_SIZES, view_fns, view_ctxs, view_iters, views);
  for (size_t s = 0; s < N_SIZES; s++) {
    long iters = (long)((1ull << 31) / sizes[s]);
    if (iters < 4) iters = 4;
    if (iters > 1000000) iters = 1000000;
    /* The copy and its memcpy floor, interleaved. */
    const bench_fn pair_fns[2] = {run_copy, run_memcpy};
    void *const pair_ctxs[2] = {&ctx[s], &ctx[s]};
    const long pair_iters[2] = {iters, iters};
    figure pair[2];
    measure_set(2, pair_fns, pair_ctxs, pair_iters, pair);
    printf("%s{\"bytes\":%zu,", s ? "," : "", sizes[s]);
    print_figure("view", views[s]);
    printf(",");
    print_figure("copy", pair[0]);
    printf(",");
    print_figure("memcpy", pair[1]);
    printf("}");
    fflush(stdout);
  }
  free(src);
  free(dst);

  printf("],");
  bench_model(argv[1], argv[2]);
  return 0;
}
