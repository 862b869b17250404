/* SPDX-License-Identifier: Apache-2.0 */
/* The onnxshape command's dispatch, usage, messages and the check of its
 * output streams (main() is in main.c). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* A failed write to stderr cannot be reported there, but it must not let
 * the command exit 0. */
static int stderr_failed;

void cli_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (fputs("onnxshape: error: ", stderr) == EOF || vfprintf(stderr, fmt, ap) < 0 ||
      fputc('\n', stderr) == EOF) {
    stderr_failed = 1;
  }
  va_end(ap);
}

void cli_put_checked(FILE *f, const char *text) {
  if (fputs(text, f) == EOF && f == stderr) stderr_failed = 1;
}

int cli_usage_error(const char *fmt, const char *arg) {
  cli_error(fmt, arg);
  cli_put_usage(stderr);
  return EXIT_USAGE;
}

int cli_usage_error_in(const char *model, const char *fmt, const char *arg) {
  char msg[ONNXSHAPE_DIAG_SIZE + 64];
  (void)snprintf(msg, sizeof msg, fmt, arg);
  cli_error("%s: %s", cli_shown(model), msg);
  cli_put_usage(stderr);
  return EXIT_USAGE;
}

int cli_exit_for(onnxshape_status st) {
  return st == ONNXSHAPE_ERR_IO ? EXIT_USAGE : EXIT_INVALID;
}

char *cli_join_path(const char *dir, const char *name) {
  size_t a = strlen(dir), b = strlen(name);
  if (a > SIZE_MAX / 2 || b > SIZE_MAX / 2 - 2) return NULL;
  size_t slash = a > 0 && dir[a - 1] == '/' ? 0 : 1; /* "dir/" as the shell completes it */
  char *p = malloc(a + b + 2);
  if (p != NULL) {
    memcpy(p, dir, a);
    p[a] = '/';
    memcpy(p + a + slash, name, b + 1);
  }
  return p;
}

const char *cli_shown(const char *s) {
  static char bufs[4][512];
  static unsigned next;
  char *b = bufs[next++ % 4];
  size_t need = onnxshape_escape(b, sizeof bufs[0], s, strlen(s));
  if (need >= sizeof bufs[0]) memcpy(b + sizeof bufs[0] - 4, "...", 4);
  return b;
}

int cli_load_model(const char *path, onnxshape_model **m) {
  return cli_load_model_keep(path, m, NULL, NULL);
}

int cli_load_model_keep(const char *path, onnxshape_model **m, unsigned char **kept,
                        size_t *kept_len) {
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  if (cli_is_stdin(path)) {
    /* read whole, then parsed as a file's bytes (no external data) */
    unsigned char *bytes = NULL;
    size_t len = 0;
    int rc = cli_read_stdin(&bytes, &len);
    if (rc != EXIT_OK) return rc;
    onnxshape_status st = onnxshape_model_parse(bytes, len, NULL, m, &d);
    if (st == ONNXSHAPE_OK && kept != NULL) {
      *kept = bytes;
      *kept_len = len;
    } else {
      free(bytes);
    }
    if (st == ONNXSHAPE_OK) return EXIT_OK;
    cli_error("<stdin>: %s", d.message);
    return cli_exit_for(st);
  }
  onnxshape_status st = onnxshape_model_read_file(path, m, &d);
  if (st != ONNXSHAPE_OK) {
    /* File and decoding errors already name the file. */
    if (st == ONNXSHAPE_ERR_IO || st == ONNXSHAPE_ERR_MALFORMED) cli_error("%s", d.message);
    else cli_error("%s: %s", cli_shown(path), d.message);
    return cli_exit_for(st);
  }
  return EXIT_OK;
}

int cli_check_model_files(const char *path, const onnxshape_model *m) {
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  if (m != NULL && onnxshape_model_check_files(m, &d) != ONNXSHAPE_OK) {
    cli_error("%s: %s", cli_shown(path), d.message);
    return EXIT_USAGE;
  }
  if (cli_bus_faults() > 0) {
    cli_error("a file changed size while in use");
    return EXIT_USAGE;
  }
  return EXIT_OK;
}

static const struct {
  const char *name;
  int (*fn)(int argc, char **argv);
} commands[] = {{"run", cli_run}, {"test", cli_test}, {"infer", cli_infer},
                {"check", cli_check}, {"help", cli_help}};

static int dispatch(int argc, char **argv) {
  if (argc < 2) {
    cli_put_usage(stderr);
    return EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
    cli_put_overview(stdout);
    return EXIT_OK;
  }
  if (strcmp(cmd, "--version") == 0) {
    printf("onnxshape %s (ONNX opsets 1 to %d)\n", ONNXSHAPE_VERSION_STRING, ONNXSHAPE_MAX_OPSET);
    return EXIT_OK;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
    if (strcmp(cmd, commands[i].name) != 0) continue;
    /* CMD --help (or -h) anywhere among its arguments: the command's page. */
    if (cli_asks_help(argc - 2, argv + 2)) {
      (void)cli_put_help(stdout, cmd);
      return EXIT_OK;
    }
    cli_set_command(commands[i].name);
    return commands[i].fn(argc - 2, argv + 2);
  }
  return cli_usage_error("unknown command '%s'", cli_shown(cmd));
}

int cli_main(int argc, char **argv) {
  cli_install_handlers();
  stderr_failed = 0;
  int rc = dispatch(argc, argv);
  /* Output that did not reach its file is an error, never exit 0 with
   * truncated output (OUTPUT-STREAMS). */
  if (fflush(stdout) != 0 || ferror(stdout)) {
    int e = errno;
    clearerr(stdout);
    cli_error("cannot write to standard output: %s", strerror(e != 0 ? e : EIO));
    if (rc == EXIT_OK) rc = EXIT_USAGE;
  }
  if (fflush(stderr) != 0 || ferror(stderr)) stderr_failed = 1;
  clearerr(stderr);
  if (stderr_failed && rc == EXIT_OK) rc = EXIT_USAGE;
  return rc;
}
