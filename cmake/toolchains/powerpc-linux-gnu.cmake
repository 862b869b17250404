# SPDX-License-Identifier: Apache-2.0
# 32-bit big-endian: PowerPC, run under qemu-ppc. powerpc is a Debian ports
# architecture, so there is no multiarch libprotobuf-c-dev:powerpc in
# bookworm: only the kernels and their tests build for it
# (tests/embedded/CMakeLists.txt). The loader and libc are the cross
# sysroot's (libc6-powerpc-cross).
set(ONNXSHAPE_CROSS_TRIPLET powerpc-linux-gnu)
set(ONNXSHAPE_CROSS_PROCESSOR powerpc)
set(ONNXSHAPE_CROSS_QEMU qemu-ppc)
set(ONNXSHAPE_CROSS_SYSROOT /usr/powerpc-linux-gnu)
include(${CMAKE_CURRENT_LIST_DIR}/linux-gnu-common.cmake)
