/* SPDX-License-Identifier: Apache-2.0 */
/* onnxshape infer [--json]: what can be known of every value without input
 * data, and a summary of the Shape, Reshape and Size outputs (docs/cli.md). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The known elements of v (integer and bool values), at most 16 shown by
 * the human form; every one in JSON. */
void cli_put_elem(FILE *f, const onnxshape_elem *e, int json) {
  if (e->known) fprintf(f, "%lld", (long long)e->value);
  else if (e->param != NULL && json) cli_put_json_string(f, e->param, strlen(e->param));
  else if (e->param != NULL) cli_put_name(f, e->param);
  else fputs(json ? "null" : "?", f);
}

void cli_put_values(FILE *f, const onnxshape_value_info *v) {
  int list = !(v->rank_known && v->rank == 0);
  if (list) fputc('[', f);
  for (size_t k = 0; k < v->n_values; k++) {
    if (k > 0) fputs(", ", f);
    cli_put_elem(f, &v->values[k], 0);
  }
  if (list) fputc(']', f);
}

/* "from OP-V" (the version when known; "DOMAIN:OP" outside the default
 * domain) and the node's name. */
static void put_producer(const onnxshape_value_info *v) {
  fputs(" from ", stdout);
  cli_put_op(stdout, v);
  if (v->node[0] != '\0') {
    fputc(' ', stdout);
    cli_put_text(stdout, v->node, strlen(v->node), 1);
  }
}

void cli_put_op(FILE *f, const onnxshape_value_info *v) {
  if (v->domain != NULL && v->domain[0] != '\0') {
    cli_put_name(f, v->domain);
    fputc(':', f);
  }
  cli_put_name(f, v->op);
  if (v->version > 0) fprintf(f, "-%d", v->version);
}

/* Whether the library's struct has the sequence and optional fields (a
 * struct of an older library does not). */
static int has_kind(const onnxshape_value_info *v) {
  return v->size >= offsetof(onnxshape_value_info, holds) + sizeof v->holds;
}

/* v's type and dims ("float [N,3]", "? [...]"); a sequence's as
 * "seq(ELEMENT), length L", an optional's as "optional(ELEMENT)" and
 * ", holds an element" or ", empty" when that is known (ELEMENT "?" when
 * nothing is known of it). */
static void put_type_dims(const onnxshape_value_info *v) {
  if (has_kind(v) && v->kind != ONNXSHAPE_KIND_TENSOR) {
    fputs(v->kind == ONNXSHAPE_KIND_SEQUENCE ? "seq(" : "optional(", stdout);
    if (v->element != NULL) put_type_dims(v->element);
    else fputc('?', stdout);
    fputc(')', stdout);
    if (v->kind == ONNXSHAPE_KIND_SEQUENCE) {
      fputs(", length ", stdout);
      cli_put_elem(stdout, &v->length, 0);
    } else if (v->holds >= 0) {
      fputs(v->holds ? ", holds an element" : ", empty", stdout);
    }
    return;
  }
  printf("%s ", v->type != 0 ? onnxshape_type_name(v->type) : "?");
  if (v->rank_known) cli_print_dims(stdout, v->rank, v->dims, v->params);
  else fputs("[...]", stdout);
}

void cli_put_value(const onnxshape_value_info *v) {
  if (v->graph[0] != '\0') {
    cli_put_name(stdout, v->graph);
    fputs(": ", stdout);
  }
  cli_put_name(stdout, v->name);
  fputs(": ", stdout);
  put_type_dims(v);
  if (v->n_values > 0 && v->n_values <= 16) {
    fputs(" = ", stdout);
    cli_put_values(stdout, v);
  }
  if (v->op != NULL) put_producer(v);
}

/* "type":...,"dims":... of v, and for a sequence or an optional
 * ,"kind":...,"element":{...} and its "length" or "holds". */
static void put_type_dims_json(const onnxshape_value_info *v) {
  fputs("\"type\":", stdout);
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
  if (!has_kind(v) || v->kind == ONNXSHAPE_KIND_TENSOR) return;
  fputs(v->kind == ONNXSHAPE_KIND_SEQUENCE ? ",\"kind\":\"sequence\"" : ",\"kind\":\"optional\"",
        stdout);
  fputs(",\"element\":", stdout);
  if (v->element != NULL) {
    fputc('{', stdout);
    put_type_dims_json(v->element);
    fputc('}', stdout);
  } else {
    fputs("null", stdout);
  }
  if (v->kind == ONNXSHAPE_KIND_SEQUENCE) {
    fputs(",\"length\":", stdout);
    cli_put_elem(stdout, &v->length, 1);
  } else {
    fputs(v->holds < 0 ? ",\"holds\":null" : v->holds ? ",\"holds\":true" : ",\"holds\":false",
          stdout);
  }
}

void cli_put_value_json(const onnxshape_value_info *v) {
  fputs("\"name\":", stdout);
  cli_put_json_string(stdout, v->name, strlen(v->name));
  fputs(",\"graph\":", stdout);
  cli_put_json_string(stdout, v->graph, strlen(v->graph));
  fputc(',', stdout);
  put_type_dims_json(v);
  if (v->n_values > 0) {
    fputs(",\"value\":[", stdout);
    for (size_t k = 0; k < v->n_values; k++) {
      if (k > 0) fputc(',', stdout);
      cli_put_elem(stdout, &v->values[k], 1);
    }
    fputc(']', stdout);
  }
  if (v->op != NULL)
    cli_put_json_node(stdout, v->node, v->domain != NULL ? v->domain : "", v->op, v->version);
}

/* The summary (docs/cli.md, "infer"): nodes of each kind, how much is known
 * of their outputs, and the operators analysis does not evaluate. */
static void print_summary(const onnxshape_infer_summary *s, int json, const char *model) {
  if (json) {
    fputs("{\"summary\":{", stdout);
    cli_put_model_key(model); /* several models: which one, as check's summary says */
    printf("\"nodes\":{\"Shape\":%lu,\"Reshape\":%lu,\"Size\":%lu},"
           "\"resolved\":%lu,\"partial\":%lu,\"unknown\":%lu,\"not_evaluated\":{",
           (unsigned long)s->shape_nodes, (unsigned long)s->reshape_nodes,
           (unsigned long)s->size_nodes, (unsigned long)s->resolved, (unsigned long)s->partial,
           (unsigned long)s->unknown);
  } else {
    printf("summary: %lu Shape, %lu Reshape, %lu Size; %lu resolved, %lu partial, %lu unknown",
           (unsigned long)s->shape_nodes, (unsigned long)s->reshape_nodes,
           (unsigned long)s->size_nodes, (unsigned long)s->resolved, (unsigned long)s->partial,
           (unsigned long)s->unknown);
    if (s->failures > 0) printf("; %lu certain to fail", (unsigned long)s->failures);
    if (s->out_of_work > 0) {
      printf("; %lu left unknown at the analysis budget (%llu units of work)",
             (unsigned long)s->out_of_work, (unsigned long long)s->work_limit);
    }
    if (s->n_not_evaluated > 0) fputs("; not evaluated:", stdout);
  }
  for (size_t i = 0; i < s->n_not_evaluated; i++) {
    const onnxshape_op_count *c = &s->not_evaluated[i];
    if (json) {
      /* the key: OP, or DOMAIN:OP outside the default domain */
      size_t dl = strlen(c->domain), ol = strlen(c->op);
      char *key = malloc(dl + ol + 2);
      if (key == NULL) continue;
      if (dl > 0) {
        memcpy(key, c->domain, dl);
        key[dl++] = ':';
      }
      memcpy(key + dl, c->op, ol + 1);
      if (i > 0) fputc(',', stdout);
      cli_put_json_string(stdout, key, dl + ol);
      printf(":%lu", (unsigned long)c->count);
      free(key);
    } else {
      fputs(i > 0 ? ", " : " ", stdout);
      if (c->domain[0] != '\0') {
        cli_put_name(stdout, c->domain);
        fputc(':', stdout);
      }
      cli_put_name(stdout, c->op);
      printf(" %lu", (unsigned long)c->count);
    }
  }
  if (s->not_evaluated_more > 0 && !json) {
    printf(", and %lu more nodes", (unsigned long)s->not_evaluated_more);
  }
  if (json) {
    printf("},\"failures\":%lu,\"out_of_work\":%lu}}\n", (unsigned long)s->failures,
           (unsigned long)s->out_of_work);
  } else {
    fputc('\n', stdout);
  }
}

/* A non-negative decimal number of digits only, fitting int64. */
static int parse_dim(const char *s, size_t len, int64_t *v) {
  if (len == 0 || len > 19) return 0;
  uint64_t x = 0;
  for (size_t i = 0; i < len; i++) {
    if (s[i] < '0' || s[i] > '9') return 0;
    x = x * 10u + (uint64_t)(s[i] - '0');
  }
  if (x > (uint64_t)INT64_MAX) return 0;
  *v = (int64_t)x;
  return 1;
}

/* --input NAME=D0,D1,... (NAME= alone: a scalar); the last '=' ends NAME. */
static int parse_input(char *arg, onnxshape_input_dims *in, int64_t **store) {
  char *eq = strrchr(arg, '=');
  if (eq == NULL || eq == arg) return 0;
  *eq = '\0';
  const char *list = eq + 1;
  size_t n = *list == '\0' ? 0 : 1;
  for (const char *p = list; *p != '\0'; p++) n += *p == ',';
  int64_t *dims = malloc((n + 1) * sizeof *dims);
  if (dims == NULL) return 0;
  *store = dims;
  const char *p = list;
  for (size_t k = 0; k < n; k++) {
    const char *end = strchr(p, ',');
    size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
    if (!parse_dim(p, len, &dims[k])) return 0;
    p += len + 1;
  }
  in->name = arg;
  in->rank = n;
  in->dims = dims;
  return 1;
}

/* --dim SYMBOL=VALUE */
static int parse_symbol(char *arg, onnxshape_dim_binding *b) {
  char *eq = strrchr(arg, '=');
  if (eq == NULL || eq == arg) return 0;
  *eq = '\0';
  b->symbol = arg;
  return parse_dim(eq + 1, strlen(eq + 1), &b->value);
}

/* The value of option `name` at argv[*i] ("--name V" or "--name=V"), or NULL. */
static char *option_value(int argc, char **argv, int *i, const char *name) {
  size_t len = strlen(name);
  if (strncmp(argv[*i], name, len) != 0) return NULL;
  if (argv[*i][len] == '=') return argv[*i] + len + 1;
  if (argv[*i][len] != '\0' || *i + 1 >= argc) return NULL;
  return argv[++*i];
}

/* What infer prints: --json, --ops shape, --why NAME; with several
 * models, the one being printed (its name on each JSON line). */
typedef struct infer_view {
  int json;
  int ops_shape;     /* only the outputs of Shape, Reshape and Size nodes */
  const char *why;   /* the value whose chain is printed, or NULL */
  const char *model; /* several models: the one printed, else NULL */
  const char *write_model; /* --write-model FILE, or NULL */
} infer_view;

void cli_put_model_key(const char *model) {
  if (model == NULL) return;
  fputs("\"model\":", stdout);
  cli_put_json_string(stdout, model, strlen(model));
  fputc(',', stdout);
}

/* The command line of infer: the options into opts (whose inputs and dims
 * arrays have room for argc entries; stores[k] holds input k's dims), the
 * models into models (room for argc) and *n_models, the rest into *view.
 * The exit status. */
static int parse_infer(int argc, char **argv, onnxshape_infer_options *opts,
                       onnxshape_input_dims *inputs, onnxshape_dim_binding *dims, int64_t **stores,
                       const char **models, size_t *n_models, infer_view *view) {
  int rc = EXIT_OK;
  for (int i = 0; i < argc && rc == EXIT_OK; i++) {
    char *v;
    if (strcmp(argv[i], "--json") == 0) {
      view->json = 1;
    } else if (strncmp(argv[i], "--ops", 5) == 0 && (argv[i][5] == '\0' || argv[i][5] == '=')) {
      const char *shown = argv[i];
      v = option_value(argc, argv, &i, "--ops");
      if (v == NULL) rc = cli_usage_error("%s needs shape or all", cli_shown(shown));
      else if (strcmp(v, "shape") == 0) view->ops_shape = 1;
      else if (strcmp(v, "all") == 0) view->ops_shape = 0;
      else rc = cli_usage_error("bad --ops '%s' (shape or all)", cli_shown(v));
    } else if (strncmp(argv[i], "--why", 5) == 0 && (argv[i][5] == '\0' || argv[i][5] == '=')) {
      const char *shown = argv[i];
      v = option_value(argc, argv, &i, "--why");
      if (v == NULL) rc = cli_usage_error("%s needs a value's NAME", cli_shown(shown));
      else if (view->why != NULL) rc = cli_usage_error("--why '%s': one --why per call", cli_shown(v));
      else view->why = v;
    } else if (strncmp(argv[i], "--write-model", 13) == 0 &&
               (argv[i][13] == '\0' || argv[i][13] == '=')) {
      const char *shown = argv[i];
      v = option_value(argc, argv, &i, "--write-model");
      if (v == NULL || v[0] == '\0') rc = cli_usage_error("%s needs a FILE to write", cli_shown(shown));
      else if (view->write_model != NULL)
        rc = cli_usage_error("--write-model '%s': one --write-model per call", cli_shown(v));
      else if (cli_is_stdin(v))
        rc = cli_usage_error("%s", "--write-model needs a file name ('-' is standard input, "
                                   "where infer prints)");
      else view->write_model = v;
    } else if (strncmp(argv[i], "--input", 7) == 0 && (argv[i][7] == '\0' || argv[i][7] == '=')) {
      const char *shown = argv[i];
      v = option_value(argc, argv, &i, "--input");
      if (v == NULL) rc = cli_usage_error("%s needs NAME=D0,D1,...", cli_shown(shown));
      else if (!parse_input(v, &inputs[opts->n_inputs], &stores[opts->n_inputs]))
        rc = cli_usage_error("bad --input '%s' (NAME=D0,D1,..., each dim a number >= 0)", cli_shown(v));
      else opts->n_inputs++;
    } else if (strncmp(argv[i], "--dim", 5) == 0 && (argv[i][5] == '\0' || argv[i][5] == '=')) {
      const char *shown = argv[i];
      v = option_value(argc, argv, &i, "--dim");
      if (v == NULL) rc = cli_usage_error("%s needs SYMBOL=VALUE", cli_shown(shown));
      else if (!parse_symbol(v, &dims[opts->n_dims]))
        rc = cli_usage_error("bad --dim '%s' (SYMBOL=VALUE, a number >= 0)", cli_shown(v));
      else opts->n_dims++;
    } else if (argv[i][0] == '-' && argv[i][1] == 'i') {
      /* run's -i takes a tensor file; infer's inputs are dims */
      rc = cli_usage_error("unknown option '%s' (infer takes an input's dims as "
                           "--input NAME=D0,D1,...; -i FILE is run's)",
                           cli_shown(argv[i]));
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      rc = cli_usage_error("unknown option '%s'", cli_shown(argv[i]));
    } else {
      models[(*n_models)++] = argv[i];
    }
  }
  if (rc == EXIT_OK && *n_models == 0) rc = cli_usage_error("%s", "infer needs a MODEL");
  size_t from_stdin = 0;
  for (size_t k = 0; k < *n_models; k++) from_stdin += cli_is_stdin(models[k]);
  if (rc == EXIT_OK && from_stdin > 1) {
    rc = cli_usage_error("%s", "standard input ('-') can be read once per call");
  }
  if (rc == EXIT_OK && view->write_model != NULL && *n_models > 1) {
    rc = cli_usage_error("--write-model '%s' writes one model: give one MODEL",
                         cli_shown(view->write_model));
  }
  if (rc == EXIT_OK && view->why != NULL && view->ops_shape) {
    rc = cli_usage_error("%s", "--why prints one value's chain; --ops shape does not apply to it");
  }
  return rc;
}

/* 1 for an output of a Shape, Reshape or Size node. */
static int is_shape_op(const onnxshape_value_info *v) {
  return v->op != NULL && (v->domain == NULL || v->domain[0] == '\0') &&
         (strcmp(v->op, "Shape") == 0 || strcmp(v->op, "Reshape") == 0 ||
          strcmp(v->op, "Size") == 0);
}

/* Every value (--ops shape: the outputs of Shape, Reshape and Size; --why:
 * one value's chain instead), the summary (not with --why), then each node
 * certain to fail (exit 1). */
static int print_inference(const onnxshape_inference *inf, const char *model,
                           const onnxshape_model *m, const infer_view *view) {
  int json = view->json;
  const onnxshape_infer_summary *sum = onnxshape_inference_summary(inf);
  if (view->why != NULL) {
    size_t at = 0;
    onnxshape_diag d;
    onnxshape_diag_init(&d);
    if (onnxshape_inference_find(inf, view->why, &at, &d) != ONNXSHAPE_OK) {
      if (view->model != NULL) return cli_usage_error_in(view->model, "--why: %s", d.message);
      return cli_usage_error("--why: %s", d.message);
    }
    if (!cli_why(inf, at, json, view->model)) {
      cli_error("%s", "out of memory");
      return EXIT_INVALID;
    }
  } else if (view->ops_shape && !json) {
    if (!cli_put_shape_table(inf, is_shape_op)) {
      cli_error("%s", "out of memory");
      return EXIT_INVALID;
    }
  } else {
    for (size_t i = 0; i < onnxshape_inference_count(inf); i++) {
      const onnxshape_value_info *v = onnxshape_inference_get(inf, i);
      if (view->ops_shape && !is_shape_op(v)) continue;
      if (json) {
        fputc('{', stdout);
        cli_put_model_key(view->model);
        cli_put_value_json(v);
        fputs("}\n", stdout);
      } else {
        cli_put_value(v);
        fputc('\n', stdout);
      }
    }
  }
  if (view->why == NULL) print_summary(sum, json, view->model);
  int rc = cli_check_model_files(model, m); /* printing read values too */
  for (size_t i = 0; rc == EXIT_OK && i < sum->failures; i++) {
    cli_error("%s: %s", cli_shown(model), onnxshape_inference_failure(inf, i, NULL));
  }
  return rc == EXIT_OK && sum->failures > 0 ? EXIT_INVALID : rc;
}

/* One model: loaded, analysed with opts, printed as view says. The exit
 * status. */
/* --write-model: the model of inf with its values, unless a node is
 * certain to fail (then nothing is written). The exit status. */
static int write_model(const char *path, const onnxshape_model *m, const onnxshape_inference *inf,
                       const unsigned char *bytes, size_t len, const infer_view *view) {
  if (onnxshape_inference_summary(inf)->failures > 0) {
    cli_error("--write-model: '%s' not written (the model has nodes certain to fail)",
              cli_shown(view->write_model));
    return EXIT_INVALID;
  }
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_status st =
      bytes != NULL
          ? onnxshape_inference_write_model_bytes(m, inf, bytes, len, view->write_model, &d)
          : onnxshape_inference_write_model(m, inf, path, view->write_model, &d);
  if (st == ONNXSHAPE_OK) return EXIT_OK;
  cli_error("%s", d.message);
  return cli_exit_for(st);
}

static int infer_one(const char *path, const onnxshape_infer_options *opts,
                     const infer_view *view) {
  onnxshape_model *m = NULL;
  unsigned char *bytes = NULL; /* a model from standard input, for --write-model */
  size_t len = 0;
  int rc = view->write_model != NULL ? cli_load_model_keep(path, &m, &bytes, &len)
                                     : cli_load_model(path, &m);
  const char *model = cli_display_name(path); /* in what is printed */
  onnxshape_inference *inf = NULL;
  if (rc == EXIT_OK) {
    onnxshape_diag d;
    onnxshape_diag_init(&d);
    onnxshape_status st = onnxshape_model_infer_with(m, opts, &inf, &d);
    /* The analysis read initializers in the mapped files: a file cut short
     * meanwhile makes its result (or its failure) wrong. */
    if ((rc = cli_check_model_files(model, m)) != EXIT_OK) {
      /* reported */
    } else if ((st == ONNXSHAPE_ERR_NOT_FOUND || st == ONNXSHAPE_ERR_INVALID_ARGUMENT) &&
               view->model != NULL) {
      rc = cli_usage_error_in(model, "%s", d.message);
    } else if (st == ONNXSHAPE_ERR_NOT_FOUND || st == ONNXSHAPE_ERR_INVALID_ARGUMENT) {
      rc = cli_usage_error("%s", d.message);
    } else if (st != ONNXSHAPE_OK) {
      cli_error("%s: %s", cli_shown(model), d.message);
      rc = cli_exit_for(st);
    }
  }
  if (rc == EXIT_OK) rc = print_inference(inf, model, m, view);
  if (view->write_model != NULL && inf != NULL && (rc == EXIT_OK || rc == EXIT_INVALID)) {
    int w = write_model(path, m, inf, bytes, len, view);
    if (w > rc) rc = w;
  }
  free(bytes);
  onnxshape_inference_free(inf);
  onnxshape_model_free(m);
  return rc;
}

int cli_infer(int argc, char **argv) {
  infer_view view = {0, 0, NULL, NULL, NULL};
  size_t n = (size_t)argc + 1, n_models = 0;
  onnxshape_input_dims *inputs = calloc(n, sizeof *inputs);
  int64_t **stores = calloc(n, sizeof *stores);
  onnxshape_dim_binding *dims = calloc(n, sizeof *dims);
  const char **models = calloc(n, sizeof *models);
  onnxshape_infer_options opts = ONNXSHAPE_INFER_OPTIONS_INIT;
  opts.inputs = inputs;
  opts.dims = dims;
  opts.keep_going = 1; /* the whole analysis, then the nodes certain to fail */
  int rc = EXIT_OK;
  if (inputs == NULL || stores == NULL || dims == NULL || models == NULL) {
    cli_error("%s", "out of memory");
    rc = EXIT_INVALID;
  }
  if (rc == EXIT_OK) {
    rc = parse_infer(argc, argv, &opts, inputs, dims, stores, models, &n_models, &view);
  }
  int worst = EXIT_OK;
  /* Each model in turn, the same options for each; the exit status is the
   * worst (2 over 1 over 0). With several, each is headed by its name
   * (JSON: a "model" key on every object). */
  for (size_t k = 0; rc == EXIT_OK && k < n_models; k++) {
    if (n_models > 1) {
      view.model = cli_display_name(models[k]);
      if (!view.json) {
        fputs(k > 0 ? "\n==> " : "==> ", stdout);
        cli_put_name(stdout, view.model);
        fputs(" <==\n", stdout);
      }
    }
    int one = infer_one(models[k], &opts, &view);
    if (one > worst) worst = one;
  }
  if (rc == EXIT_OK) rc = worst;
  free(models);
  for (size_t k = 0; stores != NULL && k < n; k++) free(stores[k]);
  free(stores);
  free(inputs);
  free(dims);
  return rc;
}
