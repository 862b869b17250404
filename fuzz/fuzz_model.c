/* SPDX-License-Identifier: Apache-2.0 */
/* Model loading, inference and running from arbitrary bytes. Inputs with
 * fully numeric declared dims are bound to zero-filled tensors. */
#include <onnxshape.h>
#include <stdlib.h>

#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUT_BYTES 65536

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
    for (size_t i = 0; bufs != NULL && i < n_bound; i++) free(bufs[i]);
    free(bufs);
    free(ts);
    free(b);
  }
  onnxshape_inference_free(inf);
  onnxshape_model_free(m);
  return 0;
}
