/* SPDX-License-Identifier: Apache-2.0 */
/* Runs a fuzz target over files and directories without libFuzzer, so the
 * corpus is replayed by `make check`. Usage: replay PATH...
 * The empty input runs first, as libFuzzer runs it before any corpus: a
 * merge (-merge=1) never keeps an empty unit, since libFuzzer counts what it
 * reaches already, and the replay must reach what libFuzzer counted.
 * It writes to the file descriptors, not through stdout and stderr, which
 * the command targets point at /dev/null (fuzz_cli.h). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return 0;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
  size_t got = buf != NULL && n > 0 ? fread(buf, 1, (size_t)n, f) : 0;
  fclose(f);
  if (buf == NULL) return 0;
  LLVMFuzzerTestOneInput(buf, got);
  free(buf);
  return 1;
}

int main(int argc, char **argv) {
  long files = 0;
  static const uint8_t empty[1];
  LLVMFuzzerTestOneInput(empty, 0);
  for (int i = 1; i < argc; i++) {
    struct stat sb;
    if (stat(argv[i], &sb) != 0) {
      dprintf(STDERR_FILENO, "replay: cannot read %s\n", argv[i]);
      return 2;
    }
    if (!S_ISDIR(sb.st_mode)) {
      files += replay_file(argv[i]);
      continue;
    }
    DIR *d = opendir(argv[i]);
    struct dirent *e;
    while (d != NULL && (e = readdir(d)) != NULL) {
      if (e->d_name[0] == '.') continue;
      char path[4096];
      snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
      files += replay_file(path);
    }
    if (d != NULL) closedir(d);
  }
  if (files == 0) {
    dprintf(STDERR_FILENO, "replay: no corpus files\n");
    return 2;
  }
  dprintf(STDOUT_FILENO, "%ld passed (and the empty input), 0 failed\n", files);
  return 0;
}
