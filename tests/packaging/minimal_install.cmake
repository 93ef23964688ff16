# SPDX-License-Identifier: MIT
# A user who wants only the headers and the CLI: configure, build and install wavefit with neither
# Catch2 nor Google Benchmark (find_package disabled for both), as the README's Install section does,
# then check what was installed, that the configure said the tests were skipped, and that asking for
# the tests explicitly (-DWAVEFIT_BUILD_TESTS=ON) fails at configure instead.
#   cmake -DSOURCE_DIR=... -DWORK_DIR=... -DGENERATOR=... -DCXX=... -P minimal_install.cmake
file(REMOVE_RECURSE ${WORK_DIR})
set(no_packages -DCMAKE_DISABLE_FIND_PACKAGE_Catch2=ON -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON)

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${what} failed (exit ${result}):\n${out}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

run("configure without Catch2 and Google Benchmark" ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/b -G ${GENERATOR}
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX} ${no_packages})
if(NOT last_output MATCHES "tests skipped: Catch2 2 not found")
  message(FATAL_ERROR "the configure did not say the tests were skipped:\n${last_output}")
endif()
run("build" ${CMAKE_COMMAND} --build ${WORK_DIR}/b)
run("install" ${CMAKE_COMMAND} --install ${WORK_DIR}/b --prefix ${WORK_DIR}/prefix)
foreach(installed bin/wavefit include/wavefit/wavefit.hpp include/wavefit/core.hpp share/cmake/wavefit/wavefitConfig.cmake)
  if(NOT EXISTS ${WORK_DIR}/prefix/${installed})
    message(FATAL_ERROR "not installed: ${installed}")
  endif()
endforeach()
run("the installed CLI" ${WORK_DIR}/prefix/bin/wavefit plan --preset mi300x --elements 2^33 --kernel-loops)

execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/asked -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX}
                        ${no_packages} -DWAVEFIT_BUILD_TESTS=ON
                RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(result EQUAL 0 OR NOT out MATCHES "Catch2")
  message(FATAL_ERROR "-DWAVEFIT_BUILD_TESTS=ON without Catch2 must fail at configure and name Catch2 (exit ${result}):\n${out}")
endif()
file(REMOVE_RECURSE ${WORK_DIR})
message(STATUS "configured, built and installed without Catch2 and Google Benchmark")
