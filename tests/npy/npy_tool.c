/* SPDX-License-Identifier: Apache-2.0 */
/* The C side of tests/npy/roundtrip.py: reads a tensor file (a .npy, or a
 * TensorProto) with onnxshape_tensor_read_file and writes it back as .npy
 * (onnxshape_tensor_write_npy_file) and, when a second path is given, as a
 * TensorProto (onnxshape_tensor_write_file). Prints the message and exits
 * 1 on failure. Usage: npy_tool IN OUT.npy [OUT.pb] */
#include <onnxshape.h>
#include <stdio.h>

int main(int argc, char **argv) {
  if (argc < 3 || argc > 4) {
    fprintf(stderr, "usage: npy_tool IN OUT.npy [OUT.pb]\n");
    return 2;
  }
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_owned_tensor *t = NULL;
  onnxshape_status st = onnxshape_tensor_read_file(argv[1], &t, &d);
  if (st == ONNXSHAPE_OK) {
    st = onnxshape_tensor_write_npy_file(argv[2], onnxshape_owned_tensor_get(t), &d);
  }
  if (st == ONNXSHAPE_OK && argc == 4) {
    st = onnxshape_tensor_write_file(argv[3], "x", onnxshape_owned_tensor_get(t), &d);
  }
  /* A mapped input must still be what was read. */
  if (st == ONNXSHAPE_OK) st = onnxshape_owned_tensor_check_file(t, &d);
  onnxshape_owned_tensor_free(t);
  if (st != ONNXSHAPE_OK) {
    fprintf(stderr, "npy_tool: %s: %s\n", onnxshape_status_name(st), d.message);
    return 1;
  }
  return 0;
}
