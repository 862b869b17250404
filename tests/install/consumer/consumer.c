/* SPDX-License-Identifier: Apache-2.0 */
/* A program built against the installed package: reshapes [2,3,4] to [4,-1].
 * Against the kernels alone (KERNELS_ONLY defined) it includes only the
 * kernels' header, which must stand on its own; against the whole library
 * it includes onnxshape.h and calls a function only the library has. */
#ifdef KERNELS_ONLY
#include <onnxshape_kernels.h>
#else
#include <onnxshape.h>
#endif
#include <stdio.h>

int main(void) {
  const int64_t in[] = {2, 3, 4}, target[] = {4, -1};
  int64_t out[2];
  onnxshape_status st = onnxshape_reshape_infer(25, ONNXSHAPE_TYPE_FLOAT, in, 3, target, 2,
                                                NULL, out, 2, NULL);
  if (st != ONNXSHAPE_OK || out[0] != 4 || out[1] != 6) {
    fprintf(stderr, "consumer: %s\n", onnxshape_status_name(st));
    return 1;
  }
#ifndef KERNELS_ONLY
  onnxshape_model *m = NULL;
  if (onnxshape_model_parse("", 0, NULL, &m, NULL) != ONNXSHAPE_ERR_INVALID_MODEL || m != NULL) {
    fprintf(stderr, "consumer: an empty model was not refused as invalid\n");
    return 1;
  }
#endif
  printf("consumer: [2,3,4] -> [%lld,%lld]\n", (long long)out[0], (long long)out[1]);
  return 0;
}
