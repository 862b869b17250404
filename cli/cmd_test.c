/* SPDX-License-Identifier: Apache-2.0 */
/* onnxshape test: ONNX backend test directories (docs/cli.md). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* Type, dims and exact bytes (padding bits of a sub-byte type's last byte
 * aside; strings by content). */
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
    if (fa) {
      cli_print_dims(fa, got->rank, got->dims, NULL);
      fclose(fa);
    }
    if (fb) {
      cli_print_dims(fb, want->rank, want->dims, NULL);
      fclose(fb);
    }
    snprintf(why, cap, "dims %s, expected %s", a, b);
    return 0;
  }
  int64_t n = 0;
  (void)onnxshape_dims_count(want->dims, want->rank, &n);
  if (want->type == ONNXSHAPE_TYPE_STRING) {
    const onnxshape_string *g = got->data, *w = want->data;
    for (int64_t i = 0; i < n; i++) {
      if (g[i].length != w[i].length ||
          (w[i].length > 0 && memcmp(g[i].data, w[i].data, w[i].length) != 0)) {
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

/* The data set directories of a test, sorted; *n their number. */
static char **list_data_sets(const char *dir, size_t *n) {
  DIR *d = opendir(dir);
  *n = 0;
  if (d == NULL) return NULL;
  size_t cap = 0;
  char **names = NULL;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (strncmp(e->d_name, "test_data_set_", 14) != 0) continue;
    if (*n == cap) {
      cap = cap ? cap * 2 : 8;
      char **p = realloc(names, cap * sizeof *p);
      if (p == NULL) break;
      names = p;
    }
    names[*n] = strdup(e->d_name);
    if (names[*n] != NULL) (*n)++;
  }
  closedir(d);
  if (*n > 1) qsort(names, *n, sizeof *names, cmp_names);
  return names;
}

/* "input_<k>.pb" or "output_<k>.pb" with k in decimal (no leading zero):
 * 1 for an input, 2 for an output, 0 for any other name. */
static int data_file(const char *name, size_t *k) {
  int kind = strncmp(name, "input_", 6) == 0 ? 1 : strncmp(name, "output_", 7) == 0 ? 2 : 0;
  if (kind == 0) return 0;
  const char *p = name + (kind == 1 ? 6 : 7);
  if (p[0] < '0' || p[0] > '9' || (p[0] == '0' && p[1] != '.')) return 0;
  size_t v = 0;
  for (; *p >= '0' && *p <= '9'; p++) {
    if (v > (SIZE_MAX - 9) / 10) return 0;
    v = v * 10 + (size_t)(*p - '0');
  }
  if (strcmp(p, ".pb") != 0) return 0;
  *k = v;
  return kind;
}

/* The files of a data set must match the model (TEST-DATA-SETS): inputs
 * numbered 0 to n-1 for at most the model's inputs, outputs exactly 0 to
 * m-1 for its m outputs. *n_in is n. */
static int check_data_files(const onnxshape_model *m, const char *ds, size_t *n_in, char *why,
                            size_t cap) {
  size_t in_count = onnxshape_model_input_count(m), out_count = onnxshape_model_output_count(m);
  unsigned char *have_in = calloc(in_count + 1, 1), *have_out = calloc(out_count + 1, 1);
  DIR *d = opendir(ds);
  int ok = have_in != NULL && have_out != NULL && d != NULL;
  if (!ok) snprintf(why, cap, "cannot list the data set");
  struct dirent *e;
  while (ok && (e = readdir(d)) != NULL) {
    size_t k;
    int kind = data_file(e->d_name, &k);
    if (kind == 1 && k >= in_count) {
      snprintf(why, cap, "has %s but the model has %zu graph input%s", cli_shown(e->d_name),
               in_count, in_count == 1 ? "" : "s");
      ok = 0;
    } else if (kind == 2 && k >= out_count) {
      snprintf(why, cap, "has %s but the model has %zu output%s", cli_shown(e->d_name), out_count,
               out_count == 1 ? "" : "s");
      ok = 0;
    } else if (kind != 0) {
      (kind == 1 ? have_in : have_out)[k] = 1;
    }
  }
  if (d != NULL) closedir(d);
  *n_in = 0;
  while (ok && *n_in < in_count && have_in[*n_in]) (*n_in)++;
  for (size_t k = *n_in; ok && k < in_count; k++) {
    if (have_in[k]) {
      snprintf(why, cap, "has input_%zu.pb but no input_%zu.pb", k, *n_in);
      ok = 0;
    }
  }
  for (size_t k = 0; ok && k < out_count; k++) {
    if (!have_out[k]) {
      snprintf(why, cap, "output_%zu.pb is missing", k);
      ok = 0;
    }
  }
  free(have_in);
  free(have_out);
  return ok;
}

/* Reads dir/name as a tensor; 0 with why filled on failure. */
static int read_tensor(const char *ds, const char *name, onnxshape_owned_tensor **t, char *why,
                       size_t cap) {
  char *path = cli_join_path(ds, name);
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  if (path == NULL) snprintf(d.message, sizeof d.message, "out of memory");
  onnxshape_status st =
      path != NULL ? onnxshape_tensor_read_file(path, t, &d) : ONNXSHAPE_ERR_OUT_OF_MEMORY;
  free(path);
  if (st != ONNXSHAPE_OK) snprintf(why, cap, "%s", d.message);
  return st == ONNXSHAPE_OK;
}

/* 1, with why naming it, when a file the data set's run read (the model
 * itself when mapped, its external data, a mapped input) changed while in
 * use or a read of a mapped page faulted: the result is not to be trusted. */
static int files_changed(const onnxshape_model *m, onnxshape_owned_tensor **in, size_t n_in,
                         char *why, size_t cap) {
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  int changed = onnxshape_model_check_files(m, &d) != ONNXSHAPE_OK;
  for (size_t k = 0; !changed && in != NULL && k < n_in; k++) {
    changed = in[k] != NULL && onnxshape_owned_tensor_check_file(in[k], &d) != ONNXSHAPE_OK;
  }
  if (!changed && cli_bus_faults() > 0) {
    snprintf(d.message, sizeof d.message, "a file changed size while in use");
    changed = 1;
  }
  if (changed) snprintf(why, cap, "%s", d.message);
  return changed;
}

/* Runs one data set; fills why on failure. */
static int run_data_set(const onnxshape_model *m, const char *ds, char *why, size_t cap) {
  size_t n_in;
  if (!check_data_files(m, ds, &n_in, why, cap)) return 0;
  onnxshape_owned_tensor **in = calloc(n_in + 1, sizeof *in);
  onnxshape_binding *b = calloc(n_in + 1, sizeof *b);
  int ok = in != NULL && b != NULL;
  if (!ok) snprintf(why, cap, "out of memory");
  char file[64];
  for (size_t k = 0; ok && k < n_in; k++) {
    snprintf(file, sizeof file, "input_%zu.pb", k);
    ok = read_tensor(ds, file, &in[k], why, cap);
    b[k].name = onnxshape_model_input_name(m, k);
    b[k].tensor = onnxshape_owned_tensor_get(in[k]);
  }
  onnxshape_result *r = NULL;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  if (ok && onnxshape_model_run(m, b, n_in, &r, &d) != ONNXSHAPE_OK) {
    snprintf(why, cap, "%s", d.message);
    ok = 0;
  }
  for (size_t k = 0; ok && k < onnxshape_result_count(r); k++) {
    onnxshape_owned_tensor *want = NULL;
    snprintf(file, sizeof file, "output_%zu.pb", k);
    ok = read_tensor(ds, file, &want, why, cap);
    char detail[512];
    if (ok && !compare(onnxshape_result_tensor(r, k), onnxshape_owned_tensor_get(want), detail,
                       sizeof detail)) {
      char name[128];
      onnxshape_escape(name, sizeof name, onnxshape_result_name(r, k),
                       strlen(onnxshape_result_name(r, k)));
      snprintf(why, cap, "output %zu '%s': %s", k, name, detail);
      ok = 0;
    }
    if (want != NULL && onnxshape_owned_tensor_check_file(want, &d) != ONNXSHAPE_OK) {
      snprintf(why, cap, "%s", d.message);
      ok = 0;
    }
    onnxshape_owned_tensor_free(want);
  }
  /* Also when the run or a comparison failed: pages of zeros may be why. */
  if (files_changed(m, in, n_in, why, cap)) ok = 0;
  onnxshape_result_free(r);
  for (size_t k = 0; k < n_in && in != NULL; k++) onnxshape_owned_tensor_free(in[k]);
  free(in);
  free(b);
  return ok;
}

/* Runs the test directory dir; 0 with why filled when it fails. */
static int test_one(const char *dir, char *why, size_t cap) {
  onnxshape_model *m = NULL;
  char *path = cli_join_path(dir, "model.onnx");
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  if (path == NULL) snprintf(d.message, sizeof d.message, "out of memory");
  onnxshape_status st = path != NULL ? onnxshape_model_read_file(path, &m, &d)
                                     : ONNXSHAPE_ERR_OUT_OF_MEMORY;
  free(path);
  if (st != ONNXSHAPE_OK) {
    snprintf(why, cap, "%s", d.message);
    return 0;
  }
  size_t n_sets;
  char **sets = list_data_sets(dir, &n_sets);
  int ok = n_sets > 0;
  if (!ok) snprintf(why, cap, "no test_data_set_* directory");
  for (size_t s = 0; s < n_sets; s++) {
    char inner[900];
    char *ds = ok ? cli_join_path(dir, sets[s]) : NULL;
    if (ok && ds == NULL) {
      snprintf(why, cap, "out of memory");
      ok = 0;
    }
    if (ok && !run_data_set(m, ds, inner, sizeof inner)) {
      snprintf(why, cap, "%s: %s", cli_shown(sets[s]), inner);
      ok = 0;
    }
    free(ds);
    free(sets[s]);
  }
  free(sets);
  onnxshape_model_free(m);
  return ok;
}

int cli_test(int argc, char **argv) {
  int json = 0, n_dirs = 0;
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--json") == 0) {
      json = 1;
      continue;
    }
    if (argv[i][0] == '-' && argv[i][1] != '\0') {
      return cli_usage_error("unknown option '%s'", cli_shown(argv[i]));
    }
    struct stat sb;
    if (stat(argv[i], &sb) != 0 || !S_ISDIR(sb.st_mode)) {
      cli_error("'%s' is not a directory", cli_shown(argv[i]));
      return EXIT_USAGE;
    }
    n_dirs++;
  }
  if (n_dirs == 0) return cli_usage_error("%s", "test needs at least one DIR");
  int passed = 0, failed = 0;
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--json") == 0) continue;
    char why[1024] = "";
    int ok = test_one(argv[i], why, sizeof why);
    if (ok) passed++;
    else failed++;
    /* Each directory as given, so that results from several suites differ. */
    if (json) {
      fputs("{\"dir\":", stdout);
      cli_put_json_string(stdout, argv[i], strlen(argv[i]));
      printf(",\"result\":\"%s\"", ok ? "pass" : "fail");
      if (!ok) {
        fputs(",\"reason\":", stdout);
        cli_put_json_string(stdout, why, strlen(why));
      }
      fputs("}\n", stdout);
    } else {
      if (ok) printf("PASS %s\n", cli_shown(argv[i]));
      else printf("FAIL %s: %s\n", cli_shown(argv[i]), why);
    }
  }
  if (json) printf("{\"summary\":{\"passed\":%d,\"failed\":%d}}\n", passed, failed);
  else printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? EXIT_OK : EXIT_INVALID;
}
