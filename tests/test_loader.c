/* SPDX-License-Identifier: Apache-2.0 */
/* The loader's cost under hostile names (src/onnx/hash.c): names crafted to
 * collide under one hash key make loading quadratic while that key is in
 * use, and cost no more than plain names under another key, as every
 * process draws its own. Work is counted (index entries looked at,
 * onnxshape__probes), not timed. Also the loader's fitting of a message
 * into a diagnostic (onnxshape__fit_message). */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"
#include "load.h"

/* ---- a growing protobuf writer --------------------------------------------- */

typedef struct wbuf {
  unsigned char *b;
  size_t n, cap;
} wbuf;

static void w_byte(wbuf *o, unsigned char v) {
  if (o->n == o->cap) {
    size_t cap = o->cap ? 2 * o->cap : 256;
    unsigned char *b = realloc(o->b, cap);
    if (b == NULL) abort();
    o->b = b;
    o->cap = cap;
  }
  o->b[o->n++] = v;
}

static void w_varint(wbuf *o, uint64_t v) {
  while (v >= 0x80) {
    w_byte(o, (unsigned char)(v | 0x80));
    v >>= 7;
  }
  w_byte(o, (unsigned char)v);
}

static void w_bytes(wbuf *o, unsigned field, const void *p, size_t n) {
  w_varint(o, (uint64_t)field << 3 | 2);
  w_varint(o, n);
  for (size_t i = 0; i < n; i++) w_byte(o, ((const unsigned char *)p)[i]);
}

static void w_str(wbuf *o, unsigned field, const char *s) { w_bytes(o, field, s, strlen(s)); }

static void w_int(wbuf *o, unsigned field, uint64_t v) {
  w_varint(o, (uint64_t)field << 3);
  w_varint(o, v);
}

/* A model whose graph has the n float inputs names[0..n-1] and outputs the
 * first: loading defines n names in one graph's index. */
static wbuf inputs_model(char names[][16], size_t n) {
  wbuf graph = {NULL, 0, 0}, model = {NULL, 0, 0}, opset = {NULL, 0, 0};
  static const unsigned char float_type[] = {0x0a, 0x02, 0x08, 0x01}; /* tensor_type{elem_type 1} */
  for (size_t i = 0; i <= n; i++) {
    wbuf vi = {NULL, 0, 0};
    w_str(&vi, 1, names[i < n ? i : 0]);
    w_bytes(&vi, 2, float_type, sizeof float_type);
    w_bytes(&graph, i < n ? 11 : 12, vi.b, vi.n);
    free(vi.b);
  }
  w_str(&opset, 1, "");
  w_int(&opset, 2, 13);
  w_int(&model, 1, 8);
  w_bytes(&model, 8, opset.b, opset.n);
  w_bytes(&model, 7, graph.b, graph.n);
  free(graph.b);
  free(opset.b);
  return model;
}

/* The index entries looked at while loading the model. */
static uint64_t load_probes(const wbuf *m) {
  onnxshape_model *model = NULL;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  uint64_t before = onnxshape__probes;
  onnxshape_status st = onnxshape_model_parse(m->b, m->n, NULL, &model, &d);
  uint64_t probes = onnxshape__probes - before;
  CHECK_STATUS(st, ONNXSHAPE_OK);
  onnxshape_model_free(model);
  return probes;
}

#define N_NAMES 2048u
/* The graph's index: the power of two at least twice N_NAMES + 1. */
#define INDEX_MASK 8191u

/* covers: LIMIT-HASH */
static void test_crafted_names_cost_no_more(void) {
  static char plain[N_NAMES][16], crafted[N_NAMES][16];
  for (size_t i = 0; i < N_NAMES; i++) snprintf(plain[i], sizeof plain[i], "x%zu", i);
  /* Names that all land in one slot of the index under a key fixed here,
   * as an attacker would make them offline for an unkeyed hash. */
  onnxshape__hash_set_key(0x0123456789abcdefu, 0xfedcba9876543210u);
  size_t found = 0;
  for (uint64_t k = 0; found < N_NAMES; k++) {
    char name[16];
    snprintf(name, sizeof name, "c%llx", (unsigned long long)k);
    if ((onnxshape__name_hash(name) & INDEX_MASK) == 7u) {
      memcpy(crafted[found++], name, sizeof name);
    }
  }
  wbuf pm = inputs_model(plain, N_NAMES), cm = inputs_model(crafted, N_NAMES);
  uint64_t crafted_fixed = load_probes(&cm);
  /* Under the key they were made for, each name probes past all the
   * earlier ones: quadratic. */
  CHECK(crafted_fixed >= (uint64_t)N_NAMES * (N_NAMES - 1) / 2);
  /* Under other keys (a process draws its own), they cost what plain
   * names cost, within a factor of 2. */
  const uint64_t keys[3][2] = {{1, 2}, {0x9e3779b97f4a7c15u, 0xbf58476d1ce4e5b9u},
                               {0xdeadbeefu, 0x5eedu}};
  for (size_t k = 0; k < 3; k++) {
    onnxshape__hash_set_key(keys[k][0], keys[k][1]);
    uint64_t p = load_probes(&pm), c = load_probes(&cm);
    fprintf(stderr, "key %zu: plain %llu, crafted %llu probes (crafted under their key: %llu)\n",
            k, (unsigned long long)p, (unsigned long long)c, (unsigned long long)crafted_fixed);
    CHECK(c <= 2 * p + 64);
    CHECK(c < crafted_fixed / 100);
  }
  free(pm.b);
  free(cm.b);
}

static const char *self; /* this program (argv[0]: under qemu-user, /proc/self/exe is qemu) */

/* The probes of loading `path` in a new process of this program, which
 * draws its own key, as every real run does; 0 when that fails. */
static uint64_t probes_in_new_process(const char *path) {
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "ONNXSHAPE_PROBES_OF='%s' '%s'", path, self);
  FILE *p = popen(cmd, "r");
  if (p == NULL) return 0;
  unsigned long long v = 0;
  if (fscanf(p, "%llu", &v) != 1) v = 0;
  pclose(p);
  return v;
}

static int write_model(const char *path, const wbuf *m) {
  FILE *f = fopen(path, "wb");
  if (f == NULL) return 0;
  int ok = fwrite(m->b, 1, m->n, f) == m->n;
  return fclose(f) == 0 && ok;
}

/* covers: LIMIT-HASH */
/* Names made to collide under a key fixed here cost a real run (a new
 * process, with the key it draws) what plain names cost. */
static void test_crafted_names_in_real_runs(void) {
  static char plain[N_NAMES][16], crafted[N_NAMES][16];
  for (size_t i = 0; i < N_NAMES; i++) snprintf(plain[i], sizeof plain[i], "x%zu", i);
  onnxshape__hash_set_key(42, 43);
  size_t found = 0;
  for (uint64_t k = 0; found < N_NAMES; k++) {
    char name[16];
    snprintf(name, sizeof name, "d%llx", (unsigned long long)k);
    if ((onnxshape__name_hash(name) & INDEX_MASK) == 1u) memcpy(crafted[found++], name, sizeof name);
  }
  wbuf pm = inputs_model(plain, N_NAMES), cm = inputs_model(crafted, N_NAMES);
  char dir[] = "/tmp/onnxshape-loader-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char pp[64], cp[64];
  snprintf(pp, sizeof pp, "%s/plain.onnx", dir);
  snprintf(cp, sizeof cp, "%s/crafted.onnx", dir);
  CHECK(write_model(pp, &pm) && write_model(cp, &cm));
  uint64_t here = load_probes(&cm);
  CHECK(here >= (uint64_t)N_NAMES * (N_NAMES - 1) / 2);
  for (int run = 0; run < 3; run++) {
    uint64_t p = probes_in_new_process(pp), c = probes_in_new_process(cp);
    fprintf(stderr, "process %d: plain %llu, crafted %llu probes\n", run, (unsigned long long)p,
            (unsigned long long)c);
    CHECK(p > 0 && c > 0 && c <= 2 * p + 64);
  }
  unlink(pp);
  unlink(cp);
  rmdir(dir);
  free(pm.b);
  free(cm.b);
}

/* The 64-bit hash of `name` in a new process of this program, under the
 * key it draws; *ok is 0 when that fails. */
static uint64_t hash_in_new_process(const char *name, int *ok) {
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "ONNXSHAPE_HASH_OF='%s' '%s'", name, self);
  FILE *p = popen(cmd, "r");
  unsigned long long v = 0;
  *ok = p != NULL && fscanf(p, "%llx", &v) == 1;
  if (p != NULL) *ok = pclose(p) == 0 && *ok;
  return (uint64_t)v;
}

/* covers: LIMIT-HASH */
/* The key a process draws is not fixed: three processes hash a name three
 * ways, none of them the way a zero key does (with a constant key, drawn
 * or not, they agree and this fails); and the hash depends on the key. */
static void test_hash_depends_on_key(void) {
  int ok[3];
  uint64_t h[3];
  for (int i = 0; i < 3; i++) h[i] = hash_in_new_process("input_ids", &ok[i]);
  CHECK(ok[0] && ok[1] && ok[2]);
  onnxshape__hash_set_key(0, 0);
  uint64_t zero = onnxshape__bytes_hash("input_ids", 9);
  fprintf(stderr, "input_ids: %016llx, %016llx, %016llx in three processes; %016llx under 0\n",
          (unsigned long long)h[0], (unsigned long long)h[1], (unsigned long long)h[2],
          (unsigned long long)zero);
  CHECK(h[0] != h[1] && h[1] != h[2] && h[0] != h[2]);
  CHECK(h[0] != zero && h[1] != zero && h[2] != zero);
  onnxshape__hash_set_key(1, 2);
  size_t a = onnxshape__name_hash("input_ids");
  onnxshape__hash_set_key(3, 4);
  size_t b = onnxshape__name_hash("input_ids");
  CHECK(a != b);
  onnxshape__hash_set_key(1, 2);
  CHECK(onnxshape__name_hash("input_ids") == a);
}

/* ---- model-local functions ------------------------------------------------ */

/* A model of n_calls calls of function c:F (its body Identity(A) -> Y,
 * with input name A of name_len bytes) that imports the default domain at
 * 13 after n_imports imports of other domains; the main graph's input x
 * feeds every call. */
static wbuf function_model(size_t n_imports, size_t name_len, size_t n_calls) {
  wbuf fn = {NULL, 0, 0}, body = {NULL, 0, 0}, imp = {NULL, 0, 0}, graph = {NULL, 0, 0};
  wbuf model = {NULL, 0, 0}, opset = {NULL, 0, 0};
  char *a = malloc(name_len + 1);
  if (a == NULL) abort();
  memset(a, 'A', name_len);
  a[name_len] = '\0';
  w_str(&body, 1, a);
  w_str(&body, 2, "Y");
  w_str(&body, 4, "Identity");
  w_str(&fn, 1, "F");
  w_str(&fn, 4, a);
  w_str(&fn, 5, "Y");
  w_bytes(&fn, 7, body.b, body.n);
  w_str(&imp, 1, "d");
  w_int(&imp, 2, 1);
  for (size_t i = 0; i < n_imports; i++) w_bytes(&fn, 9, imp.b, imp.n);
  imp.n = 0;
  w_str(&imp, 1, "");
  w_int(&imp, 2, 13);
  w_bytes(&fn, 9, imp.b, imp.n);
  w_str(&fn, 10, "c");
  static const unsigned char float_type[] = {0x0a, 0x02, 0x08, 0x01};
  for (size_t i = 0; i < n_calls; i++) {
    wbuf call = {NULL, 0, 0};
    char out[32];
    snprintf(out, sizeof out, "y%zu", i);
    w_str(&call, 1, "x");
    w_str(&call, 2, out);
    w_str(&call, 4, "F");
    w_str(&call, 7, "c");
    w_bytes(&graph, 1, call.b, call.n);
    free(call.b);
  }
  for (int k = 0; k < 2; k++) {
    wbuf vi = {NULL, 0, 0};
    w_str(&vi, 1, k == 0 ? "x" : "y0");
    w_bytes(&vi, 2, float_type, sizeof float_type);
    w_bytes(&graph, k == 0 ? 11 : 12, vi.b, vi.n);
    free(vi.b);
  }
  w_int(&model, 1, 8);
  w_str(&opset, 1, "");
  w_int(&opset, 2, 13);
  w_bytes(&model, 8, opset.b, opset.n);
  opset.n = 0;
  w_str(&opset, 1, "c");
  w_int(&opset, 2, 1);
  w_bytes(&model, 8, opset.b, opset.n);
  w_bytes(&model, 7, graph.b, graph.n);
  w_bytes(&model, 25, fn.b, fn.n);
  free(a);
  free(fn.b);
  free(body.b);
  free(imp.b);
  free(graph.b);
  free(opset.b);
  return model;
}

/* covers: ANALYSIS-FUNCTIONS */
/* A function's opset is found once, not per call (a review found 20,000
 * calls of a function of 200,000 imports taking 20 s): loading 1,000
 * calls of a function of 1,000 imports looks at about as many entries as
 * 1,000 calls of one with a single import, not a million more. */
static void test_function_imports_once(void) {
  wbuf few = function_model(0, 1, 1000), many = function_model(1000, 1, 1000);
  uint64_t base = load_probes(&few), p = load_probes(&many);
  fprintf(stderr, "1,000 calls: %llu probes with 1 import, %llu with 1,001\n",
          (unsigned long long)base, (unsigned long long)p);
  CHECK(p <= base + 2 * 1001);
  free(few.b);
  free(many.b);
}

/* The bytes of names hashed or compared while loading the model. */
static uint64_t load_name_bytes(const wbuf *m) {
  uint64_t before = onnxshape__name_bytes;
  (void)load_probes(m);
  return onnxshape__name_bytes - before;
}

/* covers: ANALYSIS-FUNCTIONS */
/* A call's lookups of its body's names cost the same whatever the names'
 * lengths (a review found 20,000 calls of a body with a 1 MB name taking
 * 47 s): with a 4,096-byte name, 500 calls hash and compare no more bytes
 * than with a 1-byte name, but for the long name's bytes a few times (it
 * is interned once). */
static void test_function_names_hashed_once(void) {
  wbuf shortm = function_model(0, 1, 500), longm = function_model(0, 4096, 500);
  uint64_t base = load_name_bytes(&shortm), b = load_name_bytes(&longm);
  fprintf(stderr, "500 calls: %llu name bytes with a 1-byte name, %llu with 4,096 bytes\n",
          (unsigned long long)base, (unsigned long long)b);
  CHECK(b <= base + 4 * 4096);
  free(shortm.b);
  free(longm.b);
}

/* ---- messages fitted ------------------------------------------------------- */

/* Whether the n bytes at s are whole pieces of escaped text: each
 * backslash starts \\, \\n, \\t, \\r or \\xNN, each UTF-8 sequence is whole. */
static int whole_pieces(const char *s, size_t n) {
  for (size_t i = 0; i < n;) {
    unsigned char c = (unsigned char)s[i];
    size_t k = c == '\\'  ? (i + 1 < n && s[i + 1] == 'x' ? 4 : 2)
               : c >= 0xf0 ? 4
               : c >= 0xe0 ? 3
               : c >= 0xc0 ? 2
                           : 1;
    if (i + k > n) return 0;
    if (c == '\\' && k == 4 && !(isxdigit((unsigned char)s[i + 2]) && isxdigit((unsigned char)s[i + 3])))
      return 0;
    for (size_t j = 1; c >= 0xc0 && j < k; j++) {
      if (((unsigned char)s[i + j] & 0xc0) != 0x80) return 0;
    }
    if (c >= 0x80 && c < 0xc0) return 0;
    i += k;
  }
  return 1;
}

/* covers: TEXT-ESCAPE ANALYSIS-FINDINGS */
/* A finding placed in a message it outgrows (review finding 9: "in PATH: "
 * dropped the whole finding, " (known without input data)" was dropped)
 * loses its middle, between words, marked; its start and end stay. Without
 * a space near the cut, the cut falls between two characters, never inside
 * an escape or a UTF-8 sequence. out may be the body. */
static void test_fit_message(void) {
  char out[ONNXSHAPE_DIAG_SIZE];
  onnxshape__fit_message(out, sizeof out, "in g: ", "Reshape-14: shape[0] = -2", " (t)");
  CHECK_STR(out, "in g: Reshape-14: shape[0] = -2 (t)");
  /* 30 bytes of room for 55: 12 to the end from a word's start, the rest
   * to the start up to a word's end */
  onnxshape__fit_message(out, 41, "in g: ",
                         "alpha beta gamma delta epsilon zeta eta theta iota kappa", " (t)");
  CHECK_STR(out, "in g: alpha beta ... iota kappa (t)");
  /* the body given as out (in_graph's use) */
  char body[ONNXSHAPE_DIAG_SIZE];
  memset(body, 0, sizeof body);
  for (size_t i = 0; i + 6 < sizeof body; i += 6) memcpy(body + i, "word, ", 6);
  memcpy(body + 300, "rule.", 6);
  onnxshape__fit_message(body, sizeof body, "in a/very/long/path: ", body, " (known)");
  CHECK(strlen(body) < sizeof body);
  CHECK(strncmp(body, "in a/very/long/path: word, word,", 32) == 0);
  CHECK(strstr(body, ", ... word, ") != NULL);
  CHECK(strlen(body) > 19 && strcmp(body + strlen(body) - 19, "word, rule. (known)") == 0);
  /* no spaces: escapes and UTF-8 sequences stay whole */
  char esc[ONNXSHAPE_DIAG_SIZE] = "", utf[ONNXSHAPE_DIAG_SIZE] = "";
  for (size_t i = 0; i + 4 < sizeof esc; i += 4) memcpy(esc + i, i % 8 ? "\\x7f" : "\\n\\t", 4);
  for (size_t i = 0; i + 3 < sizeof utf; i += 3) memcpy(utf + i, i % 2 ? "\xc3\xa9" "a" : "a\xc3\xa9", 3);
  for (size_t cap = 16; cap <= 64; cap++) {
    onnxshape__fit_message(out, cap, "h: ", esc, " t");
    CHECK(strlen(out) < cap && strncmp(out, "h: ", 3) == 0 && strstr(out, "...") != NULL);
    CHECK(strcmp(out + strlen(out) - 2, " t") == 0);
    char *dots = strstr(out, "...");
    CHECK(whole_pieces(out + 3, (size_t)(dots - out) - 3));
    CHECK(whole_pieces(dots + 3, strlen(dots + 3) - 2));
    onnxshape__fit_message(out, cap, "", utf, "");
    dots = strstr(out, "...");
    CHECK(strlen(out) < cap && dots != NULL && whole_pieces(out, (size_t)(dots - out)) &&
          whole_pieces(dots + 3, strlen(dots + 3)));
  }
}

int main(int argc, char **argv) {
  self = argc > 0 ? argv[0] : "test_loader";
  /* As a child of test_crafted_names_in_real_runs: the probes of loading
   * one file under the key this process drew. */
  /* As a child of test_hash_depends_on_key: a name's hash under the key
   * this process drew. */
  const char *name = getenv("ONNXSHAPE_HASH_OF");
  if (name != NULL) {
    printf("%llx\n", (unsigned long long)onnxshape__bytes_hash(name, strlen(name)));
    return 0;
  }
  const char *path = getenv("ONNXSHAPE_PROBES_OF");
  if (path != NULL) {
    FILE *f = fopen(path, "rb");
    wbuf m = {NULL, 0, 0};
    int c;
    while (f != NULL && (c = fgetc(f)) != EOF) w_byte(&m, (unsigned char)c);
    if (f != NULL) fclose(f);
    printf("%llu\n", (unsigned long long)load_probes(&m));
    free(m.b);
    return 0;
  }
  static const h_test tests[] = {TEST_ENTRY(test_crafted_names_cost_no_more),
                                 TEST_ENTRY(test_crafted_names_in_real_runs),
                                 TEST_ENTRY(test_hash_depends_on_key),
                                 TEST_ENTRY(test_function_imports_once),
                                 TEST_ENTRY(test_function_names_hashed_once),
                                 TEST_ENTRY(test_fit_message)};
  return h_run(tests, sizeof tests / sizeof tests[0]);
}
