# SPDX-License-Identifier: MIT
# `wavefit lint`: the checks over libclang's C API, built into wavefit-cli when libclang is found
# (WAVEFIT_LINT: AUTO, ON, OFF). Without it the CLI still builds and `wavefit lint` says what is missing.
# The libclang of one LLVM version is used for both its header and its library: Debian installs each
# version under /usr/lib/llvm-N (libclang-15-dev matches the llvm-15 and hipcc the project already uses).
set(wavefit_lint_dir ${CMAKE_CURRENT_LIST_DIR})
set(wavefit_libclang_found OFF)
if(NOT WAVEFIT_LINT STREQUAL "OFF")
  if(NOT WAVEFIT_LIBCLANG_INCLUDE_DIR OR NOT WAVEFIT_LIBCLANG_LIBRARY)
    foreach(version 15 16 17 18 19 20 14)
      if(EXISTS /usr/lib/llvm-${version}/include/clang-c/Index.h AND EXISTS /usr/lib/llvm-${version}/lib/libclang.so)
        set(WAVEFIT_LIBCLANG_INCLUDE_DIR /usr/lib/llvm-${version}/include CACHE PATH "directory holding clang-c/Index.h")
        set(WAVEFIT_LIBCLANG_LIBRARY /usr/lib/llvm-${version}/lib/libclang.so CACHE FILEPATH "libclang")
        break()
      endif()
    endforeach()
    # Other layouts (a distribution's /usr/include/clang-c, an LLVM install on the prefix path).
    find_path(WAVEFIT_LIBCLANG_INCLUDE_DIR clang-c/Index.h)
    find_library(WAVEFIT_LIBCLANG_LIBRARY NAMES clang libclang)
  endif()
  if(WAVEFIT_LIBCLANG_INCLUDE_DIR AND WAVEFIT_LIBCLANG_LIBRARY)
    set(wavefit_libclang_found ON)
  elseif(WAVEFIT_LINT STREQUAL "ON")
    message(FATAL_ERROR "WAVEFIT_LINT=ON but libclang was not found (Debian: apt-get install libclang-15-dev)")
  else()
    message(STATUS "wavefit: `wavefit lint` left out: libclang not found (Debian: apt-get install libclang-15-dev)")
  endif()
endif()

if(wavefit_libclang_found)
  message(STATUS "wavefit: `wavefit lint` with ${WAVEFIT_LIBCLANG_LIBRARY}")
  set(wavefit_lint_headers_cpp ${CMAKE_CURRENT_BINARY_DIR}/wavefit_lint_parser_headers.cpp)
  file(GLOB wavefit_lint_parser_headers CONFIGURE_DEPENDS ${wavefit_lint_dir}/parser_headers/*.h)
  add_custom_command(OUTPUT ${wavefit_lint_headers_cpp}
    COMMAND ${CMAKE_COMMAND} -DINPUT_DIR=${wavefit_lint_dir}/parser_headers -DOUTPUT=${wavefit_lint_headers_cpp}
            -P ${wavefit_lint_dir}/embed_parser_headers.cmake
    DEPENDS ${wavefit_lint_parser_headers} ${wavefit_lint_dir}/embed_parser_headers.cmake
    COMMENT "Embedding the lint's parser declarations")
  add_library(wavefit-lint STATIC
    ${wavefit_lint_dir}/analyze_translation_unit.cpp
    ${wavefit_lint_dir}/clang_tree.cpp
    ${wavefit_lint_dir}/device_checks.cpp
    ${wavefit_lint_dir}/kernel_shape.cpp
    ${wavefit_lint_dir}/launch_checks.cpp
    ${wavefit_lint_dir}/lint_runner.cpp
    ${wavefit_lint_dir}/lint_target.cpp
    ${wavefit_lint_dir}/preprocessor_checks.cpp
    ${wavefit_lint_dir}/report.cpp
    ${wavefit_lint_dir}/source_set.cpp
    ${wavefit_lint_headers_cpp})
  target_include_directories(wavefit-lint PRIVATE ${wavefit_lint_dir})
  target_include_directories(wavefit-lint SYSTEM PUBLIC ${WAVEFIT_LIBCLANG_INCLUDE_DIR})
  target_link_libraries(wavefit-lint PUBLIC wavefit::wavefit ${WAVEFIT_LIBCLANG_LIBRARY})
  find_package(Threads REQUIRED)
  target_link_libraries(wavefit-lint PUBLIC Threads::Threads)
  wavefit_target_warnings(wavefit-lint)
  target_link_libraries(wavefit-cli PRIVATE wavefit-lint)
  target_compile_definitions(wavefit-cli PRIVATE WAVEFIT_LINT_WITH_LIBCLANG=1)
endif()
