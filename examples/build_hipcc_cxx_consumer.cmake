# SPDX-License-Identifier: MIT
# Configures, builds and runs examples/hipcc_cxx_consumer against an installed wavefit with the
# configure flags README.md's CMake section gives for hipcc as the C++ compiler (the CTest test
# "no-gpu: hipcc as the C++ compiler (README)"). Run with cmake -P and:
#   README (README.md), SOURCE_DIR, BINARY_DIR, WAVEFIT_DIR (the installed package's directory),
#   GENERATOR, HIPCC, and ARCH_FALLBACK=gfx942:gfx940 where the compiler cannot target gfx942
#   (Debian's clang 15; the README says to use gfx940 there).
cmake_minimum_required(VERSION 3.20)

include(${CMAKE_CURRENT_LIST_DIR}/consumer_steps.cmake)
require_definitions(build_hipcc_cxx_consumer.cmake README SOURCE_DIR BINARY_DIR WAVEFIT_DIR GENERATOR HIPCC)

# The README's command: the one line that sets hipcc as the C++ compiler.
file(STRINGS ${README} readme_lines REGEX "^cmake .*-DCMAKE_CXX_COMPILER=hipcc")
list(LENGTH readme_lines count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "README.md has ${count} 'cmake ... -DCMAKE_CXX_COMPILER=hipcc' lines; expected one in its CMake section")
endif()
separate_arguments(readme_command UNIX_COMMAND "${readme_lines}")
set(options)
foreach(word IN LISTS readme_command)
  if(word MATCHES "^-D")
    if(word STREQUAL "-DCMAKE_CXX_COMPILER=hipcc")
      set(word "-DCMAKE_CXX_COMPILER=${HIPCC}")
    endif()
    if(DEFINED ARCH_FALLBACK)
      string(REPLACE ":" ";" fallback "${ARCH_FALLBACK}")
      list(GET fallback 0 from)
      list(GET fallback 1 to)
      string(REPLACE "${from}" "${to}" word "${word}")
    endif()
    list(APPEND options "${word}")
  endif()
endforeach()

configure_build_and_run(hipcc_cxx_consumer
  ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${BINARY_DIR} -G ${GENERATOR} -Dwavefit_DIR=${WAVEFIT_DIR} ${options})
