# cmake -DTEMPLATE_DIR=dir -DTEMPLATE_NAME=name -DFILES=a|b|c -DOUTPUT=file.inc -P this
# Writes the plugin template's files as C byte arrays for `rigor new-plugin`, so the template
# folder stays the one source of truth. The including file defines rigor_template_file_t.
foreach(var TEMPLATE_DIR TEMPLATE_NAME FILES OUTPUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "RigorEmbedTemplate.cmake: ${var} is not set")
  endif()
endforeach()
string(REPLACE "|" ";" files "${FILES}")

# CMake regular expressions have no {n} repetition.
string(REPEAT "0x[0-9a-f][0-9a-f]," 16 byte16)
set(arrays "")
set(table "")
set(index 0)
foreach(file IN LISTS files)
  file(READ "${TEMPLATE_DIR}/${file}" hex HEX)
  string(LENGTH "${hex}" hex_length)
  math(EXPR size "${hex_length} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  # Wrap the byte list so the generated file has lines of reasonable length.
  string(REGEX REPLACE "(${byte16})" "\\1\n  " bytes "${bytes}")
  string(APPEND arrays "static const unsigned char rigor_template_${index}[] = {\n  ${bytes}0x00};\n")
  string(APPEND table "    {\"${file}\", rigor_template_${index}, ${size}},\n")
  math(EXPR index "${index} + 1")
endforeach()

file(WRITE "${OUTPUT}"
  "/* Generated from ${TEMPLATE_DIR} by RigorEmbedTemplate.cmake. */\n"
  "static const char rigor_template_name[] = \"${TEMPLATE_NAME}\";\n"
  "${arrays}"
  "static const rigor_template_file_t rigor_template_files[] = {\n${table}};\n")
