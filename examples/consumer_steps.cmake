# SPDX-License-Identifier: MIT
# What the consumer scripts (build_cmake_consumer.cmake, build_hipcc_cxx_consumer.cmake) share: the
# check of their -D arguments and the configure, build and run of an outside project, each step
# named when it fails. Included by them under cmake -P.

# Fails unless every variable named after `script` is defined (-DNAME=... on the command line).
function(require_definitions script)
  foreach(required ${ARGN})
    if(NOT DEFINED ${required})
      message(FATAL_ERROR "${script}: -D${required}=... is required")
    endif()
  endforeach()
endfunction()

# Runs one step; a failure names the project and the step.
function(run_consumer_step project name)
  message(STATUS "${name}: ${ARGN}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${project}: ${name} failed (${result})")
  endif()
endfunction()

# Configures BINARY_DIR afresh with the command given, builds it and runs its `app`.
function(configure_build_and_run project)
  file(REMOVE_RECURSE ${BINARY_DIR})
  run_consumer_step(${project} configure ${ARGN})
  run_consumer_step(${project} build ${CMAKE_COMMAND} --build ${BINARY_DIR})
  run_consumer_step(${project} run ${BINARY_DIR}/app)
endfunction()
