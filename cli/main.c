/* SPDX-License-Identifier: Apache-2.0 */
/* The onnxshape command: run, test and infer ONNX models of Shape, Reshape,
 * Size, Constant and Identity nodes. Uses only the public API. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

enum { EXIT_OK = 0, EXIT_INVALID = 1, EXIT_USAGE = 2 };

static const char usage_text[] =
    "usage: onnxshape run MODEL [-i [NAME=]FILE.pb]... [-o DIR] [--json]\n"
    "       onnxshape test DIR...\n"
    "       onnxshape infer MODEL\n"
    "       onnxshape check --profile sonnx MODEL\n"
    "       onnxshape --help | --version\n";

static const char help_text[] =
    "onnxshape runs and checks ONNX models made of Shape, Reshape, Size, Constant\n"
    "and Identity nodes, in every operator version (opsets 1 to 28) and for every\n"
    "element type.\n"
    "\n"
    "commands:\n"
    "  run MODEL [-i [NAME=]FILE.pb]... [-o DIR] [--json]\n"
    "      Bind graph inputs from TensorProto files (-i FILE.pb without NAME= binds\n"
    "      the next unbound graph input in order), run the graph and print each\n"
    "      output: name, type, dims and values (long tensors abbreviated), or one\n"
    "      JSON object per output with --json. -o DIR writes DIR/output_<k>.pb for\n"
    "      the k-th output; on any error nothing is written.\n"
    "  test DIR...\n"
    "      Run ONNX backend test directories (model.onnx, test_data_set_*/input_*.pb\n"
    "      and output_*.pb) and compare type, dims and exact bytes. Prints PASS or\n"
    "      FAIL per directory and a last line 'N passed, M failed'.\n"
    "  infer MODEL\n"
    "      Print the type and dims of every value that can be determined without\n"
    "      input data; symbolic dims stay symbolic, '?' is unknown.\n"
    "  check --profile sonnx MODEL\n"
    "      Report every place the model breaks the ONNX safety-related profile\n"
    "      (SONNX) as far as is known without input data: an attribute left to its\n"
    "      default, a sparse tensor, or a node that cannot succeed whatever the\n"
    "      data. Exit 0 when the model conforms, 1 otherwise.\n"
    "\n"
    "exit status: 0 success; 1 invalid model, invalid input or failed test;\n"
    "2 usage or file error.\n";

static void error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("onnxshape: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

static int usage_error(const char *fmt, const char *arg) {
  error(fmt, arg);
  fputs(usage_text, stderr);
  return EXIT_USAGE;
}

/* File and usage problems are exit 2; everything about content is exit 1. */
static int exit_for(onnxshape_status st) {
  return st == ONNXSHAPE_ERR_IO ? EXIT_USAGE : EXIT_INVALID;
}

static int load_model(const char *path, onnxshape_model **m) {
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_status st = onnxshape_model_read_file(path, m, &d);
  if (st != ONNXSHAPE_OK) {
    /* File and decoding errors already name the file. */
    if (st == ONNXSHAPE_ERR_IO || st == ONNXSHAPE_ERR_MALFORMED) error("%s", d.message);
    else error("%s: %s", path, d.message);
    return exit_for(st);
  }
  return EXIT_OK;
}

/* dir/name into out; 0 when it does not fit. */
static int join_path(char *out, size_t cap, const char *dir, const char *name) {
  int n = snprintf(out, cap, "%s/%s", dir, name);
  return n >= 0 && (size_t)n < cap;
}

/* ---- run ------------------------------------------------------------- */

typedef struct bound_input {
  const char *name; /* NULL: the next unbound graph input */
  const char *file;
  onnxshape_owned_tensor *tensor;
} bound_input;

static int bind_positional(const onnxshape_model *m, bound_input *in, size_t n) {
  size_t next = 0;
  for (size_t i = 0; i < n; i++) {
    if (in[i].name != NULL) continue;
    for (;;) {
      if (next >= onnxshape_model_input_count(m)) {
        return usage_error("more -i files than graph inputs to bind ('%s' is left over)",
                           in[i].file);
      }
      const char *cand = onnxshape_model_input_name(m, next++);
      int taken = 0;
      for (size_t j = 0; j < n; j++) taken |= in[j].name != NULL && strcmp(in[j].name, cand) == 0;
      if (!taken) {
        in[i].name = cand;
        break;
      }
    }
  }
  return EXIT_OK;
}

/* Writes every output to a temporary name, then renames them all, so that a
 * failure leaves nothing behind. */
static int write_outputs(const char *dir, const onnxshape_result *r) {
  size_t n = onnxshape_result_count(r);
  char **tmp = calloc(n + 1, sizeof *tmp);
  int rc = tmp == NULL ? EXIT_INVALID : EXIT_OK;
  size_t written = 0;
  for (size_t k = 0; k < n && rc == EXIT_OK; k++) {
    size_t len = strlen(dir) + 64;
    tmp[k] = malloc(len);
    if (tmp[k] == NULL) {
      rc = EXIT_INVALID;
      break;
    }
    char file[64];
    snprintf(file, sizeof file, ".onnxshape-output_%zu.pb.partial", k);
    (void)join_path(tmp[k], len, dir, file);
    onnxshape_diag d;
    onnxshape_diag_init(&d);
    if (onnxshape_tensor_write_file(tmp[k], onnxshape_result_name(r, k),
                                    onnxshape_result_tensor(r, k), &d) != ONNXSHAPE_OK) {
      error("%s", d.message);
      rc = EXIT_USAGE;
      break;
    }
    written = k + 1;
  }
  for (size_t k = 0; k < written && rc == EXIT_OK; k++) {
    char final_name[4096], file[64];
    snprintf(file, sizeof file, "output_%zu.pb", k);
    if (!join_path(final_name, sizeof final_name, dir, file) || rename(tmp[k], final_name) != 0) {
      error("cannot write '%s': %s", final_name, strerror(errno));
      rc = EXIT_USAGE;
    }
  }
  for (size_t k = 0; k < n && tmp != NULL; k++) {
    if (tmp[k] != NULL && rc != EXIT_OK) unlink(tmp[k]);
    free(tmp[k]);
  }
  free(tmp);
  return rc;
}

static int cmd_run(int argc, char **argv) {
  const char *model_path = NULL, *out_dir = NULL;
  int json = 0;
  bound_input *in = calloc((size_t)argc + 1, sizeof *in);
  size_t n_in = 0;
  int rc = in == NULL ? EXIT_INVALID : EXIT_OK;
  for (int i = 0; i < argc && rc == EXIT_OK; i++) {
    const char *a = argv[i];
    if (strcmp(a, "-i") == 0 || strcmp(a, "-o") == 0) {
      if (i + 1 >= argc) {
        rc = usage_error("%s needs an argument", a);
        break;
      }
      const char *v = argv[++i];
      if (a[1] == 'o') {
        out_dir = v;
        continue;
      }
      const char *eq = strchr(v, '=');
      in[n_in].file = eq != NULL ? eq + 1 : v;
      if (eq != NULL) {
        in[n_in].name = strndup(v, (size_t)(eq - v));
        if (in[n_in].name == NULL) rc = EXIT_INVALID;
      }
      n_in++;
    } else if (strcmp(a, "--json") == 0) {
      json = 1;
    } else if (a[0] == '-' && a[1] != '\0') {
      rc = usage_error("unknown option '%s'", a);
    } else if (model_path == NULL) {
      model_path = a;
    } else {
      rc = usage_error("unexpected argument '%s'", a);
    }
  }
  if (rc == EXIT_OK && model_path == NULL) rc = usage_error("%s", "run needs a MODEL");
  if (rc == EXIT_OK && out_dir != NULL) {
    struct stat sb;
    if (stat(out_dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
      error("output directory '%s' does not exist", out_dir);
      rc = EXIT_USAGE;
    }
  }
  onnxshape_model *m = NULL;
  if (rc == EXIT_OK) rc = load_model(model_path, &m);
  /* Names given with NAME= are bound first; the others fill the remaining
   * graph inputs in order. Keep the NAME= strings to free them later. */
  char **owned_names = calloc(n_in + 1, sizeof *owned_names);
  for (size_t i = 0; i < n_in && owned_names != NULL; i++) owned_names[i] = (char *)in[i].name;
  if (rc == EXIT_OK) rc = bind_positional(m, in, n_in);
  onnxshape_binding *b = calloc(n_in + 1, sizeof *b);
  for (size_t i = 0; i < n_in && rc == EXIT_OK; i++) {
    onnxshape_diag d;
    onnxshape_diag_init(&d);
    onnxshape_status st = onnxshape_tensor_read_file(in[i].file, &in[i].tensor, &d);
    if (st != ONNXSHAPE_OK) {
      error("%s", d.message);
      rc = exit_for(st);
      break;
    }
    b[i].name = in[i].name;
    b[i].tensor = onnxshape_owned_tensor_get(in[i].tensor);
  }
  onnxshape_result *r = NULL;
  if (rc == EXIT_OK) {
    onnxshape_diag d;
    onnxshape_diag_init(&d);
    onnxshape_status st = onnxshape_model_run(m, b, n_in, &r, &d);
    if (st != ONNXSHAPE_OK) {
      error("%s: %s", model_path, d.message);
      rc = st == ONNXSHAPE_ERR_NOT_FOUND ? EXIT_USAGE : EXIT_INVALID;
    }
  }
  if (rc == EXIT_OK && out_dir != NULL) rc = write_outputs(out_dir, r);
  if (rc == EXIT_OK) {
    for (size_t k = 0; k < onnxshape_result_count(r); k++) {
      if (json) cli_print_json(stdout, onnxshape_result_name(r, k), onnxshape_result_tensor(r, k));
      else cli_print_tensor(stdout, onnxshape_result_name(r, k), onnxshape_result_tensor(r, k));
    }
  }
  onnxshape_result_free(r);
  for (size_t i = 0; i < n_in; i++) {
    onnxshape_owned_tensor_free(in[i].tensor);
    if (owned_names != NULL) free(owned_names[i]);
  }
  free(owned_names);
  free(b);
  free(in);
  onnxshape_model_free(m);
  return rc;
}

/* ---- test ------------------------------------------------------------ */

static int compare(const onnxshape_tensor *got, const onnxshape_tensor *want, char *why,
                   size_t cap) {
  if (got->type != want->type) {
    snprintf(why, cap, "type %s, expected %s", onnxshape_type_name(got->type),
             onnxshape_type_name(want->type));
    return 0;
  }
  int same_dims = got->rank == want->rank;
  for (size_t i = 0; same_dims && i < got->rank; i++) same_dims = got->dims[i] == want->dims[i];
  if (!same_dims) {
    char a[256] = "", b[256] = "";
    FILE *fa = fmemopen(a, sizeof a - 1, "w"), *fb = fmemopen(b, sizeof b - 1, "w");
    if (fa) { cli_print_dims(fa, got->rank, got->dims, NULL); fclose(fa); }
    if (fb) { cli_print_dims(fb, want->rank, want->dims, NULL); fclose(fb); }
    snprintf(why, cap, "dims %s, expected %s", a, b);
    return 0;
  }
  int64_t n = 0;
  (void)onnxshape_dims_count(want->dims, want->rank, &n);
  if (want->type == ONNXSHAPE_TYPE_STRING) {
    const onnxshape_string *g = got->data, *w = want->data;
    for (int64_t i = 0; i < n; i++) {
      if (g[i].length != w[i].length || (w[i].length > 0 && memcmp(g[i].data, w[i].data, w[i].length) != 0)) {
        snprintf(why, cap, "string %lld differs", (long long)i);
        return 0;
      }
    }
    return 1;
  }
  size_t bytes = 0;
  (void)onnxshape_type_storage_bytes(want->type, n, &bytes);
  const unsigned char *g = got->data, *w = want->data;
  const onnxshape_type_info *info = onnxshape_type_get(want->type);
  size_t full = bytes;
  unsigned char last_mask = 0xFF;
  if (info->bits < 8 && bytes > 0) {
    /* Only the bits of real elements count in the last, partial byte. */
    uint64_t used_bits = (uint64_t)n * info->bits - (uint64_t)(bytes - 1) * 8u;
    if (used_bits < 8) {
      full = bytes - 1;
      last_mask = (unsigned char)((1u << used_bits) - 1u);
    }
  }
  for (size_t i = 0; i < full; i++) {
    if (g[i] != w[i]) {
      snprintf(why, cap, "byte %zu is 0x%02x, expected 0x%02x", i, g[i], w[i]);
      return 0;
    }
  }
  if (full < bytes && ((g[full] ^ w[full]) & last_mask) != 0) {
    snprintf(why, cap, "byte %zu is 0x%02x, expected 0x%02x (padding bits ignored)", full,
             g[full], w[full]);
    return 0;
  }
  return 1;
}

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The data set directories of a test, sorted. */
static size_t list_data_sets(const char *dir, char ***out) {
  DIR *d = opendir(dir);
  *out = NULL;
  if (d == NULL) return 0;
  size_t n = 0, cap = 0;
  char **names = NULL;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (strncmp(e->d_name, "test_data_set_", 14) != 0) continue;
    if (n == cap) {
      cap = cap ? cap * 2 : 8;
      char **p = realloc(names, cap * sizeof *p);
      if (p == NULL) break;
      names = p;
    }
    names[n] = strdup(e->d_name);
    if (names[n] != NULL) n++;
  }
  closedir(d);
  qsort(names, n, sizeof *names, cmp_names);
  *out = names;
  return n;
}

/* Runs one data set; fills why on failure. */
static int run_data_set(const onnxshape_model *m, const char *ds, char *why, size_t cap) {
  size_t n_in = onnxshape_model_input_count(m);
  onnxshape_owned_tensor **in = calloc(n_in + 1, sizeof *in);
  onnxshape_binding *b = calloc(n_in + 1, sizeof *b);
  size_t n_bound = 0;
  int ok = in != NULL && b != NULL;
  char path[4096];
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  for (size_t k = 0; ok && k < n_in; k++) {
    char file[64];
    snprintf(file, sizeof file, "input_%zu.pb", k);
    if (!join_path(path, sizeof path, ds, file) || access(path, F_OK) != 0) break; /* fewer files: the rest keep their defaults */
    if (onnxshape_tensor_read_file(path, &in[k], &d) != ONNXSHAPE_OK) {
      snprintf(why, cap, "%s", d.message);
      ok = 0;
      break;
    }
    b[k].name = onnxshape_model_input_name(m, k);
    b[k].tensor = onnxshape_owned_tensor_get(in[k]);
    n_bound = k + 1;
  }
  onnxshape_result *r = NULL;
  if (ok && onnxshape_model_run(m, b, n_bound, &r, &d) != ONNXSHAPE_OK) {
    snprintf(why, cap, "%s", d.message);
    ok = 0;
  }
  for (size_t k = 0; ok && k < onnxshape_result_count(r); k++) {
    onnxshape_owned_tensor *want = NULL;
    char file[64];
    snprintf(file, sizeof file, "output_%zu.pb", k);
    if (!join_path(path, sizeof path, ds, file)) {
      snprintf(why, cap, "path too long");
      ok = 0;
      break;
    }
    if (onnxshape_tensor_read_file(path, &want, &d) != ONNXSHAPE_OK) {
      snprintf(why, cap, "%s", d.message);
      ok = 0;
      break;
    }
    char detail[512];
    if (!compare(onnxshape_result_tensor(r, k), onnxshape_owned_tensor_get(want), detail,
                 sizeof detail)) {
      snprintf(why, cap, "output %zu '%s': %s", k, onnxshape_result_name(r, k), detail);
      ok = 0;
    }
    onnxshape_owned_tensor_free(want);
  }
  onnxshape_result_free(r);
  for (size_t k = 0; k < n_in && in != NULL; k++) onnxshape_owned_tensor_free(in[k]);
  free(in);
  free(b);
  return ok;
}

static int test_one(const char *dir) {
  char path[4096], why[1024] = "";
  const char *base = strrchr(dir, '/');
  base = base != NULL && base[1] != '\0' ? base + 1 : dir;
  onnxshape_model *m = NULL;
  if (!join_path(path, sizeof path, dir, "model.onnx")) {
    printf("FAIL %s: path too long\n", base);
    return 0;
  }
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  if (onnxshape_model_read_file(path, &m, &d) != ONNXSHAPE_OK) {
    printf("FAIL %s: %s\n", base, d.message);
    return 0;
  }
  char **sets;
  size_t n_sets = list_data_sets(dir, &sets);
  int ok = n_sets > 0;
  if (!ok) snprintf(why, sizeof why, "no test_data_set_* directory");
  for (size_t s = 0; s < n_sets; s++) {
    char ds[4096], inner[900];
    if (ok && !join_path(ds, sizeof ds, dir, sets[s])) {
      snprintf(why, sizeof why, "path too long");
      ok = 0;
    }
    if (ok && !run_data_set(m, ds, inner, sizeof inner)) {
      snprintf(why, sizeof why, "%s: %s", sets[s], inner);
      ok = 0;
    }
    free(sets[s]);
  }
  free(sets);
  onnxshape_model_free(m);
  if (ok) printf("PASS %s\n", base);
  else printf("FAIL %s: %s\n", base, why);
  return ok;
}

static int cmd_test(int argc, char **argv) {
  if (argc == 0) return usage_error("%s", "test needs at least one DIR");
  int passed = 0, failed = 0;
  for (int i = 0; i < argc; i++) {
    struct stat sb;
    if (stat(argv[i], &sb) != 0 || !S_ISDIR(sb.st_mode)) {
      error("'%s' is not a directory", argv[i]);
      return EXIT_USAGE;
    }
  }
  for (int i = 0; i < argc; i++) {
    if (test_one(argv[i])) passed++;
    else failed++;
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? EXIT_OK : EXIT_INVALID;
}

/* ---- infer ----------------------------------------------------------- */

static int cmd_infer(int argc, char **argv) {
  if (argc != 1) return usage_error("%s", "infer needs exactly one MODEL");
  onnxshape_model *m = NULL;
  int rc = load_model(argv[0], &m);
  if (rc != EXIT_OK) return rc;
  onnxshape_inference *inf = NULL;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_status st = onnxshape_model_infer(m, &inf, &d);
  if (st != ONNXSHAPE_OK) {
    error("%s: %s", argv[0], d.message);
    onnxshape_model_free(m);
    return EXIT_INVALID;
  }
  for (size_t i = 0; i < onnxshape_inference_count(inf); i++) {
    const onnxshape_value_info *v = onnxshape_inference_get(inf, i);
    printf("%s: %s ", v->name, v->type != 0 ? onnxshape_type_name(v->type) : "?");
    if (v->rank_known) cli_print_dims(stdout, v->rank, v->dims, v->params);
    else fputs("[...]", stdout);
    if (v->value != NULL && v->value->type == ONNXSHAPE_TYPE_INT64) {
      /* Small known int64 values (shapes) are worth showing. */
      int64_t n = 0;
      if (onnxshape_dims_count(v->value->dims, v->value->rank, &n) == ONNXSHAPE_OK && n <= 16) {
        fputs(" = ", stdout);
        const unsigned char *p = v->value->data;
        if (v->value->rank > 0) fputc('[', stdout);
        for (int64_t k = 0; k < n; k++) {
          int64_t x;
          memcpy(&x, p + 8 * k, 8);
          printf("%s%lld", k ? ", " : "", (long long)x);
        }
        if (v->value->rank > 0) fputc(']', stdout);
      }
    }
    fputc('\n', stdout);
  }
  onnxshape_inference_free(inf);
  onnxshape_model_free(m);
  return EXIT_OK;
}

/* ---- check ------------------------------------------------------------ */

static int cmd_check(int argc, char **argv) {
  const char *profile = NULL, *model = NULL;
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--profile") == 0) {
      if (i + 1 >= argc) return usage_error("%s", "--profile needs an argument");
      profile = argv[++i];
    } else if (strncmp(argv[i], "--profile=", 10) == 0) {
      profile = argv[i] + 10;
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      return usage_error("unknown option '%s'", argv[i]);
    } else if (model != NULL) {
      return usage_error("unexpected argument '%s'", argv[i]);
    } else {
      model = argv[i];
    }
  }
  if (profile == NULL) return usage_error("%s", "check needs --profile sonnx");
  if (strcmp(profile, "sonnx") != 0) {
    return usage_error("unknown profile '%s' (known: sonnx)", profile);
  }
  if (model == NULL) return usage_error("%s", "check needs a MODEL");
  onnxshape_profile_report *r = NULL;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_status st = onnxshape_profile_check_sonnx_file(model, &r, &d);
  if (st != ONNXSHAPE_OK) {
    if (st == ONNXSHAPE_ERR_IO || st == ONNXSHAPE_ERR_MALFORMED) error("%s", d.message);
    else error("%s: %s", model, d.message);
    return exit_for(st);
  }
  size_t n = onnxshape_profile_count(r);
  static const char *const tags[] = {"", "default", "sparse", "domain"};
  for (size_t i = 0; i < n; i++) {
    printf("%s: %s [sonnx-%s]\n", model, onnxshape_profile_message(r, i),
           tags[onnxshape_profile_rule_of(r, i)]);
  }
  if (n == 0) printf("%s: conforms to the SONNX profile\n", model);
  else printf("%s: %zu finding%s; the model does not conform to the SONNX profile\n", model, n,
              n == 1 ? "" : "s");
  onnxshape_profile_free(r);
  return n == 0 ? EXIT_OK : EXIT_INVALID;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs(usage_text, stderr);
    return EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
    fputs(usage_text, stdout);
    fputc('\n', stdout);
    fputs(help_text, stdout);
    return EXIT_OK;
  }
  if (strcmp(cmd, "--version") == 0) {
    printf("onnxshape %s (ONNX opsets 1 to %d)\n", ONNXSHAPE_VERSION_STRING, ONNXSHAPE_MAX_OPSET);
    return EXIT_OK;
  }
  if (strcmp(cmd, "run") == 0) return cmd_run(argc - 2, argv + 2);
  if (strcmp(cmd, "test") == 0) return cmd_test(argc - 2, argv + 2);
  if (strcmp(cmd, "infer") == 0) return cmd_infer(argc - 2, argv + 2);
  if (strcmp(cmd, "check") == 0) return cmd_check(argc - 2, argv + 2);
  return usage_error("unknown command '%s'", cmd);
}
