/* SPDX-License-Identifier: Apache-2.0 */
/* onnxshape test: ONNX backend test directories, alone or as suites of
 * test_* directories (docs/cli.md). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* Elements of a failed output listed with their values; the rest are
 * counted. */
#define SHOW_MISMATCHES 5
/* Entries one directory may contribute (test_* cases of a suite,
 * test_data_set_* of a case): a directory made to hold millions is refused
 * rather than read into memory (LIMIT-TEST-ENTRIES). */
#define MAX_ENTRIES 65536

enum { PASS, FAIL, SKIP };

/* What test made of one directory. */
typedef struct outcome {
  int result;
  char why[1024]; /* FAIL and SKIP: the reason, escaped */
  char *detail;   /* a failure on elements: the elements listed, as indented lines or,
                     with json, as the "mismatch" member (malloc; else NULL) */
} outcome;

/* The elements of an output that differ from the expected ones. */
typedef struct differences {
  size_t count;               /* all of them */
  size_t shown;               /* those in at[] */
  size_t at[SHOW_MISMATCHES]; /* the first ones, row-major indexes */
} differences;

/* 1 when element i of a and b, of one type of `bits` bits an element
 * (0: string), differ: exact bits (a float NaN equals only the same NaN),
 * strings by content. */
static int element_differs(const onnxshape_tensor *a, const onnxshape_tensor *b, uint32_t bits,
                           size_t i) {
  if (bits == 0) {
    const onnxshape_string *s = (const onnxshape_string *)a->data + i;
    const onnxshape_string *t = (const onnxshape_string *)b->data + i;
    return s->length != t->length || (t->length > 0 && memcmp(s->data, t->data, t->length) != 0);
  }
  const unsigned char *p = a->data, *q = b->data;
  if (bits < 8) { /* packed from the low bits up; a partial last byte's padding never counts */
    size_t byte = i / (8u / bits);
    unsigned shift = (unsigned)(i % (8u / bits)) * bits;
    return ((((unsigned)p[byte] ^ q[byte]) >> shift) & ((1u << bits) - 1u)) != 0;
  }
  size_t size = bits / 8u;
  return memcmp(p + i * size, q + i * size, size) != 0;
}

/* Compares by type, dims, then element by element. 1 when equal; else 0
 * with why filled and, for elements, *diff. */
static int compare(const onnxshape_tensor *got, const onnxshape_tensor *want, char *why, size_t cap,
                   differences *diff) {
  memset(diff, 0, sizeof *diff);
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
  const onnxshape_type_info *info = onnxshape_type_get(want->type);
  int64_t count = 0;
  size_t bytes = 0;
  if (info == NULL || onnxshape_dims_count(want->dims, want->rank, &count) != ONNXSHAPE_OK ||
      (uint64_t)count > SIZE_MAX ||
      onnxshape_type_storage_bytes(want->type, count, &bytes) != ONNXSHAPE_OK ||
      got->data_bytes < bytes || want->data_bytes < bytes) {
    snprintf(why, cap, "%s data of %zu bytes, expected %zu", onnxshape_type_name(want->type),
             got->data_bytes, bytes);
    return 0;
  }
  size_t n = (size_t)count;
  if (info->bits >= 8 && (bytes == 0 || memcmp(got->data, want->data, bytes) == 0)) return 1;
  for (size_t i = 0; i < n; i++) {
    if (!element_differs(got, want, info->bits, i)) continue;
    if (diff->shown < SHOW_MISMATCHES) diff->at[diff->shown++] = i;
    diff->count++;
  }
  if (diff->count == 0) return 1;
  snprintf(why, cap, "%zu of %zu element%s differ%s", diff->count, n, n == 1 ? "" : "s",
           diff->count == 1 ? "s" : "");
  return 0;
}

/* Element i of t as it prints (cli_print_value; malloc), or NULL. */
static char *value_text(const onnxshape_tensor *t, size_t i, int json) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (f == NULL) return NULL;
  cli_print_value(f, t, i, json);
  if (fclose(f) != 0) {
    free(text);
    return NULL;
  }
  return text;
}

/* 1 when two values' texts look the same to a reader: the same text (NaNs
 * of other payloads) or equal numbers (-0 and 0, which JSON readers may
 * take for one). Their bits then tell them apart. */
static int print_alike(const char *a, const char *b) {
  if (strcmp(a, b) == 0) return 1;
  char *end_a, *end_b;
  double x = strtod(a, &end_a), y = strtod(b, &end_b);
  return end_a != a && *end_a == '\0' && end_b != b && *end_b == '\0' && x == y;
}

/* The bits of element i, most significant first: "0x7e01". For values that
 * print alike but differ (NaNs with other payloads). */
static void put_bits(FILE *f, const onnxshape_tensor *t, uint32_t bits, size_t i) {
  const unsigned char *p = t->data;
  if (bits < 8) {
    unsigned shift = (unsigned)(i % (8u / bits)) * bits;
    fprintf(f, "0x%x", (p[i / (8u / bits)] >> shift) & ((1u << bits) - 1u));
    return;
  }
  fputs("0x", f);
  for (size_t k = bits / 8u; k-- > 0;) fprintf(f, "%02x", p[i * (bits / 8u) + k]);
}

/* Row-major index i as "[i0,i1,...]" in t's dims (the JSON array too);
 * coords has t->rank entries. */
static void put_index(FILE *f, const onnxshape_tensor *t, size_t i, uint64_t *coords) {
  uint64_t rest = i;
  for (size_t k = t->rank; k-- > 0;) {
    coords[k] = rest % (uint64_t)t->dims[k]; /* dims > 0: the tensor has elements */
    rest /= (uint64_t)t->dims[k];
  }
  fputc('[', f);
  for (size_t k = 0; k < t->rank; k++) fprintf(f, "%s%" PRIu64, k > 0 ? "," : "", coords[k]);
  fputc(']', f);
}

/* The differing elements listed (human lines, or the JSON member
 * "mismatch"); malloc, or NULL when out of memory. */
static char *describe(const onnxshape_tensor *got, const onnxshape_tensor *want,
                      const differences *diff, const char *set, size_t output, const char *name,
                      int json) {
  uint32_t bits = onnxshape_type_get(want->type)->bits;
  uint64_t *coords = malloc((want->rank + 1) * sizeof *coords);
  char *text = NULL;
  size_t len = 0;
  FILE *f = coords != NULL ? open_memstream(&text, &len) : NULL;
  int ok = f != NULL;
  if (ok && json) {
    fputs(",\"mismatch\":{\"data_set\":", f);
    cli_put_json_string(f, set, strlen(set));
    fprintf(f, ",\"output\":%zu,\"name\":", output);
    cli_put_json_string(f, name, strlen(name));
    fprintf(f, ",\"type\":\"%s\",\"count\":%zu,\"elements\":[", onnxshape_type_name(want->type),
            diff->count);
  }
  for (size_t j = 0; ok && j < diff->shown; j++) {
    size_t i = diff->at[j];
    char *g = value_text(got, i, json), *w = value_text(want, i, json);
    ok = g != NULL && w != NULL;
    int alike = ok && bits > 0 && print_alike(g, w); /* strings never print alike */
    if (ok && json) {
      fputs(j > 0 ? ",{\"index\":" : "{\"index\":", f);
      put_index(f, want, i, coords);
      fprintf(f, ",\"got\":%s,\"expected\":%s", g, w);
      if (alike) {
        fputs(",\"got_bits\":\"", f);
        put_bits(f, got, bits, i);
        fputs("\",\"expected_bits\":\"", f);
        put_bits(f, want, bits, i);
        fputc('"', f);
      }
      fputc('}', f);
    } else if (ok) {
      fputs("  element ", f);
      put_index(f, want, i, coords);
      fprintf(f, ": %s", g);
      if (alike) {
        fputs(" (bits ", f);
        put_bits(f, got, bits, i);
        fputc(')', f);
      }
      fprintf(f, ", expected %s", w);
      if (alike) {
        fputs(" (bits ", f);
        put_bits(f, want, bits, i);
        fputc(')', f);
      }
      fputc('\n', f);
    }
    free(g);
    free(w);
  }
  if (ok && json)
    fputs("]}", f);
  else if (ok && diff->count > diff->shown)
    fprintf(f, "  (and %zu more)\n", diff->count - diff->shown);
  if (f != NULL && fclose(f) != 0) ok = 0;
  free(coords);
  if (!ok) {
    free(text);
    return NULL;
  }
  return text;
}

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_names(char **names, size_t n) {
  for (size_t i = 0; i < n && names != NULL; i++) free(names[i]);
  free(names);
}

/* The entries of dir whose names start with prefix, sorted by name (bytes);
 * with dirs_only, only those that are directories once symbolic links are
 * followed (as DIR itself is). *n is their number. NULL with why filled
 * when dir cannot be listed, memory runs out or more than MAX_ENTRIES
 * names start with prefix (directories or not: the bound holds before any
 * is looked at); an empty list is not NULL. */
static char **list_entries(const char *dir, const char *prefix, int dirs_only, size_t *n, char *why,
                           size_t cap) {
  *n = 0;
  size_t room = 8, plen = strlen(prefix), matched = 0;
  char **names = malloc(room * sizeof *names);
  DIR *d = names != NULL ? opendir(dir) : NULL;
  if (d == NULL) {
    snprintf(why, cap, "cannot list '%s': %s", cli_shown(dir),
             names == NULL ? "out of memory" : strerror(errno));
    free(names);
    return NULL;
  }
  int ok = 1;
  for (;;) {
    errno = 0;
    struct dirent *e = readdir(d);
    if (e == NULL) {
      if (errno != 0) {
        snprintf(why, cap, "cannot list '%s': %s", cli_shown(dir), strerror(errno));
        ok = 0;
      }
      break;
    }
    if (strncmp(e->d_name, prefix, plen) != 0) continue;
    if (++matched > MAX_ENTRIES) {
      snprintf(why, cap, "'%s' holds more than %d %s* entries", cli_shown(dir), MAX_ENTRIES,
               prefix);
      ok = 0;
      break;
    }
    char *name = strdup(e->d_name);
    char *path = name != NULL && dirs_only ? cli_join_path(dir, name) : NULL;
    struct stat sb;
    int wanted = !dirs_only || (path != NULL && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode));
    ok = name != NULL && (!dirs_only || path != NULL);
    free(path);
    if (ok && wanted && *n == room) {
      char **grown = realloc(names, 2 * room * sizeof *names);
      ok = grown != NULL;
      if (ok) {
        names = grown;
        room *= 2;
      }
    }
    if (!ok) {
      snprintf(why, cap, "out of memory listing '%s'", cli_shown(dir));
      free(name);
      break;
    }
    if (wanted)
      names[(*n)++] = name;
    else
      free(name);
  }
  closedir(d);
  if (!ok) {
    free_names(names, *n);
    *n = 0;
    return NULL;
  }
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

/* Runs the data set `set` of directory dir; fills why (and, for elements
 * that differ, o->detail) on failure. */
static int run_data_set(const onnxshape_model *m, const char *dir, const char *set, int json,
                        outcome *o, char *why, size_t cap) {
  size_t n_in;
  char *ds = cli_join_path(dir, set);
  if (ds == NULL) {
    snprintf(why, cap, "out of memory");
    return 0;
  }
  if (!check_data_files(m, ds, &n_in, why, cap)) {
    free(ds);
    return 0;
  }
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
  char *listed = NULL; /* the elements that differ */
  int changed = 0;
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
    differences diff;
    const onnxshape_tensor *got = onnxshape_result_tensor(r, k);
    const onnxshape_tensor *expected = onnxshape_owned_tensor_get(want);
    if (ok && !compare(got, expected, detail, sizeof detail, &diff)) {
      const char *name = onnxshape_result_name(r, k);
      char shown[128];
      onnxshape_escape(shown, sizeof shown, name, strlen(name));
      snprintf(why, cap, "output %zu '%s': %s", k, shown, detail);
      if (diff.count > 0) listed = describe(got, expected, &diff, set, k, name, json);
      ok = 0;
    }
    /* A file that changed is the reason, whatever the comparison found. */
    if (want != NULL && onnxshape_owned_tensor_check_file(want, &d) != ONNXSHAPE_OK) {
      snprintf(why, cap, "%s", d.message);
      changed = 1;
      ok = 0;
    }
    onnxshape_owned_tensor_free(want);
  }
  /* Also when the run or a comparison failed: pages of zeros may be why. */
  if (!changed && files_changed(m, in, n_in, why, cap)) {
    changed = 1;
    ok = 0;
  }
  if (changed) {
    free(listed);
    listed = NULL;
  }
  o->detail = listed;
  onnxshape_result_free(r);
  for (size_t k = 0; k < n_in && in != NULL; k++) onnxshape_owned_tensor_free(in[k]);
  free(in);
  free(b);
  free(ds);
  return ok;
}

/* Tests the case directory dir into *o: PASS, FAIL, or SKIP for a model
 * that run does not execute (FAIL with strict). */
static void test_one(const char *dir, int json, int strict, outcome *o) {
  o->result = FAIL;
  o->detail = NULL;
  onnxshape_model *m = NULL;
  char *path = cli_join_path(dir, "model.onnx");
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  if (path == NULL) snprintf(d.message, sizeof d.message, "out of memory");
  onnxshape_status st =
      path != NULL ? onnxshape_model_read_file(path, &m, &d) : ONNXSHAPE_ERR_OUT_OF_MEMORY;
  free(path);
  if (st != ONNXSHAPE_OK) {
    snprintf(o->why, sizeof o->why, "%s", d.message);
    return;
  }
  /* Another operator, a sparse initializer, a graph input or output that is
   * not a tensor: not the model's failure but onnxshape's limit. */
  if (onnxshape_model_check_runnable(m, &d) != ONNXSHAPE_OK) {
    snprintf(o->why, sizeof o->why, "%s", d.message);
    o->result = strict ? FAIL : SKIP;
    onnxshape_model_free(m);
    return;
  }
  size_t n_sets;
  char **sets = list_entries(dir, "test_data_set_", 0, &n_sets, o->why, sizeof o->why);
  int ok = sets != NULL && n_sets > 0;
  if (sets != NULL && n_sets == 0) snprintf(o->why, sizeof o->why, "no test_data_set_* directory");
  for (size_t s = 0; ok && s < n_sets; s++) {
    char inner[900];
    if (!run_data_set(m, dir, sets[s], json, o, inner, sizeof inner)) {
      snprintf(o->why, sizeof o->why, "%s: %s", cli_shown(sets[s]), inner);
      ok = 0;
    }
  }
  free_names(sets, n_sets);
  onnxshape_model_free(m);
  if (ok) o->result = PASS;
}

/* The cases of DIR appended to *cases (paths, malloc): DIR itself when it
 * has a model.onnx (in any form: reading it says what is wrong with it),
 * else its test_* directories by name. EXIT_OK, or the error said. */
static int add_cases(const char *dir, char ***cases, size_t *n, size_t *room) {
  char *model = cli_join_path(dir, "model.onnx");
  struct stat sb;
  int is_case = model != NULL && lstat(model, &sb) == 0;
  free(model);
  char why[1024];
  size_t n_found = 1;
  char **found = NULL;
  if (!is_case) {
    found = list_entries(dir, "test_", 1, &n_found, why, sizeof why);
    if (found == NULL) {
      cli_error("%s", why);
      return EXIT_USAGE;
    }
    if (n_found == 0) {
      cli_error("'%s' has no model.onnx and no test_* directory", cli_shown(dir));
      free(found);
      return EXIT_USAGE;
    }
  }
  int rc = EXIT_OK;
  for (size_t i = 0; i < n_found; i++) {
    char *path = is_case ? strdup(dir) : cli_join_path(dir, found[i]);
    if (rc == EXIT_OK && *n == *room) {
      char **grown = *room <= SIZE_MAX / 4 / sizeof *grown
                         ? realloc(*cases, (*room ? 2 * *room : 16) * sizeof *grown)
                         : NULL;
      if (grown != NULL) {
        *cases = grown;
        *room = *room ? 2 * *room : 16;
      }
      if (grown == NULL) rc = EXIT_INVALID;
    }
    if (path == NULL) rc = EXIT_INVALID;
    if (rc == EXIT_OK)
      (*cases)[(*n)++] = path;
    else
      free(path);
  }
  if (rc != EXIT_OK) cli_error("out of memory");
  free_names(found, is_case ? 0 : n_found);
  return rc;
}

static void print_outcome(const char *dir, const outcome *o, int json) {
  static const char *const words[] = {"pass", "fail", "skip"};
  if (json) {
    fputs("{\"dir\":", stdout);
    cli_put_json_string(stdout, dir, strlen(dir));
    printf(",\"result\":\"%s\"", words[o->result]);
    if (o->result != PASS) {
      fputs(",\"reason\":", stdout);
      cli_put_json_string(stdout, o->why, strlen(o->why));
    }
    if (o->detail != NULL) fputs(o->detail, stdout);
    fputs("}\n", stdout);
    return;
  }
  if (o->result == PASS)
    printf("PASS %s\n", cli_shown(dir));
  else
    printf("%s %s: %s\n", o->result == SKIP ? "SKIP" : "FAIL", cli_shown(dir), o->why);
  if (o->detail != NULL) fputs(o->detail, stdout);
}

int cli_test(int argc, char **argv) {
  int json = 0, strict = 0, n_dirs = 0, rc = EXIT_OK;
  char **cases = NULL;
  size_t n_cases = 0, room = 0;
  for (int i = 0; rc == EXIT_OK && i < argc; i++) {
    if (strcmp(argv[i], "--json") == 0) {
      json = 1;
      continue;
    }
    if (strcmp(argv[i], "--strict") == 0) {
      strict = 1;
      continue;
    }
    if (argv[i][0] == '-' && argv[i][1] != '\0') {
      rc = cli_usage_error("unknown option '%s'", cli_shown(argv[i]));
      break;
    }
    struct stat sb;
    if (stat(argv[i], &sb) != 0 || !S_ISDIR(sb.st_mode)) {
      cli_error("'%s' is not a directory", cli_shown(argv[i]));
      rc = EXIT_USAGE;
      break;
    }
    n_dirs++;
    rc = add_cases(argv[i], &cases, &n_cases, &room);
  }
  if (rc == EXIT_OK && n_dirs == 0) rc = cli_usage_error("%s", "test needs at least one DIR");
  size_t counts[3] = {0, 0, 0};
  for (size_t i = 0; rc == EXIT_OK && i < n_cases; i++) {
    outcome o;
    o.why[0] = '\0';
    test_one(cases[i], json, strict, &o);
    counts[o.result]++;
    /* Each directory as given, so that results from several suites differ. */
    print_outcome(cases[i], &o, json);
    free(o.detail);
  }
  free_names(cases, n_cases);
  if (rc != EXIT_OK) return rc;
  if (json) {
    printf("{\"summary\":{\"passed\":%zu,\"failed\":%zu,\"skipped\":%zu}}\n", counts[PASS],
           counts[FAIL], counts[SKIP]);
  } else {
    printf("%zu passed, %zu failed, %zu skipped\n", counts[PASS], counts[FAIL], counts[SKIP]);
  }
  return counts[FAIL] == 0 ? EXIT_OK : EXIT_INVALID;
}
