/* SPDX-License-Identifier: Apache-2.0 */
/* The fuzz targets of the command's entry points (infer, check, run, test):
 * the fuzzer's bytes become files in a private directory, and the command
 * runs on them as a user would call it. Its stdout and stderr go to
 * /dev/null (the fuzzer's own output is unaffected). */
#ifndef ONNXSHAPE_FUZZ_CLI_H
#define ONNXSHAPE_FUZZ_CLI_H

#define _GNU_SOURCE
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "fuzz_input.h"

static char fuzz_dir[64];

extern size_t onnxshape__inplace_min; /* src/onnx/tensor.c */

/* With `mapped`, every file the command reads is mapped, as files of 64 KiB
 * and more are (MODEL-MAPPED: a model's bytes fields then point into the
 * mapping); else files are read as usual. One bit of each input chooses,
 * so the fuzzer reaches both ways whatever the size of its files. */
static inline void fuzz_cli_mapping(int mapped) {
  static size_t usual;
  if (usual == 0) usual = onnxshape__inplace_min;
  onnxshape__inplace_min = mapped ? 1 : usual;
}

static int fuzz_remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  (void)remove(path);
  return 0;
}

/* The private directory and what the commands wrote there, at exit (every
 * replay and campaign left one in /tmp). */
static void fuzz_cli_cleanup(void) {
  if (fuzz_dir[0] != '\0') (void)nftw(fuzz_dir, fuzz_remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static inline void fuzz_cli_init(void) {
  if (fuzz_dir[0] != '\0') return;
  strcpy(fuzz_dir, "/tmp/onnxshape-fuzz-XXXXXX");
  FUZZ_CHECK(mkdtemp(fuzz_dir) != NULL);
  FUZZ_CHECK(atexit(fuzz_cli_cleanup) == 0);
  FILE *sink = fopen("/dev/null", "w");
  FUZZ_CHECK(sink != NULL);
  stdout = sink;
  stderr = sink;
}

/* fuzz_dir/name, written with the n bytes at data. */
static inline const char *fuzz_file(const char *name, const uint8_t *data, size_t n) {
  static char path[4][128];
  static unsigned next;
  char *p = path[next++ % 4];
  snprintf(p, sizeof path[0], "%s/%s", fuzz_dir, name);
  FILE *f = fopen(p, "wb");
  FUZZ_CHECK(f != NULL);
  if (n > 0) FUZZ_CHECK(fwrite(data, 1, n, f) == n);
  FUZZ_CHECK(fclose(f) == 0);
  return p;
}

/* Splits the input in two at a length read from its first two bytes. */
static inline void fuzz_split(const uint8_t *data, size_t size, const uint8_t **a, size_t *na,
                       const uint8_t **b, size_t *nb) {
  size_t cut = size >= 2 ? ((size_t)data[0] | (size_t)data[1] << 8) : 0;
  data += size >= 2 ? 2 : size;
  size -= size >= 2 ? 2 : size;
  if (cut > size) cut = size;
  *a = data;
  *na = cut;
  *b = data + cut;
  *nb = size - cut;
}

/* The command's exit status is 0, 1 or 2; never anything else. */
#define FUZZ_CHECK_EXIT(rc) FUZZ_CHECK((rc) == 0 || (rc) == 1 || (rc) == 2)

#endif
