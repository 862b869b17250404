/* SPDX-License-Identifier: Apache-2.0 */
/* Reshape a 2x3x4 float tensor to [4, -1] as a zero-copy view, then as a copy
 * into a caller buffer. No allocation anywhere: every buffer is the caller's. */
#include <onnxshape_kernels.h>
#include <stdio.h>

int main(void) {
  float data[24];
  for (int i = 0; i < 24; i++) data[i] = (float)i;
  const int64_t dims[] = {2, 3, 4};
  const onnxshape_tensor in = {ONNXSHAPE_TYPE_FLOAT, 3, dims, data, sizeof data};
  const int64_t target[] = {4, -1}; /* the values of Reshape's `shape` input */

  int64_t out_dims[2];
  onnxshape_tensor view;
  onnxshape_diag diag;
  onnxshape_diag_init(&diag);
  diag.node = "reshape0";
  onnxshape_status st = onnxshape_reshape_run_view(14, &in, target, 2, NULL, out_dims, 2,
                                                   &view, &diag);
  if (st != ONNXSHAPE_OK) {
    fprintf(stderr, "%s: %s\n", onnxshape_status_name(st), diag.message);
    return 1;
  }
  printf("view: [%lld, %lld], same data: %s\n", (long long)view.dims[0],
         (long long)view.dims[1], view.data == (const void *)data ? "yes" : "no");

  float copy[24];
  onnxshape_tensor copied;
  st = onnxshape_reshape_run_copy(14, &in, target, 2, NULL, out_dims, 2, copy, sizeof copy,
                                  &copied, &diag);
  if (st != ONNXSHAPE_OK) return 1;
  printf("copy: %zu bytes, last element %.0f\n", copied.data_bytes, (double)copy[23]);

  const int64_t bad[] = {2, -2, 6};
  st = onnxshape_reshape_infer(14, ONNXSHAPE_TYPE_FLOAT, dims, 3, bad, 3, NULL, out_dims, 2,
                               &diag);
  printf("error: %s: %s\n", onnxshape_status_name(st), diag.message);
  return st == ONNXSHAPE_ERR_DIM_BELOW_MINUS_ONE ? 0 : 1;
}
