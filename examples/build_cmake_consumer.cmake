# SPDX-License-Identifier: MIT
# Configures, builds and runs examples/cmake_consumer against an installed wavefit, as the CTest
# test "no-gpu: cmake_consumer (HIP)" does (examples/CMakeLists.txt). Run with cmake -P and:
#   SOURCE_DIR, BINARY_DIR, WAVEFIT_DIR (the installed package's directory), GENERATOR,
#   ARCHITECTURES (comma-separated gfx targets), and on Debian's ROCm packaging ROCM_ROOT (a
#   stand-in root with lib/cmake/hip-lang...), HIP_COMPILER (clang++-15), HIP_DEVICE_LIBS.
cmake_minimum_required(VERSION 3.20)

foreach(required SOURCE_DIR BINARY_DIR WAVEFIT_DIR GENERATOR ARCHITECTURES)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "build_cmake_consumer.cmake: -D${required}=... is required")
  endif()
endforeach()

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

function(run_step name)
  message(STATUS "${name}: ${ARGN}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "cmake_consumer: ${name} failed (${result})")
  endif()
endfunction()

file(REMOVE_RECURSE ${BINARY_DIR})
run_step(configure ${configure})
run_step(build ${CMAKE_COMMAND} --build ${BINARY_DIR})
run_step(run ${BINARY_DIR}/app)
