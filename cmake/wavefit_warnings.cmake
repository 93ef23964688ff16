# SPDX-License-Identifier: MIT
# Strict warnings for wavefit's own targets (tests, tools), and the optional sanitizer build:
# -DWAVEFIT_SANITIZE=address,undefined (declared with the other options in the root CMakeLists.txt)
# adds -fsanitize to every wavefit target, failing on the first report.

function(wavefit_target_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion -Werror)
    if(WAVEFIT_SANITIZE)
      target_compile_options(${target} PRIVATE -fsanitize=${WAVEFIT_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer)
      target_link_options(${target} PRIVATE -fsanitize=${WAVEFIT_SANITIZE})
    endif()
  endif()
endfunction()
