# SPDX-License-Identifier: MIT
# Writes OUTPUT, a C++ file holding every parser_headers/*.h as a string (parser_headers.hpp), so that the
# lint carries its parser declarations inside the binary. Run as `cmake -DINPUT_DIR=... -DOUTPUT=... -P`.
file(GLOB headers RELATIVE ${INPUT_DIR} ${INPUT_DIR}/*.h)
list(SORT headers)
set(body "// Generated from tools/wavefit/lint/parser_headers by embed_parser_headers.cmake; do not edit.\n")
string(APPEND body "#include \"parser_headers.hpp\"\n\nnamespace wavefit::cli::lint {\n\n")
string(APPEND body "const embedded_file parser_header_files[] = {\n")
foreach(header IN LISTS headers)
  file(READ ${INPUT_DIR}/${header} text)
  string(FIND "${text}" ")wavefit_header\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${header} contains the raw-string delimiter )wavefit_header\"")
  endif()
  string(APPEND body "    {\"${header}\", R\"wavefit_header(${text})wavefit_header\"},\n")
endforeach()
string(APPEND body "};\n\nconst std::size_t parser_header_file_count = sizeof(parser_header_files) / sizeof(parser_header_files[0]);\n\n")
string(APPEND body "}  // namespace wavefit::cli::lint\n")
file(WRITE ${OUTPUT}.tmp "${body}")
configure_file(${OUTPUT}.tmp ${OUTPUT} COPYONLY)  # rewrites only when the text changed
file(REMOVE ${OUTPUT}.tmp)
