/* SPDX-License-Identifier: Apache-2.0 */
/* `-` as a file: the model (infer, run) or a tensor (run -i) read from
 * standard input, whole, before anything is parsed (docs/cli.md, "Standard
 * input"). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* The most standard input may hold: 2 GiB - 1, the most a protobuf
 * message (a ModelProto, a TensorProto) can be; a larger model keeps its
 * data in external files, which only a model read from a file can name. */
#define STDIN_MAX ((size_t)0x7fffffff)

int cli_is_stdin(const char *path) { return path[0] == '-' && path[1] == '\0'; }

const char *cli_display_name(const char *path) { return cli_is_stdin(path) ? "<stdin>" : path; }

/* Standard input is past STDIN_MAX: reported, EXIT_USAGE. */
static int too_large(unsigned char *b) {
  free(b);
  cli_error("<stdin>: standard input holds more than %lu bytes (2 GiB - 1, the most a protobuf "
            "message can be); give the model as a file",
            (unsigned long)STDIN_MAX);
  return EXIT_USAGE;
}

int cli_read_stdin(unsigned char **bytes, size_t *len) {
  *bytes = NULL;
  *len = 0;
  if (isatty(STDIN_FILENO)) {
    cli_error("%s", "<stdin>: standard input is a terminal; pipe the file into it (onnxshape "
                    "infer - < model.onnx) or give its name");
    return EXIT_USAGE;
  }
  size_t cap = 1 << 16, n = 0;
  unsigned char *b = malloc(cap);
  if (b == NULL) {
    cli_error("%s", "<stdin>: out of memory");
    return EXIT_INVALID;
  }
  for (;;) {
    if (n == cap) {
      if (cap > STDIN_MAX) return too_large(b); /* it holds STDIN_MAX + 1 bytes or more */
      size_t more = cap * 2 > STDIN_MAX + 1 ? STDIN_MAX + 1 : cap * 2;
      unsigned char *grown = realloc(b, more);
      if (grown == NULL) {
        free(b);
        cli_error("<stdin>: cannot hold %lu bytes of standard input in memory",
                  (unsigned long)more);
        return EXIT_INVALID;
      }
      b = grown;
      cap = more;
    }
    ssize_t got = read(STDIN_FILENO, b + n, cap - n);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      int e = errno;
      free(b);
      cli_error("<stdin>: cannot read standard input: %s", strerror(e));
      return EXIT_USAGE;
    }
    if (got == 0) break;
    n += (size_t)got;
  }
  if (n > STDIN_MAX) return too_large(b);
  *bytes = b;
  *len = n;
  return EXIT_OK;
}
