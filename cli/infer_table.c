/* SPDX-License-Identifier: Apache-2.0 */
/* infer --ops shape: the outputs of Shape, Reshape and Size nodes as a
 * table per graph (docs/cli.md, "infer"). Columns are aligned to their
 * widest cell up to COLUMN_MAX; a longer cell is printed whole and the
 * next cell of its row starts on a new line at its column, so nothing is
 * cut and the other rows stay aligned. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { COLUMNS = 6, COLUMN_MAX = 40, INDENT = 2, GAP = 2 };

static const char *const titles[COLUMNS] = {"NAME", "OP", "NODE", "TYPE", "DIMS", "VALUES"};

/* Column `col` of v's row into f: the same escaped text as infer's line. */
static void put_cell(FILE *f, const onnxshape_value_info *v, int col) {
  switch (col) {
  case 0:
    cli_put_name(f, v->name);
    break;
  case 1:
    cli_put_op(f, v);
    break;
  case 2:
    cli_put_text(f, v->node, strlen(v->node), 1);
    break;
  case 3:
    fputs(v->type != 0 ? onnxshape_type_name(v->type) : "?", f);
    break;
  case 4:
    if (v->rank_known) cli_print_dims(f, v->rank, v->dims, v->params);
    else fputs("[...]", f);
    break;
  default:
    if (v->n_values > 0 && v->n_values <= 16) cli_put_values(f, v);
    break;
  }
}

/* The columns a terminal gives text of len bytes (UTF-8: one per
 * character; escaped text is otherwise ASCII). */
static size_t width_of(const char *s, size_t len) {
  size_t w = 0;
  for (size_t i = 0; i < len; i++) w += ((unsigned char)s[i] & 0xC0) != 0x80;
  return w;
}

/* Cell `col` of v (v NULL: the column's title) as text: malloc'd, with
 * *len; NULL when out of memory. */
static char *cell(const onnxshape_value_info *v, int col, size_t *len) {
  char *text = NULL;
  FILE *f = open_memstream(&text, len);
  if (f == NULL) return NULL;
  if (v == NULL) fputs(titles[col], f);
  else put_cell(f, v, col);
  if (fclose(f) != 0) {
    free(text);
    return NULL;
  }
  return text;
}

/* One row (v NULL: the titles) at the columns' starts. 0 when out of
 * memory. */
static int put_row(const onnxshape_value_info *v, const size_t *start) {
  size_t at = 0;
  for (int col = 0; col < COLUMNS; col++) {
    size_t len = 0;
    char *text = cell(v, col, &len);
    if (text == NULL) return 0;
    if (len > 0) {
      if (at > start[col]) { /* the cell before overflowed its column */
        fputc('\n', stdout);
        at = 0;
      }
      for (; at < start[col]; at++) fputc(' ', stdout);
      fwrite(text, 1, len, stdout);
      at += width_of(text, len);
    }
    free(text);
  }
  fputc('\n', stdout);
  return 1;
}

/* The table of values [from, to) of one graph (which `pick` takes). */
static int put_group(const onnxshape_inference *inf, size_t from, size_t to,
                     int (*pick)(const onnxshape_value_info *v)) {
  size_t width[COLUMNS], start[COLUMNS];
  for (int col = 0; col < COLUMNS; col++) width[col] = strlen(titles[col]);
  for (size_t i = from; i < to; i++) {
    const onnxshape_value_info *v = onnxshape_inference_get(inf, i);
    if (!pick(v)) continue;
    for (int col = 0; col < COLUMNS; col++) {
      size_t len = 0;
      char *text = cell(v, col, &len);
      if (text == NULL) return 0;
      size_t w = width_of(text, len);
      free(text);
      if (w > COLUMN_MAX) w = COLUMN_MAX;
      if (w > width[col]) width[col] = w;
    }
  }
  start[0] = INDENT;
  for (int col = 1; col < COLUMNS; col++) start[col] = start[col - 1] + width[col - 1] + GAP;
  const char *path = onnxshape_inference_get(inf, from)->graph;
  if (path[0] == '\0') {
    fputs("main graph:\n", stdout);
  } else {
    fputs("graph ", stdout);
    cli_put_name(stdout, path);
    fputs(":\n", stdout);
  }
  if (!put_row(NULL, start)) return 0;
  for (size_t i = from; i < to; i++) {
    const onnxshape_value_info *v = onnxshape_inference_get(inf, i);
    if (pick(v) && !put_row(v, start)) return 0;
  }
  return 1;
}

int cli_put_shape_table(const onnxshape_inference *inf,
                        int (*pick)(const onnxshape_value_info *v)) {
  size_t n = onnxshape_inference_count(inf);
  /* The values of a graph are consecutive (onnxshape_inference_count());
   * a graph with none picked has no table. */
  for (size_t from = 0; from < n;) {
    const char *path = onnxshape_inference_get(inf, from)->graph;
    size_t to = from;
    int any = 0;
    for (; to < n; to++) {
      const onnxshape_value_info *v = onnxshape_inference_get(inf, to);
      if (v->graph != path) break; /* one graph, one path string */
      any |= pick(v);
    }
    if (any && !put_group(inf, from, to, pick)) return 0;
    from = to;
  }
  return 1;
}
