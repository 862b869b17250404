/* SPDX-License-Identifier: Apache-2.0 */
/* The onnxshape command's dispatch, usage, messages and the check of its
 * output streams (main() is in main.c). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

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

int cli_usage_error(const char *fmt, const char *arg) {
  cli_error(fmt, arg);
  if (fputs(usage_text, stderr) == EOF) stderr_failed = 1;
  return EXIT_USAGE;
}

int cli_exit_for(onnxshape_status st) {
  return st == ONNXSHAPE_ERR_IO ? EXIT_USAGE : EXIT_INVALID;
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
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_status st = onnxshape_model_read_file(path, m, &d);
  if (st != ONNXSHAPE_OK) {
    /* File and decoding errors already name the file. */
    if (st == ONNXSHAPE_ERR_IO || st == ONNXSHAPE_ERR_MALFORMED) cli_error("%s", d.message);
    else cli_error("%s: %s", cli_shown(path), d.message);
    return cli_exit_for(st);
  }
  return EXIT_OK;
}

static int dispatch(int argc, char **argv) {
  if (argc < 2) {
    if (fputs(usage_text, stderr) == EOF) stderr_failed = 1;
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
  if (strcmp(cmd, "run") == 0) return cli_run(argc - 2, argv + 2);
  if (strcmp(cmd, "test") == 0) return cli_test(argc - 2, argv + 2);
  if (strcmp(cmd, "infer") == 0) return cli_infer(argc - 2, argv + 2);
  if (strcmp(cmd, "check") == 0) return cli_check(argc - 2, argv + 2);
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
