# SPDX-License-Identifier: Apache-2.0
# Shared part of the Debian cross toolchain files beside this one (included
# by them after they set ONNXSHAPE_CROSS_TRIPLET, ONNXSHAPE_CROSS_PROCESSOR and
# ONNXSHAPE_CROSS_QEMU). Not a toolchain file of its own.
#
# Compilers: Debian's gcc-<triplet> packages (scripts/install-cross).
# Libraries: Debian multiarch (libprotobuf-c-dev:<arch> in
# /usr/lib/<multiarch>), found through CMAKE_LIBRARY_ARCHITECTURE; programs
# (protoc-c, python3, sh) are the build machine's own.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ${ONNXSHAPE_CROSS_PROCESSOR})
set(CMAKE_C_COMPILER ${ONNXSHAPE_CROSS_TRIPLET}-gcc)
set(CMAKE_AR ${ONNXSHAPE_CROSS_TRIPLET}-ar CACHE FILEPATH "")
set(CMAKE_RANLIB ${ONNXSHAPE_CROSS_TRIPLET}-ranlib CACHE FILEPATH "")
set(CMAKE_NM ${ONNXSHAPE_CROSS_TRIPLET}-nm CACHE FILEPATH "")
set(CMAKE_OBJDUMP ${ONNXSHAPE_CROSS_TRIPLET}-objdump CACHE FILEPATH "")
set(CMAKE_STRIP ${ONNXSHAPE_CROSS_TRIPLET}-strip CACHE FILEPATH "")
if(DEFINED ONNXSHAPE_CROSS_MULTIARCH)
  set(CMAKE_LIBRARY_ARCHITECTURE ${ONNXSHAPE_CROSS_MULTIARCH})
endif()
# Search the build machine's prefixes (multiarch keeps the target's
# libraries apart), but never run a target program at configure time.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_TRY_COMPILE_TARGET_TYPE EXECUTABLE)

# How ctest runs target programs. `-L /`: the target's dynamic loader and
# libc are Debian's multiarch libc6:<arch> (pulled in by
# libprotobuf-c-dev:<arch>); pointing -L at the cross sysroot
# /usr/<triplet> instead mixes that sysroot's ld.so (2.36-8cross1) with the
# multiarch libc.so.6 found through /etc/ld.so.cache (2.36-9+deb12u*) and
# every program aborts with "stack smashing detected". Targets without a
# multiarch libc (powerpc) set ONNXSHAPE_CROSS_SYSROOT to their sysroot.
if(ONNXSHAPE_CROSS_QEMU)
  find_program(ONNXSHAPE_QEMU NAMES ${ONNXSHAPE_CROSS_QEMU} ${ONNXSHAPE_CROSS_QEMU}-static)
  if(NOT ONNXSHAPE_QEMU)
    message(WARNING "${ONNXSHAPE_CROSS_QEMU} not found: run scripts/install-cross")
    set(ONNXSHAPE_QEMU ${ONNXSHAPE_CROSS_QEMU})
  endif()
  if(NOT DEFINED ONNXSHAPE_CROSS_SYSROOT)
    set(ONNXSHAPE_CROSS_SYSROOT /)
  endif()
  set(CMAKE_CROSSCOMPILING_EMULATOR ${ONNXSHAPE_QEMU} -L ${ONNXSHAPE_CROSS_SYSROOT})
endif()
