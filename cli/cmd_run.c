/* SPDX-License-Identifier: Apache-2.0 */
/* onnxshape run: bind inputs from tensor files, run, print, and write the
 * outputs to a directory all or nothing (docs/cli.md). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

typedef struct bound_input {
  const char *name; /* NAME=, or NULL: the next unbound graph input */
  const char *file;
  onnxshape_owned_tensor *tensor;
} bound_input;

typedef struct run_args {
  const char *model, *out_dir;
  int json;
  int npy; /* --format npy: -o writes .npy files */
  bound_input *in;
  size_t n_in;
  char **names; /* the NAME= strings (NUL-terminated copies) */
} run_args;

static int parse_args(int argc, char **argv, run_args *a) {
  int format_given = 0;
  a->in = calloc((size_t)argc + 1, sizeof *a->in);
  a->names = calloc((size_t)argc + 1, sizeof *a->names);
  if (a->in == NULL || a->names == NULL) {
    cli_error("out of memory");
    return EXIT_INVALID;
  }
  for (int i = 0; i < argc; i++) {
    const char *arg = argv[i];
    if (strcmp(arg, "-i") == 0 || strcmp(arg, "-o") == 0) {
      if (i + 1 >= argc) return cli_usage_error("%s needs an argument", arg);
      const char *v = argv[++i];
      if (arg[1] == 'o') {
        a->out_dir = v;
        continue;
      }
      bound_input *b = &a->in[a->n_in];
      const char *eq = strchr(v, '=');
      b->file = eq != NULL ? eq + 1 : v;
      if (eq != NULL) {
        a->names[a->n_in] = strndup(v, (size_t)(eq - v));
        if (a->names[a->n_in] == NULL) {
          cli_error("out of memory");
          return EXIT_INVALID;
        }
        b->name = a->names[a->n_in];
      }
      a->n_in++;
    } else if (strcmp(arg, "--json") == 0) {
      a->json = 1;
    } else if (strcmp(arg, "--format") == 0 || strncmp(arg, "--format=", 9) == 0) {
      if (arg[8] == '\0' && i + 1 >= argc) return cli_usage_error("%s needs an argument", arg);
      const char *fmt = arg[8] == '=' ? arg + 9 : argv[++i];
      if (strcmp(fmt, "npy") == 0) a->npy = 1;
      else if (strcmp(fmt, "pb") == 0) a->npy = 0;
      else return cli_usage_error("unknown format '%s' (known: pb, npy)", cli_shown(fmt));
      format_given = 1;
    } else if (arg[0] == '-' && arg[1] != '\0') {
      return cli_usage_error("unknown option '%s'", cli_shown(arg));
    } else if (a->model == NULL) {
      a->model = arg;
    } else {
      return cli_usage_error("unexpected argument '%s'", cli_shown(arg));
    }
  }
  if (a->model == NULL) return cli_usage_error("%s", "run needs a MODEL");
  size_t from_stdin = (size_t)cli_is_stdin(a->model);
  for (size_t i = 0; i < a->n_in; i++) from_stdin += (size_t)cli_is_stdin(a->in[i].file);
  if (from_stdin > 1) {
    return cli_usage_error("%s", "standard input ('-') can be read once per call");
  }
  if (format_given && a->out_dir == NULL) {
    return cli_usage_error("%s", "--format is the format of -o DIR's files; give -o DIR");
  }
  return EXIT_OK;
}

static int cmp_str(const void *x, const void *y) {
  return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* A graph input bound by two -i is a usage error, like the other binding
 * errors (the names, sorted, are compared with their neighbours). */
static int check_bound_once(const run_args *a) {
  const char **names = calloc(a->n_in + 1, sizeof *names);
  if (names == NULL) {
    cli_error("out of memory");
    return EXIT_INVALID;
  }
  for (size_t i = 0; i < a->n_in; i++) names[i] = a->in[i].name;
  if (a->n_in > 1) qsort(names, a->n_in, sizeof *names, cmp_str);
  int rc = EXIT_OK;
  for (size_t i = 1; i < a->n_in && rc == EXIT_OK; i++) {
    if (strcmp(names[i - 1], names[i]) == 0) {
      rc = cli_usage_error("graph input '%s' is bound by more than one -i", cli_shown(names[i]));
    }
  }
  free(names);
  return rc;
}

/* Inputs given without NAME= take the graph inputs that no NAME= names, in
 * order: the named ones are sorted once and looked up by bisection, so n
 * inputs take n log n steps. */
static int bind_positional(const onnxshape_model *m, run_args *a) {
  size_t n_named = 0;
  for (size_t i = 0; i < a->n_in; i++) n_named += a->in[i].name != NULL;
  const char **named = calloc(n_named + 1, sizeof *named);
  if (named == NULL) {
    cli_error("out of memory");
    return EXIT_INVALID;
  }
  n_named = 0;
  for (size_t i = 0; i < a->n_in; i++) {
    if (a->in[i].name != NULL) named[n_named++] = a->in[i].name;
  }
  if (n_named > 1) qsort(named, n_named, sizeof *named, cmp_str);
  size_t next = 0, count = onnxshape_model_input_count(m);
  int rc = EXIT_OK;
  for (size_t i = 0; i < a->n_in && rc == EXIT_OK; i++) {
    if (a->in[i].name != NULL) continue;
    for (;;) {
      if (next >= count) {
        rc = cli_usage_error("more -i files than graph inputs to bind ('%s' is left over)",
                             cli_shown(a->in[i].file));
        break;
      }
      const char *cand = onnxshape_model_input_name(m, next++);
      if (n_named == 0 || bsearch(&cand, named, n_named, sizeof *named, cmp_str) == NULL) {
        a->in[i].name = cand;
        break;
      }
    }
  }
  free(named);
  return rc == EXIT_OK ? check_bound_once(a) : rc;
}

/* Every mapped file (the inputs' and the model's external data) must still
 * be what was read; a SIGBUS absorbed by safety.c means one was cut short. */
static int check_files(const onnxshape_model *m, const run_args *a) {
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  for (size_t i = 0; i < a->n_in; i++) {
    if (a->in[i].tensor == NULL) continue;
    if (onnxshape_owned_tensor_check_file(a->in[i].tensor, &d) != ONNXSHAPE_OK) {
      cli_error("%s", d.message);
      return EXIT_USAGE;
    }
  }
  return cli_check_model_files(cli_display_name(a->model), m);
}

/* ---- -o DIR: all or nothing (OUTPUT-ALL-OR-NOTHING) ------------------------- */

typedef struct out_file {
  char *tmp;    /* DIR/.onnxshape-output_<k>.pb.<unique>, written first */
  char *final;  /* DIR/output_<k>.pb */
  char *backup; /* DIR/.onnxshape-output_<k>.pb.<unique>.old: the earlier file, or NULL */
  int renamed;
} out_file;

/* A new file DIR/.onnxshape-output_<k>.<ext>.<pid>-<time><n>, created
 * exclusively (so no other run's file is ever taken) and registered for
 * removal on a signal; signals wait meanwhile, so it never exists
 * unregistered. */
static int create_temp(const char *dir, size_t k, const char *ext, char **path) {
  static unsigned long counter;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  for (int attempt = 0; attempt < 100; attempt++) {
    char name[96];
    snprintf(name, sizeof name, ".onnxshape-output_%zu.%s.%ld-%lx%lx", k, ext, (long)getpid(),
             (unsigned long)ts.tv_nsec, ++counter);
    *path = cli_join_path(dir, name);
    if (*path == NULL) {
      errno = ENOMEM;
      return -1;
    }
    cli_block_signals(1);
    int fd = open(*path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    int e = errno;
    if (fd >= 0 && !cli_temp_add(*path)) {
      close(fd);
      unlink(*path);
      fd = -1;
      e = ENOMEM;
    }
    cli_block_signals(0);
    if (fd >= 0) return fd;
    free(*path);
    *path = NULL;
    if (e != EEXIST) {
      errno = e;
      return -1;
    }
  }
  errno = EEXIST;
  return -1;
}

/* 0 when `path` may take an output: it does not exist, or is a regular
 * file or a link (which the output replaces); else prints why (a directory,
 * a FIFO, ...: never moved aside or replaced) and returns EXIT_USAGE. */
static int output_path_free(const char *path) {
  struct stat sb;
  if (lstat(path, &sb) != 0 || S_ISREG(sb.st_mode) || S_ISLNK(sb.st_mode)) return EXIT_OK;
  cli_error("'%s' is %s; it cannot be replaced by an output", cli_shown(path),
            S_ISDIR(sb.st_mode) ? "a directory" : "not a regular file");
  return EXIT_USAGE;
}

/* The n output files of DIR (output_<k>.pb or .npy), each free to take
 * its output: checked before anything is read or written. */
static int outputs_free(const char *dir, size_t n, int npy) {
  for (size_t k = 0; k < n; k++) {
    char name[64];
    snprintf(name, sizeof name, "output_%zu.%s", k, npy ? "npy" : "pb");
    char *path = cli_join_path(dir, name);
    if (path == NULL) {
      cli_error("out of memory");
      return EXIT_INVALID;
    }
    int rc = output_path_free(path);
    free(path);
    if (rc != EXIT_OK) return rc;
  }
  return EXIT_OK;
}

/* The renames, with signals blocked so that they are not cut in the middle:
 * each earlier output is first kept under a backup name, and if any rename
 * fails every output goes back to what it was. */
static int commit(out_file *f, size_t n) {
  int e = 0;
  size_t k, failed = 0;
  for (k = 0; k < n && e == 0; k++) {
    failed = k; /* the output whose step fails, when one does */
    /* One made since the check: refused, never moved aside. */
    struct stat sb;
    if (lstat(f[k].final, &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISLNK(sb.st_mode)) {
      e = S_ISDIR(sb.st_mode) ? EISDIR : EEXIST;
      break;
    }
    f[k].backup = malloc(strlen(f[k].tmp) + 5);
    if (f[k].backup == NULL) {
      e = ENOMEM;
      break;
    }
    sprintf(f[k].backup, "%s.old", f[k].tmp);
    /* A hard link keeps the earlier file in place; where links are not
     * supported, it is moved aside. */
    if (link(f[k].final, f[k].backup) != 0 && (errno == ENOENT || rename(f[k].final, f[k].backup) != 0)) {
      if (errno != ENOENT) e = errno;
      free(f[k].backup);
      f[k].backup = NULL; /* no earlier file */
    }
    if (e == 0 && rename(f[k].tmp, f[k].final) != 0) e = errno;
    if (e == 0) f[k].renamed = 1;
  }
  if (e != 0) { /* put back what was there */
    for (size_t j = 0; j < n; j++) {
      if (!f[j].renamed) continue;
      if (f[j].backup != NULL) rename(f[j].backup, f[j].final);
      else unlink(f[j].final);
      f[j].renamed = 0;
    }
    cli_error("cannot write '%s': %s", cli_shown(f[failed].final), strerror(e));
  }
  for (size_t j = 0; j < n; j++) {
    if (f[j].backup != NULL) unlink(f[j].backup);
  }
  return e == 0;
}

/* The directory that holds dir ("." when dir has no '/'); heap, or NULL. */
static char *parent_of(const char *dir) {
  size_t n = strlen(dir);
  while (n > 1 && dir[n - 1] == '/') n--; /* "out/" is "out" */
  while (n > 0 && dir[n - 1] != '/') n--;
  while (n > 1 && dir[n - 1] == '/') n--;
  if (n == 0) return strdup(".");
  return strndup(dir, n);
}

/* Opens the output directory. With `create`, a directory that does not
 * exist is made (one level: its parent must be a directory) and *created
 * says so; without, its absence is fine when it could be made. */
static int open_out_dir(const char *dir, int create, int *fd, int *created) {
  *fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (*fd >= 0) return EXIT_OK;
  struct stat sb;
  if (errno == ENOTDIR || (stat(dir, &sb) == 0 && !S_ISDIR(sb.st_mode))) {
    cli_error("output directory '%s' is not a directory", cli_shown(dir));
    return EXIT_USAGE;
  }
  if (errno != ENOENT) {
    cli_error("cannot open output directory '%s': %s", cli_shown(dir), strerror(errno));
    return EXIT_USAGE;
  }
  char *parent = parent_of(dir);
  int parent_ok = parent != NULL && stat(parent, &sb) == 0 && S_ISDIR(sb.st_mode);
  free(parent);
  if (!parent_ok) {
    cli_error("output directory '%s' does not exist, nor does its parent directory",
              cli_shown(dir));
    return EXIT_USAGE;
  }
  if (!create) return EXIT_OK;
  if (mkdir(dir, 0777) != 0) {
    cli_error("cannot create output directory '%s': %s", cli_shown(dir), strerror(errno));
    return EXIT_USAGE;
  }
  *created = 1;
  *fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (*fd >= 0) return EXIT_OK;
  cli_error("cannot open output directory '%s': %s", cli_shown(dir), strerror(errno));
  return EXIT_USAGE;
}

/* Writes every output to a temporary file in dir, then renames them all
 * under an exclusive lock on the directory, so that runs into the same
 * directory do not mix; on any failure the temporaries are removed and
 * nothing in dir changes. */
static int write_outputs(const char *dir, const onnxshape_result *r, const onnxshape_model *m,
                         const run_args *a) {
  size_t n = onnxshape_result_count(r);
  out_file *f = calloc(n + 1, sizeof *f);
  int dir_fd = -1, created = 0;
  int rc = f == NULL ? (cli_error("out of memory"), EXIT_INVALID)
                     : open_out_dir(dir, 1, &dir_fd, &created);
  for (size_t k = 0; k < n && rc == EXIT_OK; k++) {
    char name[64];
    const char *ext = a->npy ? "npy" : "pb";
    snprintf(name, sizeof name, "output_%zu.%s", k, ext);
    f[k].final = cli_join_path(dir, name);
    int fd = f[k].final != NULL ? create_temp(dir, k, ext, &f[k].tmp) : (errno = ENOMEM, -1);
    if (fd < 0) {
      cli_error("cannot create a file in '%s': %s", cli_shown(dir), strerror(errno));
      rc = EXIT_USAGE;
      break;
    }
    onnxshape_diag d;
    onnxshape_diag_init(&d);
    onnxshape_status st =
        a->npy ? onnxshape_tensor_write_npy_fd(fd, f[k].final, onnxshape_result_tensor(r, k), &d)
               : onnxshape_tensor_write_fd(fd, f[k].final, onnxshape_result_name(r, k),
                                           onnxshape_result_tensor(r, k), &d);
    if (close(fd) != 0 && st == ONNXSHAPE_OK) {
      cli_error("cannot write '%s': %s", cli_shown(f[k].final), strerror(errno));
      rc = EXIT_USAGE;
    } else if (st != ONNXSHAPE_OK) {
      cli_error("%s", d.message);
      rc = cli_exit_for(st);
    }
  }
  /* The data written must be what the files held all along. */
  if (rc == EXIT_OK) rc = check_files(m, a);
  if (rc == EXIT_OK) {
    if (flock(dir_fd, LOCK_EX) != 0) {
      cli_error("cannot lock output directory '%s': %s", cli_shown(dir), strerror(errno));
      rc = EXIT_USAGE;
    } else {
      cli_block_signals(1);
      if (!commit(f, n)) rc = EXIT_USAGE;
      cli_temp_clear(); /* renamed, or removed below */
      cli_block_signals(0);
      flock(dir_fd, LOCK_UN);
    }
  }
  for (size_t k = 0; f != NULL && k < n; k++) {
    if (f[k].tmp != NULL && !f[k].renamed) unlink(f[k].tmp);
    free(f[k].tmp);
    free(f[k].final);
    free(f[k].backup);
  }
  cli_temp_clear();
  if (dir_fd >= 0) close(dir_fd);
  /* Nothing written: a directory made for this run goes too. */
  if (rc != EXIT_OK && created) rmdir(dir);
  free(f);
  return rc;
}

/* ---- the command ---------------------------------------------------------- */

static int read_inputs(run_args *a, onnxshape_binding *b) {
  for (size_t i = 0; i < a->n_in; i++) {
    onnxshape_diag d;
    onnxshape_diag_init(&d);
    onnxshape_status st;
    if (cli_is_stdin(a->in[i].file)) {
      /* read whole, then parsed as a file's bytes (.pb or .npy) */
      unsigned char *bytes = NULL;
      size_t len = 0;
      int rc = cli_read_stdin(&bytes, &len);
      if (rc != EXIT_OK) return rc;
      st = onnxshape_tensor_parse(bytes, len, NULL, &a->in[i].tensor, &d);
      free(bytes);
      if (st != ONNXSHAPE_OK) {
        cli_error("<stdin>: %s", d.message);
        return cli_exit_for(st);
      }
    } else {
      st = onnxshape_tensor_read_file(a->in[i].file, &a->in[i].tensor, &d);
      if (st != ONNXSHAPE_OK) {
        cli_error("%s", d.message);
        return cli_exit_for(st);
      }
    }
    b[i].name = a->in[i].name;
    b[i].tensor = onnxshape_owned_tensor_get(a->in[i].tensor);
  }
  return EXIT_OK;
}

static void print_outputs(const onnxshape_result *r, int json) {
  for (size_t k = 0; k < onnxshape_result_count(r); k++) {
    if (json) cli_print_json(stdout, onnxshape_result_name(r, k), onnxshape_result_tensor(r, k));
    else cli_print_tensor(stdout, onnxshape_result_name(r, k), onnxshape_result_tensor(r, k));
  }
}

int cli_run(int argc, char **argv) {
  run_args a;
  memset(&a, 0, sizeof a);
  int rc = parse_args(argc, argv, &a);
  onnxshape_model *m = NULL;
  onnxshape_binding *b = NULL;
  onnxshape_result *r = NULL;
  if (rc == EXIT_OK && a.out_dir != NULL) { /* a wrong -o fails before any work */
    int fd = -1, created = 0;
    rc = open_out_dir(a.out_dir, 0, &fd, &created);
    if (fd >= 0) close(fd);
  }
  if (rc == EXIT_OK) rc = cli_load_model(a.model, &m);
  if (rc == EXIT_OK && a.out_dir != NULL) {
    rc = outputs_free(a.out_dir, onnxshape_model_output_count(m), a.npy);
  }
  if (rc == EXIT_OK) { /* a model run cannot execute is refused before any input is read */
    onnxshape_diag d;
    onnxshape_diag_init(&d);
    if (onnxshape_model_check_runnable(m, &d) != ONNXSHAPE_OK) {
      cli_error("%s: %s", cli_shown(cli_display_name(a.model)), d.message);
      rc = EXIT_INVALID;
    }
  }
  if (rc == EXIT_OK) rc = bind_positional(m, &a);
  if (rc == EXIT_OK) {
    b = calloc(a.n_in + 1, sizeof *b);
    rc = b == NULL ? (cli_error("out of memory"), EXIT_INVALID) : read_inputs(&a, b);
  }
  if (rc == EXIT_OK) {
    onnxshape_diag d;
    onnxshape_diag_init(&d);
    onnxshape_status st = onnxshape_model_run(m, b, a.n_in, &r, &d);
    /* A failure that a file cut short caused is reported as that. */
    if (st != ONNXSHAPE_OK && (rc = check_files(m, &a)) == EXIT_OK) {
      cli_error("%s: %s", cli_shown(cli_display_name(a.model)), d.message);
      rc = st == ONNXSHAPE_ERR_NOT_FOUND ? EXIT_USAGE : EXIT_INVALID;
    }
  }
  if (rc == EXIT_OK && a.out_dir != NULL) rc = write_outputs(a.out_dir, r, m, &a);
  if (rc == EXIT_OK) rc = check_files(m, &a);
  if (rc == EXIT_OK) {
    print_outputs(r, a.json);
    /* Printing read the data: a file cut short meanwhile makes it wrong. */
    rc = check_files(m, &a);
  }
  onnxshape_result_free(r);
  for (size_t i = 0; i < a.n_in; i++) {
    onnxshape_owned_tensor_free(a.in[i].tensor);
    free(a.names[i]);
  }
  free(a.names);
  free(a.in);
  free(b);
  onnxshape_model_free(m);
  return rc;
}
