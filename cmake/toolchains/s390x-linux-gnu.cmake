# SPDX-License-Identifier: Apache-2.0
# 64-bit big-endian: IBM Z (s390x), run under qemu-s390x.
# Needs gcc-s390x-linux-gnu, qemu-user, libprotobuf-c-dev:s390x
# (scripts/install-cross).
#   cmake -S . -B /tmp/cross-s390x -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/s390x-linux-gnu.cmake
set(ONNXSHAPE_CROSS_TRIPLET s390x-linux-gnu)
set(ONNXSHAPE_CROSS_MULTIARCH s390x-linux-gnu)
set(ONNXSHAPE_CROSS_PROCESSOR s390x)
set(ONNXSHAPE_CROSS_QEMU qemu-s390x)
include(${CMAKE_CURRENT_LIST_DIR}/linux-gnu-common.cmake)
