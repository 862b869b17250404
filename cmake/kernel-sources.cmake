# SPDX-License-Identifier: Apache-2.0
# The kernels and the core tables they use: the allocation-free part of the
# library, the whole of the kernels-only package, and what the embedded
# builds (tests/embedded) compile. One list, included by both builds; paths
# are relative to the top of the source tree. src/core/operators.c (the
# operator registry of the loader and the analysis) is not part of it.
set(ONNXSHAPE_KERNEL_SOURCE_NAMES
  src/core/status.c src/core/diag.c src/core/types.c src/core/versions.c src/core/accept.c
  src/core/dims.c src/core/le.c src/core/udiv.c
  src/ops/shape.c src/ops/reshape.c src/ops/size.c)
