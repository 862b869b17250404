/* SPDX-License-Identifier: Apache-2.0 */
/* The fast protobuf decoder (src/onnx/pbfast.c) against protobuf-c, on
 * arbitrary bytes read as a ModelProto and as a TensorProto: whenever the
 * fast path accepts, protobuf-c accepts too and every field is equal; both
 * when it copies bytes fields and when it leaves them in the input (the
 * arena's borrow flag, set for mapped model files). */
#include <stdlib.h>

#include "fuzz_input.h"
#include "onnx_subset.pb-c.h"
#include "pb/pb_equal.h"
#include "pbfast.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const ProtobufCMessageDescriptor *desc, const uint8_t *data, size_t size,
                  int borrow) {
  onnxshape__arena *a = onnxshape__arena_new(SIZE_MAX);
  FUZZ_CHECK(a != NULL);
  a->borrow = borrow;
  ProtobufCMessage *fast = onnxshape__pb_fast_decode(desc, data, size, a);
  ProtobufCMessage *ref = protobuf_c_message_unpack(desc, NULL, size, data);
  if (fast != NULL) {
    FUZZ_CHECK(ref != NULL);
    FUZZ_CHECK(pb_message_equal(fast, ref));
  }
  if (ref != NULL) protobuf_c_message_free_unpacked(ref, NULL);
  onnxshape__arena_release(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  for (int borrow = 0; borrow <= 1; borrow++) {
    check(&onnx__model_proto__descriptor, data, size, borrow);
    check(&onnx__tensor_proto__descriptor, data, size, borrow);
  }
  return 0;
}
