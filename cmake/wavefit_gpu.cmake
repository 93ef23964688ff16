# SPDX-License-Identifier: MIT
# GPU builds of wavefit's tests, examples and benchmarks, from one list of sources:
#  - WAVEFIT_GPU=CUDA: real CMake CUDA targets (nvcc), runnable on an NVIDIA GPU;
#  - WAVEFIT_GPU=HIP: the same sources compiled and linked by hipcc for WAVEFIT_AMD_ARCHITECTURES
#    (default gfx90a;gfx940, what Debian's hipcc 5.2 can target). CMake's HIP language does not
#    configure against Debian's ROCm packaging (its hip-lang package lives under a multiarch path),
#    so these are custom commands; they prove the code compiles and links for AMD without an AMD GPU.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/wavefit_warnings.cmake)

find_program(WAVEFIT_HIPCC hipcc)

# wavefit_gpu_executable(NAME SOURCES src... [INCLUDES dir...] [CUDA_LIBS lib...] [HIP_LIBS flag...]
#                        [HIP_DEPENDS target...] [DEFINES def...])
# HIP_LIBS follow the sources on hipcc's line (after `-x none` for a library file); HIP_DEPENDS are the
# targets that build them.
# Creates, per enabled mode, `NAME` (CUDA) and/or `NAME_hip` (hipcc check). Returns nothing;
# callers add tests on the CUDA target.
function(wavefit_gpu_executable name)
  cmake_parse_arguments(ARG "" "" "SOURCES;INCLUDES;CUDA_LIBS;HIP_LIBS;HIP_DEPENDS;DEFINES" ${ARGN})
  if(WAVEFIT_GPU STREQUAL "CUDA")
    set_source_files_properties(${ARG_SOURCES} PROPERTIES LANGUAGE CUDA)
    add_executable(${name} ${ARG_SOURCES})
    target_link_libraries(${name} PRIVATE wavefit::wavefit ${ARG_CUDA_LIBS})
    # gpu_support/ (the GPU support layer every test, benchmark and example shares) from the root.
    target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR} ${ARG_INCLUDES})
    target_compile_definitions(${name} PRIVATE ${ARG_DEFINES})
    target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --Werror=all-warnings>)
    set_target_properties(${name} PROPERTIES CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON)
  endif()
  if(WAVEFIT_GPU STREQUAL "HIP")
    if(NOT WAVEFIT_HIPCC)
      message(FATAL_ERROR "WAVEFIT_GPU=HIP needs hipcc (Debian: apt-get install hipcc)")
    endif()
    set(flags -std=c++17 -O2 -Wall -Wextra -Werror -Wno-unused-command-line-argument)
    foreach(arch IN LISTS WAVEFIT_AMD_ARCHITECTURES)
      list(APPEND flags --offload-arch=${arch})
    endforeach()
    list(APPEND flags -I${PROJECT_SOURCE_DIR}/include -I${PROJECT_SOURCE_DIR})
    foreach(dir IN LISTS ARG_INCLUDES)
      list(APPEND flags -I${dir})
    endforeach()
    foreach(def IN LISTS ARG_DEFINES)
      list(APPEND flags -D${def})
    endforeach()
    set(sources)
    foreach(src IN LISTS ARG_SOURCES)
      get_filename_component(abs ${src} ABSOLUTE)
      list(APPEND sources ${abs})
    endforeach()
    # The custom command cannot scan includes: depend on every wavefit header and local header.
    file(GLOB_RECURSE wavefit_headers CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/include/wavefit/*.hpp)
    file(GLOB local_headers CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.hpp ${CMAKE_CURRENT_SOURCE_DIR}/*/*.hpp
         ${PROJECT_SOURCE_DIR}/gpu_support/*.hpp)
    set(out ${CMAKE_CURRENT_BINARY_DIR}/${name}_hip)
    add_custom_command(OUTPUT ${out}
      COMMAND ${WAVEFIT_HIPCC} ${flags} -x hip ${sources} -o ${out} ${ARG_HIP_LIBS}
      DEPENDS ${sources} ${wavefit_headers} ${local_headers} ${ARG_HIP_DEPENDS}
      COMMENT "hipcc (${WAVEFIT_AMD_ARCHITECTURES}): ${name}"
      VERBATIM)
    add_custom_target(${name}_hip ALL DEPENDS ${out})
    set_property(TARGET ${name}_hip PROPERTY WAVEFIT_HIP_BINARY ${out})
  endif()
endfunction()
