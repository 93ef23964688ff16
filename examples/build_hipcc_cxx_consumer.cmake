# SPDX-License-Identifier: MIT
# Configures, builds and runs examples/hipcc_cxx_consumer against an installed wavefit with the
# configure flags README.md's CMake section gives for hipcc as the C++ compiler (the CTest test
# "no-gpu: hipcc as the C++ compiler (README)"). Run with cmake -P and:
#   README (README.md), SOURCE_DIR, BINARY_DIR, WAVEFIT_DIR (the installed package's directory),
#   GENERATOR, HIPCC, and ARCH_FALLBACK=gfx942:gfx940 where the compiler cannot target gfx942
#   (Debian's clang 15; the README says to use gfx940 there).
cmake_minimum_required(VERSION 3.20)

foreach(required README SOURCE_DIR BINARY_DIR WAVEFIT_DIR GENERATOR HIPCC)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "build_hipcc_cxx_consumer.cmake: -D${required}=... is required")
  endif()
endforeach()

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

function(run_step name)
  message(STATUS "${name}: ${ARGN}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "hipcc_cxx_consumer: ${name} failed (${result})")
  endif()
endfunction()

file(REMOVE_RECURSE ${BINARY_DIR})
run_step(configure ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${BINARY_DIR} -G ${GENERATOR} -Dwavefit_DIR=${WAVEFIT_DIR} ${options})
run_step(build ${CMAKE_COMMAND} --build ${BINARY_DIR})
run_step(run ${BINARY_DIR}/app)
