/* SPDX-License-Identifier: Apache-2.0 */
/* onnxshape infer: what can be known of every value without input data. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* Known int64 values (shapes) of up to 16 elements follow the dims. */
static void print_value(const onnxshape_tensor *t) {
  int64_t n = 0;
  if (t == NULL || t->type != ONNXSHAPE_TYPE_INT64 ||
      onnxshape_dims_count(t->dims, t->rank, &n) != ONNXSHAPE_OK || n > 16) {
    return;
  }
  fputs(" = ", stdout);
  const unsigned char *p = t->data;
  if (t->rank > 0) fputc('[', stdout);
  for (int64_t k = 0; k < n; k++) {
    printf("%s%lld", k ? ", " : "", (long long)(int64_t)onnxshape_load_le(p + 8 * k, 8));
  }
  if (t->rank > 0) fputc(']', stdout);
}

int cli_infer(int argc, char **argv) {
  if (argc != 1) return cli_usage_error("%s", "infer needs exactly one MODEL");
  onnxshape_model *m = NULL;
  int rc = cli_load_model(argv[0], &m);
  if (rc != EXIT_OK) return rc;
  onnxshape_inference *inf = NULL;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_status st = onnxshape_model_infer(m, &inf, &d);
  if (st != ONNXSHAPE_OK) {
    cli_error("%s: %s", cli_shown(argv[0]), d.message);
    onnxshape_model_free(m);
    return EXIT_INVALID;
  }
  for (size_t i = 0; i < onnxshape_inference_count(inf); i++) {
    const onnxshape_value_info *v = onnxshape_inference_get(inf, i);
    cli_put_name(stdout, v->name);
    printf(": %s ", v->type != 0 ? onnxshape_type_name(v->type) : "?");
    if (v->rank_known) cli_print_dims(stdout, v->rank, v->dims, v->params);
    else fputs("[...]", stdout);
    print_value(v->value);
    fputc('\n', stdout);
  }
  onnxshape_inference_free(inf);
  onnxshape_model_free(m);
  return EXIT_OK;
}
