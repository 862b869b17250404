# SPDX-License-Identifier: Apache-2.0
# 32-bit little-endian: ARMv7 hard-float (armhf), run under qemu-arm.
# Needs gcc-arm-linux-gnueabihf, qemu-user, libprotobuf-c-dev:armhf
# (scripts/install-cross).
set(ONNXSHAPE_CROSS_TRIPLET arm-linux-gnueabihf)
set(ONNXSHAPE_CROSS_MULTIARCH arm-linux-gnueabihf)
set(ONNXSHAPE_CROSS_PROCESSOR armv7l)
set(ONNXSHAPE_CROSS_QEMU qemu-arm)
include(${CMAKE_CURRENT_LIST_DIR}/linux-gnu-common.cmake)
