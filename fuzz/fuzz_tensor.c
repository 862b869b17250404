/* SPDX-License-Identifier: Apache-2.0 */
/* TensorProto decoding from arbitrary bytes: a decoded tensor must hold
 * exactly the bytes its dims need, every byte readable. */
#include <onnxshape.h>

#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  onnxshape_owned_tensor *t = NULL;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  if (onnxshape_tensor_parse(data, size, NULL, &t, &d) != ONNXSHAPE_OK) {
    FUZZ_CHECK(d.message[0] != '\0');
    return 0;
  }
  const onnxshape_tensor *v = onnxshape_owned_tensor_get(t);
  int64_t n;
  size_t bytes;
  FUZZ_CHECK(onnxshape_dims_count(v->dims, v->rank, &n) == ONNXSHAPE_OK);
  FUZZ_CHECK(onnxshape_type_storage_bytes(v->type, n, &bytes) == ONNXSHAPE_OK);
  FUZZ_CHECK(v->data_bytes == bytes);
  volatile unsigned sum = 0;
  const unsigned char *p = v->data;
  for (size_t i = 0; i < bytes; i++) sum += p[i]; /* ASan checks every byte */
  if (v->type == ONNXSHAPE_TYPE_STRING) {
    const onnxshape_string *s = v->data;
    for (int64_t i = 0; i < n; i++) {
      for (size_t k = 0; k < s[i].length; k++) sum += (unsigned char)s[i].data[k];
    }
  }
  (void)sum;
  onnxshape_owned_tensor_free(t);
  return 0;
}
