/* SPDX-License-Identifier: Apache-2.0 */
/* Model loading, inference and running from arbitrary bytes. Inputs with
 * fully numeric declared dims are bound to zero-filled tensors; analysis
 * runs once without bindings and once with bindings taken from the bytes. */
#include <onnxshape.h>
#include <stdlib.h>

#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUT_BYTES 65536

#define MAX_BOUND 8 /* inputs and symbols bound, and the rank of a bound input */

/* Analysis again, with the inputs of known rank bound to dims (their known
 * ones, the others from the input's bytes) and their symbols bound to
 * numbers: the paths of --input and --dim, with consistent and
 * contradicting bindings alike. */
static void infer_bound(const onnxshape_model *m, const onnxshape_inference *inf,
                        const uint8_t *data, size_t size) {
  onnxshape_input_dims in[MAX_BOUND];
  int64_t dims[MAX_BOUND][MAX_BOUND];
  onnxshape_dim_binding sym[MAX_BOUND];
  size_t n_in = 0, n_sym = 0;
  for (size_t i = 0; i < onnxshape_model_input_count(m) && n_in < MAX_BOUND; i++) {
    const onnxshape_value_info *v = onnxshape_inference_get(inf, i);
    if (v == NULL || !v->rank_known || v->rank > MAX_BOUND) continue;
    for (size_t k = 0; k < v->rank; k++) {
      uint8_t byte = data[(i * MAX_BOUND + k) % size];
      dims[n_in][k] = v->dims[k] >= 0 && (byte & 0x80) == 0 ? v->dims[k] : (int64_t)(byte % 5);
      if (v->params[k] != NULL && n_sym < MAX_BOUND) {
        sym[n_sym++] = (onnxshape_dim_binding){v->params[k], (int64_t)((byte >> 3) % 5)};
      }
    }
    in[n_in] = (onnxshape_input_dims){v->name, v->rank, dims[n_in]};
    n_in++;
  }
  onnxshape_infer_options opts = {sizeof opts, in, n_in, sym, n_sym, (int)(data[0] & 1)};
  onnxshape_inference *bound = NULL;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  if (onnxshape_model_infer_with(m, &opts, &bound, &d) == ONNXSHAPE_OK) {
    for (size_t i = 0; i < onnxshape_inference_count(bound); i++) {
      const onnxshape_value_info *v = onnxshape_inference_get(bound, i);
      FUZZ_CHECK(v != NULL && v->name != NULL);
    }
  } else {
    FUZZ_CHECK(d.message[0] != '\0');
  }
  onnxshape_inference_free(bound);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  onnxshape_model *m = NULL;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  if (onnxshape_model_parse(data, size, NULL, &m, &d) != ONNXSHAPE_OK) {
    FUZZ_CHECK(d.message[0] != '\0');
    return 0;
  }
  onnxshape_inference *inf = NULL;
  if (onnxshape_model_infer(m, &inf, &d) == ONNXSHAPE_OK) {
    for (size_t i = 0; i < onnxshape_inference_count(inf); i++) {
      const onnxshape_value_info *v = onnxshape_inference_get(inf, i);
      FUZZ_CHECK(v != NULL && v->name != NULL);
    }
    /* Bind every input whose declared dims are all numbers. */
    size_t n_in = onnxshape_model_input_count(m);
    onnxshape_binding *b = calloc(n_in + 1, sizeof *b);
    onnxshape_tensor *ts = calloc(n_in + 1, sizeof *ts);
    void **bufs = calloc(n_in + 1, sizeof *bufs);
    size_t n_bound = 0;
    for (size_t i = 0; b != NULL && ts != NULL && bufs != NULL && i < n_in; i++) {
      const onnxshape_value_info *v = onnxshape_inference_get(inf, i);
      int64_t n;
      size_t bytes;
      int numeric = v->rank_known && v->type != 0;
      for (size_t k = 0; numeric && k < v->rank; k++) numeric = v->dims[k] >= 0;
      if (!numeric || onnxshape_dims_count(v->dims, v->rank, &n) != ONNXSHAPE_OK ||
          onnxshape_type_storage_bytes(v->type, n, &bytes) != ONNXSHAPE_OK ||
          bytes > MAX_INPUT_BYTES) {
        continue;
      }
      bufs[n_bound] = calloc(1, bytes + 1); /* zero bytes; strings: empty (NULL, 0) */
      ts[n_bound] = (onnxshape_tensor){v->type, v->rank, v->dims, bufs[n_bound], bytes};
      b[n_bound].name = v->name;
      b[n_bound].tensor = &ts[n_bound];
      n_bound++;
    }
    onnxshape_result *r = NULL;
    if (b != NULL && onnxshape_model_run(m, b, n_bound, &r, &d) == ONNXSHAPE_OK) {
      for (size_t k = 0; k < onnxshape_result_count(r); k++) {
        const onnxshape_tensor *t = onnxshape_result_tensor(r, k);
        int64_t n;
        size_t bytes;
        FUZZ_CHECK(onnxshape_dims_count(t->dims, t->rank, &n) == ONNXSHAPE_OK);
        FUZZ_CHECK(onnxshape_type_storage_bytes(t->type, n, &bytes) == ONNXSHAPE_OK);
        FUZZ_CHECK(t->data_bytes >= bytes);
        volatile unsigned sum = 0;
        for (size_t i = 0; i < bytes; i++) sum += ((const unsigned char *)t->data)[i];
        (void)sum;
      }
    }
    onnxshape_result_free(r);
    infer_bound(m, inf, data, size);
    for (size_t i = 0; bufs != NULL && i < n_bound; i++) free(bufs[i]);
    free(bufs);
    free(ts);
    free(b);
  }
  onnxshape_inference_free(inf);
  onnxshape_model_free(m);
  return 0;
}
