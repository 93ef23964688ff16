# SPDX-License-Identifier: MIT
# One compile-fail check, run by CTest (tests/compile_fail/CMakeLists.txt):
#   cmake -DCOMPILER=... -DSOURCE=... -DFLAGS=a;b -DEXPECT=regex [-DMODE=fail|compile] [-DFAIL_FLAGS=a;b]
#         [-DSINGLE_ERROR=ON] -P run_case.cmake
# MODE fail (default): the compile must fail AND its diagnostics must match EXPECT (so a case that
# fails for an unrelated reason, a missing header say, does not pass). MODE compile: the positive
# control, the same file without WAVEFIT_COMPILE_FAIL, must compile cleanly.
if(NOT MODE)
  set(MODE fail)
endif()
set(defines)
if(MODE STREQUAL "fail")
  list(APPEND defines -DWAVEFIT_COMPILE_FAIL=1 ${FAIL_FLAGS})
endif()
execute_process(
  COMMAND ${COMPILER} ${FLAGS} ${defines} -fsyntax-only ${SOURCE}
  RESULT_VARIABLE result
  OUTPUT_VARIABLE out
  ERROR_VARIABLE out)
if(MODE STREQUAL "compile")
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "positive control did not compile (exit ${result}): the compile-fail case proves nothing\n${out}")
  endif()
  message(STATUS "compiles, as it should")
  return()
endif()
if(result EQUAL 0)
  message(FATAL_ERROR "misuse compiled, but must not: ${SOURCE}")
endif()
if(NOT out MATCHES "${EXPECT}")
  message(FATAL_ERROR "the compile failed, but without the expected diagnostic /${EXPECT}/:\n${out}")
endif()
if(SINGLE_ERROR)
  string(REGEX MATCHALL "error:" errors "${out}")
  list(LENGTH errors error_count)
  if(NOT error_count EQUAL 1)
    message(FATAL_ERROR "expected exactly one error, got ${error_count}:\n${out}")
  endif()
endif()
message(STATUS "refused with /${EXPECT}/, as it should")
