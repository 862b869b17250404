/* SPDX-License-Identifier: Apache-2.0 */
/* infer --why NAME: the chain from a value back to where knowledge of it
 * stops (docs/cli.md, "infer --why"): the value, then each input of its
 * node that is not fully known, depth first, down to a node that is not
 * evaluated, a graph input, the budget or a node certain to fail. A value
 * not known even up to symbols follows only its inputs known less than
 * that ("every input known" up to symbols: its own rule stopped). Each
 * value is printed once and each node's inputs are looked at once, so the
 * work is linear in the model's values and node inputs. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Indentation stops growing at this depth; deeper steps say their depth. */
enum { DEPTH_SHOWN = 16, SYMBOLS_SHOWN = 8 };
/* put_step's `open`: another output of the node explained its inputs above
 * (OPEN_ABOVE); the node's inputs are each known up to symbols, shown
 * one level and not followed (OPEN_SYMBOLIC); such an input (OPEN_LEAF). */
enum { OPEN_ABOVE = -1, OPEN_SYMBOLIC = -2, OPEN_LEAF = -3 };

/* 1 for the integer and bool types, whose elements analysis follows. */
static int has_elements(int32_t type) {
  switch (type) {
  case ONNXSHAPE_TYPE_BOOL: case ONNXSHAPE_TYPE_UINT8: case ONNXSHAPE_TYPE_INT8:
  case ONNXSHAPE_TYPE_UINT16: case ONNXSHAPE_TYPE_INT16: case ONNXSHAPE_TYPE_INT32:
  case ONNXSHAPE_TYPE_UINT32: case ONNXSHAPE_TYPE_INT64: case ONNXSHAPE_TYPE_UINT64:
    return 1;
  default:
    return 0;
  }
}

/* 1 when v is known up to symbols: its type, its rank, every dim a number
 * or an expression and, for an integer or bool value of at most 1024
 * elements (a count of numbers), every element a number or an
 * expression. */
static int known_in_symbols(const onnxshape_value_info *v) {
  if (v->type == 0 || !v->rank_known) return 0;
  uint64_t count = 1;
  for (size_t k = 0; k < v->rank; k++) {
    if (v->dims[k] < 0 && (v->params == NULL || v->params[k] == NULL)) return 0;
    /* the count, or 1025 past 1024 or where a dim is an expression */
    uint64_t d = v->dims[k] < 0 ? 1025 : (uint64_t)v->dims[k];
    if (count != 0) count = d == 0 ? 0 : count > 1024 || d > 1024 ? 1025 : count * d;
  }
  if (v->value == NULL && has_elements(v->type) && count >= 1 && count <= 1024 &&
      v->n_values != count) {
    return 0;
  }
  for (size_t k = 0; k < v->n_values; k++) {
    if (!v->values[k].known && v->values[k].param == NULL) return 0;
  }
  return 1;
}

/* 1 when everything of v is known: its type, every dim a number and, for
 * an integer or bool value of at most 1024 elements (whose elements
 * analysis follows), every element. */
static int fully_known(const onnxshape_value_info *v) {
  if (v->type == 0 || !v->rank_known) return 0;
  uint64_t count = 1;
  for (size_t k = 0; k < v->rank; k++) {
    if (v->dims[k] < 0) return 0;
    /* the count, or 1025 for any count past 1024 (never wrapping) */
    uint64_t d = (uint64_t)v->dims[k];
    if (count != 0) count = d == 0 ? 0 : count > 1024 || d > 1024 ? 1025 : count * d;
  }
  if (v->value != NULL || !has_elements(v->type)) return 1;
  if (count > 1024 || count == 0) return 1;
  if (v->n_values != count) return 0;
  for (size_t k = 0; k < v->n_values; k++) {
    if (!v->values[k].known) return 0;
  }
  return 1;
}

static const char *origin_name(int origin) {
  switch (origin) {
  case ONNXSHAPE_ORIGIN_INPUT: return "input";
  case ONNXSHAPE_ORIGIN_INITIALIZER: return "initializer";
  case ONNXSHAPE_ORIGIN_EVALUATED: return "evaluated";
  case ONNXSHAPE_ORIGIN_DECLARED: return "declared";
  case ONNXSHAPE_ORIGIN_UNDECLARED: return "undeclared";
  case ONNXSHAPE_ORIGIN_BUDGET: return "budget";
  case ONNXSHAPE_ORIGIN_FAILED: return "failed";
  default: return "not_analysed";
  }
}

/* The distinct symbols of a graph input's dims (at most `cap`); *more
 * when there are others. */
static size_t input_symbols(const onnxshape_value_info *v, const char **sym, size_t cap,
                            int *more) {
  size_t n = 0;
  *more = 0;
  for (size_t k = 0; v->rank_known && v->params != NULL && k < v->rank; k++) {
    const char *p = v->params[k];
    if (v->dims[k] >= 0 || p == NULL) continue;
    size_t j = 0;
    while (j < n && strcmp(sym[j], p) != 0) j++;
    if (j < n) continue;
    if (n == cap) {
      *more = 1;
      break;
    }
    sym[n++] = p;
  }
  return n;
}

/* 1 when p is the symbol analysis gives dim k of input `name` when the
 * input declares neither a number nor a symbol there: "<name>_d<k>",
 * perhaps made unique with "#<digits>" (docs/analysis.md, "Graph
 * inputs"). --dim cannot bind it; --input can. */
static int undeclared_dim_symbol(const char *name, size_t k, const char *p) {
  size_t len = strlen(name);
  if (strncmp(p, name, len) != 0 || p[len] != '_' || p[len + 1] != 'd') return 0;
  char digits[24];
  size_t n = 0;
  do {
    digits[n++] = (char)('0' + k % 10);
    k /= 10;
  } while (k != 0);
  p += len + 2;
  for (size_t i = 0; i < n; i++) {
    if (p[i] != digits[n - 1 - i]) return 0;
  }
  p += n;
  if (*p == '\0') return 1;
  if (*p++ != '#' || *p == '\0') return 0;
  while (*p >= '0' && *p <= '9') p++;
  return *p == '\0';
}

/* 1 when a dim of v is neither a number nor a declared symbol. */
static int has_unknown_dim(const onnxshape_value_info *v) {
  for (size_t k = 0; v->rank_known && k < v->rank; k++) {
    if (v->dims[k] >= 0) continue;
    if (v->params == NULL || v->params[k] == NULL ||
        undeclared_dim_symbol(v->name, k, v->params[k])) {
      return 1;
    }
  }
  return 0;
}

/* What a main-graph input needs to be known, after its line. */
static void put_input_hint(const onnxshape_value_info *v) {
  const char *sym[SYMBOLS_SHOWN];
  int more = 0;
  size_t n = input_symbols(v, sym, SYMBOLS_SHOWN, &more);
  if (!v->rank_known || has_unknown_dim(v)) {
    fputs(": graph input whose dims are not all declared: give them with --input ", stdout);
    cli_put_name(stdout, v->name);
    fputs("=D0,D1,...", stdout);
    return;
  }
  if (n == 0) {
    fputs(fully_known(v) ? ": graph input" : ": graph input (its values are data)", stdout);
    return;
  }
  fputs(": graph input; bind ", stdout);
  for (size_t k = 0; k < n; k++) {
    if (k > 0) fputs(k + 1 == n && !more ? " and " : ", ", stdout);
    cli_put_name(stdout, sym[k]);
  }
  if (more) fputs(" and the others", stdout);
  fputs(" with", stdout);
  for (size_t k = 0; k < n; k++) {
    fputs(" --dim ", stdout);
    cli_put_name(stdout, sym[k]);
    fputs("=...", stdout);
  }
  fputs(" or --input ", stdout);
  cli_put_name(stdout, v->name);
  fputs("=...", stdout);
}

/* A set of the nodes whose inputs were looked at, by their shared inputs
 * array (open addressing; room for every value). */
typedef struct node_set {
  const size_t **slot;
  size_t mask;
} node_set;

/* 1 when p was added, 0 when it was there. */
static int node_set_add(node_set *s, const size_t *p) {
  size_t h = (size_t)(((uintptr_t)p >> 3) * (uintptr_t)0x9E3779B97F4A7C15u) & s->mask;
  while (s->slot[h] != NULL) {
    if (s->slot[h] == p) return 0;
    h = (h + 1) & s->mask;
  }
  s->slot[h] = p;
  return 1;
}

/* Where v's chain goes on: 1 when its node's inputs are to be looked at
 * (evaluated, and not fully known: a known value needs no reason). */
static int goes_on(const onnxshape_value_info *v) {
  return v->origin == ONNXSHAPE_ORIGIN_EVALUATED && v->n_inputs > 0 && !fully_known(v);
}

/* The step of value i at depth `depth`, reached from step `parent` (-1
 * for the first). `open`: inputs of its node not fully known (-1: its
 * node's inputs were listed for another of its outputs). */
static void put_step(const onnxshape_value_info *v, size_t depth, long parent, long open,
                     int json, int first) {
  if (json) {
    if (!first) fputc(',', stdout);
    fputc('{', stdout);
    cli_put_value_json(v);
    printf(",\"depth\":%lu,\"parent\":", (unsigned long)depth);
    if (parent < 0) fputs("null", stdout);
    else printf("%ld", parent);
    printf(",\"origin\":\"%s\",\"declaration_used\":%s,\"known\":%s", origin_name(v->origin),
           v->declaration_used ? "true" : "false", fully_known(v) ? "true" : "false");
    if (v->origin == ONNXSHAPE_ORIGIN_INPUT && v->graph[0] == '\0') {
      const char *sym[SYMBOLS_SHOWN];
      int more = 0;
      size_t n = input_symbols(v, sym, SYMBOLS_SHOWN, &more);
      fputs(",\"symbols\":[", stdout);
      for (size_t k = 0; k < n; k++) {
        if (k > 0) fputc(',', stdout);
        cli_put_json_string(stdout, sym[k], strlen(sym[k]));
      }
      fputc(']', stdout);
    }
    fputc('}', stdout);
    return;
  }
  size_t shown = depth < DEPTH_SHOWN ? depth : DEPTH_SHOWN;
  for (size_t k = 0; k < shown; k++) fputs("  ", stdout);
  if (depth > DEPTH_SHOWN) printf("(depth %lu) ", (unsigned long)depth);
  cli_put_value(v);
  switch (v->origin) {
  case ONNXSHAPE_ORIGIN_INPUT:
    if (v->graph[0] == '\0') put_input_hint(v);
    else fputs(": input of a subgraph, given by the node that holds it", stdout);
    break;
  case ONNXSHAPE_ORIGIN_INITIALIZER:
    fputs(": initializer", stdout);
    break;
  case ONNXSHAPE_ORIGIN_EVALUATED:
    if (v->declaration_used) fputs("; its declaration filled in what evaluation left unknown", stdout);
    if (open == 0 && !fully_known(v)) fputs("; every input known", stdout);
    if (open == OPEN_SYMBOLIC) fputs("; every input known up to symbols", stdout);
    if (open == OPEN_LEAF) fputs("; known up to symbols (not followed)", stdout);
    if (open == OPEN_ABOVE) fputs("; its node's inputs are above", stdout);
    break;
  case ONNXSHAPE_ORIGIN_DECLARED:
    fputs(": not evaluated, outputs taken from the declaration", stdout);
    break;
  case ONNXSHAPE_ORIGIN_UNDECLARED:
    fputs(": not evaluated, no declaration", stdout);
    break;
  case ONNXSHAPE_ORIGIN_BUDGET:
    fputs(": the analysis budget ran out here", stdout);
    break;
  case ONNXSHAPE_ORIGIN_FAILED:
    fputs(": certain to fail", stdout);
    break;
  default:
    fputs(": in a branch never taken, not analysed", stdout);
    break;
  }
  fputc('\n', stdout);
}

int cli_why(const onnxshape_inference *inf, size_t at, int json, const char *model) {
  size_t n = onnxshape_inference_count(inf);
  size_t cap = 2;
  while (cap < 2 * n) cap *= 2;
  size_t *stack = malloc(n * sizeof *stack);
  size_t *depth = malloc(n * sizeof *depth);
  long *parent = malloc(n * sizeof *parent);
  unsigned char *seen = calloc(n, 1);
  unsigned char *leaves = calloc(n, 1);
  node_set nodes = {calloc(cap, sizeof(const size_t *)), cap - 1};
  int ok = stack != NULL && depth != NULL && parent != NULL && seen != NULL && leaves != NULL &&
           nodes.slot != NULL;
  if (ok && json) {
    fputc('{', stdout);
    cli_put_model_key(model);
    fputs("\"why\":", stdout);
    const onnxshape_value_info *v = onnxshape_inference_get(inf, at);
    cli_put_json_string(stdout, v->name, strlen(v->name));
    fputs(",\"steps\":[", stdout);
  }
  /* Depth first, each value pushed once (marked when pushed), its node's
   * inputs pushed in reverse so that they print in the node's order. */
  size_t top = 0;
  long steps = 0;
  if (ok) {
    stack[top] = at;
    depth[top] = 0;
    leaves[top] = 0;
    parent[top++] = -1;
    seen[at] = 1;
  }
  while (ok && top > 0) {
    top--;
    size_t i = stack[top], d = depth[top];
    long from = parent[top];
    int leaf = leaves[top];
    const onnxshape_value_info *v = onnxshape_inference_get(inf, i);
    long open = 0;
    int expand = !leaf && goes_on(v) && node_set_add(&nodes, v->inputs);
    if (!leaf && goes_on(v) && !expand) open = OPEN_ABOVE;
    /* Inputs known up to symbols explain a value known up to symbols (the
     * chain then leads to the inputs that declare them). Where v is not
     * known even so and an input is known less, only those are followed;
     * where every input is known up to symbols, v's own rule stopped: they
     * are shown, one level, not followed. */
    int symbolic_only = !known_in_symbols(v);
    for (size_t k = 0; expand && symbolic_only && k < v->n_inputs; k++) {
      size_t j = v->inputs[k];
      const onnxshape_value_info *u = j < n ? onnxshape_inference_get(inf, j) : NULL;
      if (u != NULL && !fully_known(u) && !known_in_symbols(u)) symbolic_only = 0;
    }
    for (size_t k = v->n_inputs; expand && k-- > 0;) {
      size_t j = v->inputs[k];
      if (j >= n || fully_known(onnxshape_inference_get(inf, j))) continue;
      int symbolic = known_in_symbols(onnxshape_inference_get(inf, j));
      if (!known_in_symbols(v) && symbolic && !symbolic_only) continue;
      open++;
      if (seen[j]) continue;
      seen[j] = 1;
      stack[top] = j;
      depth[top] = d + 1;
      leaves[top] = (unsigned char)(symbolic_only && !known_in_symbols(v));
      parent[top++] = steps;
    }
    if (open > 0 && symbolic_only && !known_in_symbols(v)) open = OPEN_SYMBOLIC;
    if (leaf && goes_on(v)) open = OPEN_LEAF;
    put_step(v, d, from, open, json, steps == 0);
    steps++;
  }
  if (ok && json) fputs("]}\n", stdout);
  free(stack);
  free(depth);
  free(parent);
  free(seen);
  free(leaves);
  free(nodes.slot);
  return ok;
}
