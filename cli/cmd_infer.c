/* SPDX-License-Identifier: Apache-2.0 */
/* onnxshape infer [--json]: what can be known of every value without input
 * data, and a summary of the Shape, Reshape and Size outputs (docs/cli.md). */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* Known int64 values (shapes) of up to 16 elements are printed; n is set to
 * their count. */
static int shown_value(const onnxshape_value_info *v, int64_t *n) {
  const onnxshape_tensor *t = v->value;
  return t != NULL && t->type == ONNXSHAPE_TYPE_INT64 &&
         onnxshape_dims_count(t->dims, t->rank, n) == ONNXSHAPE_OK && *n <= 16;
}

static int64_t value_at(const onnxshape_value_info *v, int64_t k) {
  return (int64_t)onnxshape_load_le((const unsigned char *)v->value->data + 8 * k, 8);
}

static void print_human(const onnxshape_value_info *v) {
  cli_put_name(stdout, v->name);
  printf(": %s ", v->type != 0 ? onnxshape_type_name(v->type) : "?");
  if (v->rank_known) cli_print_dims(stdout, v->rank, v->dims, v->params);
  else fputs("[...]", stdout);
  int64_t n = 0;
  if (shown_value(v, &n)) {
    fputs(" = ", stdout);
    if (v->value->rank > 0) fputc('[', stdout);
    for (int64_t k = 0; k < n; k++) printf("%s%lld", k ? ", " : "", (long long)value_at(v, k));
    if (v->value->rank > 0) fputc(']', stdout);
  }
  if (v->op != NULL) {
    printf(" from %s-%d", v->op, v->version);
    if (v->node[0] != '\0') {
      fputc(' ', stdout);
      cli_put_text(stdout, v->node, strlen(v->node), 1);
    }
  }
  fputc('\n', stdout);
}

/* {"name":..,"graph":"","type":..,"dims":[..]|null[,"value":[..]][,"node":..,"op":..,"version":..]} */
static void print_json(const onnxshape_value_info *v) {
  fputs("{\"name\":", stdout);
  cli_put_json_string(stdout, v->name, strlen(v->name));
  fputs(",\"graph\":\"\",\"type\":", stdout);
  if (v->type != 0) printf("\"%s\"", onnxshape_type_name(v->type));
  else fputs("null", stdout);
  fputs(",\"dims\":", stdout);
  if (!v->rank_known) {
    fputs("null", stdout);
  } else {
    fputc('[', stdout);
    for (size_t k = 0; k < v->rank; k++) {
      if (k > 0) fputc(',', stdout);
      if (v->dims[k] >= 0) printf("%lld", (long long)v->dims[k]);
      else if (v->params != NULL && v->params[k] != NULL)
        cli_put_json_string(stdout, v->params[k], strlen(v->params[k]));
      else fputs("null", stdout);
    }
    fputc(']', stdout);
  }
  int64_t n = 0;
  if (shown_value(v, &n)) {
    fputs(",\"value\":[", stdout);
    for (int64_t k = 0; k < n; k++) printf("%s%lld", k ? "," : "", (long long)value_at(v, k));
    fputc(']', stdout);
  }
  if (v->op != NULL) {
    fputs(",\"node\":", stdout);
    cli_put_json_string(stdout, v->node, strlen(v->node));
    fputs(",\"op\":", stdout);
    cli_put_json_string(stdout, v->op, strlen(v->op));
    printf(",\"version\":%d", v->version);
  }
  fputs("}\n", stdout);
}

/* The outputs of Shape, Reshape and Size nodes: how many nodes of each, and
 * how much is known of their results (docs/cli.md, "infer"): resolved, a
 * Shape or Size value or every Reshape dim known as a number; partial, the
 * rank (and for Shape the length) known but not all of that; unknown. */
typedef struct summary {
  unsigned long nodes[3], resolved, partial, unknown;
} summary;

static const char *const summarised[3] = {"Shape", "Reshape", "Size"};

static void count(summary *s, const onnxshape_value_info *v) {
  size_t op = 3;
  for (size_t i = 0; v->op != NULL && i < 3; i++) {
    if (strcmp(v->op, summarised[i]) == 0) op = i;
  }
  if (op == 3) return;
  s->nodes[op]++;
  int all_dims = v->rank_known;
  for (size_t k = 0; all_dims && k < v->rank; k++) all_dims = v->dims[k] >= 0;
  int resolved = op == 1 ? all_dims : v->value != NULL;
  if (resolved) s->resolved++;
  else if (op != 2 && v->rank_known) s->partial++;
  else s->unknown++;
}

static void print_summary(const summary *s, int json) {
  if (json) {
    printf("{\"summary\":{\"nodes\":{\"Shape\":%lu,\"Reshape\":%lu,\"Size\":%lu},"
           "\"resolved\":%lu,\"partial\":%lu,\"unknown\":%lu,\"not_evaluated\":{}}}\n",
           s->nodes[0], s->nodes[1], s->nodes[2], s->resolved, s->partial, s->unknown);
  } else {
    printf("summary: %lu Shape, %lu Reshape, %lu Size; %lu resolved, %lu partial, %lu unknown\n",
           s->nodes[0], s->nodes[1], s->nodes[2], s->resolved, s->partial, s->unknown);
  }
}

int cli_infer(int argc, char **argv) {
  const char *model = NULL;
  int json = 0;
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--json") == 0) json = 1;
    else if (argv[i][0] == '-' && argv[i][1] != '\0')
      return cli_usage_error("unknown option '%s'", cli_shown(argv[i]));
    else if (model != NULL) return cli_usage_error("unexpected argument '%s'", cli_shown(argv[i]));
    else model = argv[i];
  }
  if (model == NULL) return cli_usage_error("%s", "infer needs a MODEL");
  onnxshape_model *m = NULL;
  int rc = cli_load_model(model, &m);
  if (rc != EXIT_OK) return rc;
  onnxshape_inference *inf = NULL;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_status st = onnxshape_model_infer(m, &inf, &d);
  if (st != ONNXSHAPE_OK) {
    cli_error("%s: %s", cli_shown(model), d.message);
    onnxshape_model_free(m);
    return EXIT_INVALID;
  }
  summary s;
  memset(&s, 0, sizeof s);
  for (size_t i = 0; i < onnxshape_inference_count(inf); i++) {
    const onnxshape_value_info *v = onnxshape_inference_get(inf, i);
    if (json) print_json(v);
    else print_human(v);
    count(&s, v);
  }
  print_summary(&s, json);
  onnxshape_inference_free(inf);
  onnxshape_model_free(m);
  return EXIT_OK;
}
