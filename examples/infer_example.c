/* SPDX-License-Identifier: Apache-2.0 */
/* Static analysis of a model file: load it, fix its input's symbolic batch
 * dim N to 2, and print what is known of every value without input data.
 * Usage: infer_example MODEL (e.g. examples/demo.onnx). */
#include <onnxshape.h>
#include <stdio.h>

static void print_value(const onnxshape_value_info *v) {
  printf("%s: %s ", v->name, v->type != 0 ? onnxshape_type_name(v->type) : "?");
  if (!v->rank_known) {
    printf("[...]");
  } else {
    printf("[");
    for (size_t k = 0; k < v->rank; k++) {
      if (k > 0) printf(",");
      if (v->dims[k] >= 0) printf("%lld", (long long)v->dims[k]);
      else printf("%s", v->params[k] != NULL ? v->params[k] : "?");
    }
    printf("]");
  }
  if (v->n_values > 0 && v->values[0].known) printf(" first value %lld", (long long)v->values[0].value);
  printf("\n");
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: infer_example MODEL\n");
    return 2;
  }
  onnxshape_diag diag;
  onnxshape_diag_init(&diag);
  onnxshape_model *model = NULL;
  onnxshape_status st = onnxshape_model_read_file(argv[1], &model, &diag);
  if (st != ONNXSHAPE_OK) {
    fprintf(stderr, "%s: %s\n", onnxshape_status_name(st), diag.message);
    return 1;
  }
  /* N = 2 wherever the model names it. */
  const onnxshape_dim_binding batch = {"N", 2};
  onnxshape_infer_options opts = ONNXSHAPE_INFER_OPTIONS_INIT;
  opts.dims = &batch;
  opts.n_dims = 1;
  onnxshape_inference *inf = NULL;
  st = onnxshape_model_infer_with(model, &opts, &inf, &diag);
  if (st != ONNXSHAPE_OK) {
    fprintf(stderr, "%s: %s\n", onnxshape_status_name(st), diag.message);
    onnxshape_model_free(model);
    return 1;
  }
  for (size_t i = 0; i < onnxshape_inference_count(inf); i++) {
    print_value(onnxshape_inference_get(inf, i));
  }
  const onnxshape_infer_summary *sum = onnxshape_inference_summary(inf);
  printf("%zu of %zu Shape/Reshape/Size outputs resolved\n", sum->resolved,
         sum->shape_nodes + sum->reshape_nodes + sum->size_nodes);
  /* The analysis borrows names and values from the model: free it first. */
  onnxshape_inference_free(inf);
  onnxshape_model_free(model);
  return 0;
}
