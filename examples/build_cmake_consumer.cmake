# SPDX-License-Identifier: MIT
# Configures, builds and runs examples/cmake_consumer against an installed wavefit, as the CTest
# test "no-gpu: cmake_consumer (HIP)" does (examples/CMakeLists.txt). Run with cmake -P and:
#   SOURCE_DIR, BINARY_DIR, WAVEFIT_DIR (the installed package's directory), GENERATOR,
#   ARCHITECTURES (comma-separated gfx targets), and on Debian's ROCm packaging ROCM_ROOT (a
#   stand-in root with lib/cmake/hip-lang...), HIP_COMPILER (clang++-15), HIP_DEVICE_LIBS.
cmake_minimum_required(VERSION 3.20)

include(${CMAKE_CURRENT_LIST_DIR}/consumer_steps.cmake)
require_definitions(build_cmake_consumer.cmake SOURCE_DIR BINARY_DIR WAVEFIT_DIR GENERATOR ARCHITECTURES)

string(REPLACE "," ";" architectures "${ARCHITECTURES}")
set(configure ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${BINARY_DIR} -G ${GENERATOR}
  -Dwavefit_DIR=${WAVEFIT_DIR} "-DCMAKE_HIP_ARCHITECTURES=${architectures}")
if(DEFINED ROCM_ROOT)
  list(APPEND configure
    -DCMAKE_HIP_COMPILER=${HIP_COMPILER}
    -DCMAKE_HIP_COMPILER_ROCM_ROOT=${ROCM_ROOT}
    -DCMAKE_PREFIX_PATH=${ROCM_ROOT}
    # The compiler checks run in try_compile projects, which see only the variables listed here.
    -DCMAKE_TRY_COMPILE_PLATFORM_VARIABLES=CMAKE_PREFIX_PATH
    "-DCMAKE_HIP_FLAGS=--rocm-path=/usr --hip-device-lib-path=${HIP_DEVICE_LIBS}")
endif()

configure_build_and_run(cmake_consumer ${configure})
