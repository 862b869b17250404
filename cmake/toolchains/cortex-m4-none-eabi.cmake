# SPDX-License-Identifier: Apache-2.0
# Bare-metal Cortex-M4 (Thumb-2, soft-float ABI) with Debian's
# gcc-arm-none-eabi and libnewlib-arm-none-eabi. Only the kernels build for
# it (tests/embedded/CMakeLists.txt); ctest runs the programs under
# qemu-system-arm -M mps2-an386 with semihosting (tests/embedded/cortex-m4/run-qemu).
#   cmake -S tests/embedded -B /tmp/cross-m4 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/cortex-m4-none-eabi.cmake
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_AR arm-none-eabi-ar CACHE FILEPATH "")
set(CMAKE_RANLIB arm-none-eabi-ranlib CACHE FILEPATH "")
set(CMAKE_NM arm-none-eabi-nm CACHE FILEPATH "")
set(CMAKE_OBJDUMP arm-none-eabi-objdump CACHE FILEPATH "")
set(CMAKE_SIZE arm-none-eabi-size CACHE FILEPATH "")
set(CMAKE_C_FLAGS_INIT "-mcpu=cortex-m4 -mthumb")
# No operating system to link a test program for: try_compile builds a library.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_CROSSCOMPILING_EMULATOR ${CMAKE_CURRENT_LIST_DIR}/../../tests/embedded/cortex-m4/run-qemu)
