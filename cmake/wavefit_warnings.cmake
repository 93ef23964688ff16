# SPDX-License-Identifier: MIT
# Strict warnings for wavefit's own targets (tests, tools), and the optional sanitizer build:
# -DWAVEFIT_SANITIZE=address,undefined adds -fsanitize to every wavefit target, failing on the first report.
set(WAVEFIT_SANITIZE "" CACHE STRING "Comma-separated sanitizers for wavefit's own targets (e.g. address,undefined)")

function(wavefit_target_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion -Werror)
    if(WAVEFIT_SANITIZE)
      target_compile_options(${target} PRIVATE -fsanitize=${WAVEFIT_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer)
      target_link_options(${target} PRIVATE -fsanitize=${WAVEFIT_SANITIZE})
    endif()
  endif()
endfunction()
