# SPDX-License-Identifier: Apache-2.0
# 32-bit little-endian: i686. An x86_64 Linux kernel with IA32 emulation
# (Debian's default) runs these programs natively, so ctest and the test
# scripts need no emulator; set ONNXSHAPE_I686_QEMU=ON for a kernel without
# it (then through qemu-i386).
# Needs gcc-i686-linux-gnu, libc6-dev-i386-cross, libprotobuf-c-dev:i386
# (scripts/install-cross).
set(ONNXSHAPE_CROSS_TRIPLET i686-linux-gnu)
set(ONNXSHAPE_CROSS_MULTIARCH i386-linux-gnu)
set(ONNXSHAPE_CROSS_PROCESSOR i686)
if(ONNXSHAPE_I686_QEMU)
  set(ONNXSHAPE_CROSS_QEMU qemu-i386)
endif()
include(${CMAKE_CURRENT_LIST_DIR}/linux-gnu-common.cmake)
