/* SPDX-License-Identifier: Apache-2.0 */
/* Allocation-failure injection, as SQLite does it: the library is built
 * with ONNXSHAPE_FAULT_INJECTION (src/onnx/alloc.h), which counts every
 * allocation of the loader, the runner, static inference and the profile
 * check, and makes the n-th fail. For each model, a clean pass counts the
 * allocations of loading it, reading its inputs, running, inferring,
 * writing the model with its values (infer --write-model), checking it and
 * writing an output; then every n from 1 to that count is
 * failed in turn. Each failure must end in ONNXSHAPE_ERR_OUT_OF_MEMORY with
 * a message (or be absorbed by a fallback, with the same results as the
 * clean pass), never a crash; under `make check-asan` LeakSanitizer checks
 * that nothing leaks.
 * Usage: test_alloc_faults WORK_DIR CASE_DIR...   (CASE_DIR: backend-test
 * layout, model.onnx and test_data_set_0/input_<k>.pb; WORK_DIR holds
 * chain1000/, and gets the outputs written) */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

extern uint64_t onnxshape__alloc_count, onnxshape__fail_at; /* src/onnx/alloc.c */
extern size_t onnxshape__inplace_min;                       /* src/onnx/tensor.c */
extern size_t onnxshape__model_map_min;                     /* src/onnx/model.c */

typedef struct scenario {
  const char *model;   /* a model file */
  char *inputs[8];     /* its input tensor files, in graph-input order */
  size_t n_inputs;
  const void *bytes;   /* or a model in memory */
  size_t len;
  const char *out_dir; /* where an output is written */
} scenario;

static unsigned long total_faults, total_oom, total_absorbed;
static int quiet_failure;

/* One status of a step under injection: OK, or OUT_OF_MEMORY with a
 * message. */
static int step_ok(onnxshape_status st, const onnxshape_diag *d, const char *what) {
  if (st == ONNXSHAPE_OK) return 1;
  if (st != ONNXSHAPE_ERR_OUT_OF_MEMORY || d->message[0] == '\0') {
    if (!quiet_failure) {
      fprintf(stderr, "fault %llu of %s: %s gave %s: %s\n",
              (unsigned long long)onnxshape__fail_at, "scenario", what,
              onnxshape_status_name(st), d->message);
    }
    h_fail();
  }
  return 0;
}

/* Runs the scenario; returns the number of outputs (a digest of the
 * results to compare with the clean pass), or -1 when a step ran out of
 * memory. */
static long run_scenario(const scenario *s) {
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_model *m = NULL;
  long digest = -1;
  onnxshape_owned_tensor *in[8] = {0};
  onnxshape_binding b[8];
  onnxshape_result *r = NULL;
  onnxshape_inference *inf = NULL;
  onnxshape_profile_report *rep = NULL;
  onnxshape_status st = s->model != NULL ? onnxshape_model_read_file(s->model, &m, &d)
                                         : onnxshape_model_parse(s->bytes, s->len, NULL, &m, &d);
  if (!step_ok(st, &d, "load")) goto done;
  for (size_t i = 0; i < s->n_inputs; i++) {
    if (!step_ok(onnxshape_tensor_read_file(s->inputs[i], &in[i], &d), &d, "read input")) goto done;
    b[i].name = onnxshape_model_input_name(m, i);
    b[i].tensor = onnxshape_owned_tensor_get(in[i]);
  }
  if (!step_ok(onnxshape_model_run(m, b, s->n_inputs, &r, &d), &d, "run")) goto done;
  if (!step_ok(onnxshape_model_infer(m, &inf, &d), &d, "infer")) goto done;
  char written[512];
  snprintf(written, sizeof written, "%s/written.onnx", s->out_dir);
  st = s->model != NULL ? onnxshape_inference_write_model(m, inf, s->model, written, &d)
                        : onnxshape_inference_write_model_bytes(m, inf, s->bytes, s->len, written,
                                                                &d);
  if (!step_ok(st, &d, "write the model")) goto done;
  st = s->model != NULL ? onnxshape_profile_check_sonnx_file(s->model, &rep, &d)
                        : onnxshape_profile_check_sonnx(s->bytes, s->len, NULL, &rep, &d);
  if (!step_ok(st, &d, "check")) goto done;
  char path[512];
  snprintf(path, sizeof path, "%s/out.pb", s->out_dir);
  if (!step_ok(onnxshape_tensor_write_file(path, "y", onnxshape_result_tensor(r, 0), &d), &d,
               "write")) {
    goto done;
  }
  digest = (long)(onnxshape_result_count(r) * 1000 + onnxshape_inference_count(inf) * 10 +
                  onnxshape_profile_count(rep));
done:
  onnxshape_profile_free(rep);
  onnxshape_inference_free(inf);
  onnxshape_result_free(r);
  for (size_t i = 0; i < s->n_inputs; i++) onnxshape_owned_tensor_free(in[i]);
  onnxshape_model_free(m);
  return digest;
}

/* The clean pass of run(ctx), then run(ctx) again with each of its
 * allocations failed in turn: each must end in out of memory (a negative
 * result) or give the clean result. */
static void inject_faults(const char *name, long (*run)(const void *ctx), const void *ctx) {
  onnxshape__fail_at = 0;
  onnxshape__alloc_count = 0;
  long clean = run(ctx);
  uint64_t n = onnxshape__alloc_count;
  if (clean < 0) {
    fprintf(stderr, "%s: the clean pass failed\n", name);
    h_fail();
    return;
  }
  for (uint64_t k = 1; k <= n; k++) {
    onnxshape__fail_at = k;
    onnxshape__alloc_count = 0;
    long got = run(ctx);
    total_faults++;
    if (got < 0) {
      total_oom++;
    } else {
      total_absorbed++;
      if (got != clean) {
        fprintf(stderr, "%s: fault %llu was absorbed but changed the results\n", name,
                (unsigned long long)k);
        h_fail();
      }
    }
  }
  onnxshape__fail_at = 0;
}

static long run_scenario_ctx(const void *ctx) { return run_scenario(ctx); }

static void inject(const scenario *s, const char *name) {
  inject_faults(name, run_scenario_ctx, s);
}

static const char *work_dir;
static char **case_dirs;
static int n_case_dirs;

/* Case c with each of its allocations failed in turn. */
static void fault_case(int c) {
  scenario s = {0};
  char model[1024];
  snprintf(model, sizeof model, "%s/model.onnx", case_dirs[c]);
  s.model = model;
  s.out_dir = work_dir;
  for (size_t k = 0; k < 8; k++) {
    char path[1024];
    struct stat sb;
    snprintf(path, sizeof path, "%s/test_data_set_0/input_%zu.pb", case_dirs[c], k);
    if (stat(path, &sb) != 0) break;
    s.inputs[k] = strdup(path);
    s.n_inputs = k + 1;
  }
  /* Cases that fail on purpose are for `onnxshape test`, not here. */
  quiet_failure = 1;
  onnxshape__fail_at = 0;
  long clean = run_scenario(&s);
  quiet_failure = 0;
  h_case_failed = 0;
  if (clean >= 0) inject(&s, case_dirs[c]);
  for (size_t k = 0; k < s.n_inputs; k++) free(s.inputs[k]);
}

/* covers: LIMIT-MEMORY */
/* Every case (the demo, the conformance models, a 1,000-node chain): each
 * of its allocations failed in turn. */
static void test_cases(void) {
  for (int c = 0; c < n_case_dirs; c++) fault_case(c);
}

/* covers: LIMIT-MEMORY MODEL-MAPPED */
/* Every eighth case again with every file mapped (models and tensors), as
 * larger files are (the mapping's own allocations fail too). */
static void test_cases_mapped(void) {
  size_t was = onnxshape__inplace_min, was_model = onnxshape__model_map_min;
  onnxshape__inplace_min = 1;
  onnxshape__model_map_min = 1;
  for (int c = 0; c < n_case_dirs; c += 8) fault_case(c);
  onnxshape__inplace_min = was;
  onnxshape__model_map_min = was_model;
}

/* covers: LIMIT-MEMORY MODEL-NAMES */
/* A chain of 1,000 Reshape nodes (tests/faults/run.sh writes it), from
 * memory this time: onnxshape_model_parse and onnxshape_profile_check_sonnx
 * on its bytes. */
static void test_thousand_nodes_in_memory(void) {
  char path[1024];
  snprintf(path, sizeof path, "%s/chain1000/model.onnx", work_dir);
  FILE *f = fopen(path, "rb");
  CHECK(f != NULL);
  if (f == NULL) return;
  static unsigned char bytes[1 << 20];
  size_t len = fread(bytes, 1, sizeof bytes, f);
  fclose(f);
  scenario s = {0};
  s.bytes = bytes;
  s.len = len;
  s.out_dir = work_dir;
  char input[1024];
  snprintf(input, sizeof input, "%s/chain1000/test_data_set_0/input_0.pb", work_dir);
  s.inputs[0] = input;
  s.n_inputs = 1;
  inject(&s, "1,000 nodes in memory");
}

/* ---- .npy files ---- */

/* Writes a .npy file of format 1.0 at path: header `dict` padded to 64
 * bytes with a newline, then n bytes of data; 1 on success. */
static int put_npy(const char *path, const char *dict, const void *data, size_t n) {
  size_t text = strlen(dict), line = text + 1, pad = 64 - (10 + line) % 64, hlen = line + pad;
  char head[256];
  if (10 + hlen > sizeof head) return 0;
  memcpy(head, "\x93NUMPY\x01\x00", 8);
  head[8] = (char)(hlen & 0xff);
  head[9] = (char)(hlen >> 8);
  memcpy(head + 10, dict, text);
  memset(head + 10 + text, ' ', pad);
  head[10 + hlen - 1] = '\n';
  FILE *f = fopen(path, "wb");
  if (f == NULL) return 0;
  int ok = fwrite(head, 1, 10 + hlen, f) == 10 + hlen && (n == 0 || fwrite(data, 1, n, f) == n);
  return fclose(f) == 0 && ok;
}

/* Reads the .npy file `in` (from the file and from memory) and writes it
 * back to `out`; the data's size, or -1 when a step ran out of memory. */
static long npy_round_trip(const char *in, const char *out, const unsigned char *bytes,
                           size_t len) {
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_owned_tensor *t = NULL, *p = NULL;
  long digest = -1;
  if (!step_ok(onnxshape_tensor_read_file(in, &t, &d), &d, "read .npy")) goto done;
  if (!step_ok(onnxshape_tensor_parse_npy(bytes, len, &p, &d), &d, "parse .npy")) goto done;
  if (!step_ok(onnxshape_tensor_write_npy_file(out, onnxshape_owned_tensor_get(t), &d), &d,
               "write .npy")) {
    goto done;
  }
  digest = (long)(onnxshape_owned_tensor_get(t)->data_bytes +
                  onnxshape_owned_tensor_get(p)->data_bytes);
done:
  onnxshape_owned_tensor_free(p);
  onnxshape_owned_tensor_free(t);
  return digest;
}

typedef struct npy_case {
  const char *in, *out;
  const unsigned char *bytes;
  size_t len;
} npy_case;

static long npy_case_run(const void *ctx) {
  const npy_case *c = ctx;
  return npy_round_trip(c->in, c->out, c->bytes, c->len);
}

/* covers: NPY-FILES NPY-IN-PLACE LIMIT-MEMORY */
/* .npy files read (from a file and from memory) and written back, each
 * allocation failed in turn: a small float array, big-endian Fortran
 * order, UTF-32 strings, and 128 KiB of doubles used in place (whose
 * file-to-file copy falls back to writing from memory). */
static void test_npy_files(void) {
  static unsigned char big[1 << 17], i2[48], u[24];
  for (size_t i = 0; i < sizeof big; i++) big[i] = (unsigned char)(i % 251);
  for (size_t i = 0; i < sizeof i2; i++) i2[i] = (unsigned char)i;
  static const char text[] = "ab\0\0\xe9\0\0\0\0\0\0\0x\0\0\0\0\0\0\0\0\0\0\0";
  memcpy(u, text, sizeof u);
  static const struct {
    const char *dict;
    const void *data;
    size_t n;
  } files[] = {
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", big, 24},
      {"{'descr': '>i2', 'fortran_order': True, 'shape': (2, 3, 4), }", i2, sizeof i2},
      {"{'descr': '<U3', 'fortran_order': False, 'shape': (2,), }", u, sizeof u},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (16384,), }", big, sizeof big},
  };
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    char in[1024], out[1024];
    snprintf(in, sizeof in, "%s/in%zu.npy", work_dir, i);
    snprintf(out, sizeof out, "%s/out%zu.npy", work_dir, i);
    CHECK(put_npy(in, files[i].dict, files[i].data, files[i].n));
    FILE *f = fopen(in, "rb");
    CHECK(f != NULL);
    if (f == NULL) continue;
    static unsigned char bytes[(1 << 17) + 256];
    size_t len = fread(bytes, 1, sizeof bytes, f);
    fclose(f);
    const npy_case c = {in, out, bytes, len};
    inject_faults(in, npy_case_run, &c);
    unlink(in);
    unlink(out);
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_alloc_faults WORK_DIR CASE_DIR...\n");
    return 2;
  }
  work_dir = argv[1];
  case_dirs = argv + 2;
  n_case_dirs = argc - 2;
  static const h_test tests[] = {TEST_ENTRY(test_cases), TEST_ENTRY(test_cases_mapped),
                                 TEST_ENTRY(test_thousand_nodes_in_memory),
                                 TEST_ENTRY(test_npy_files)};
  int rc = h_run(tests, sizeof tests / sizeof tests[0]);
  printf("%lu allocations failed: %lu out of memory, %lu absorbed by a fallback\n", total_faults,
         total_oom, total_absorbed);
  return rc;
}
