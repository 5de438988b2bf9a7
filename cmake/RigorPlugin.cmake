# Building rigor plugins. Used by rigor's own tree and installed with the rigor CMake package, so
# in-tree and out-of-tree plugins are built the same way.

# rigor_add_plugin(NAME SOURCES src... [OUTPUT_DIR dir]) builds the plugin module NAME.so with
# hidden visibility (only rigor_plugin_get is exported) against rigor::plugin. It lands in
# OUTPUT_DIR, else in RIGOR_PLUGIN_OUTPUT_DIR when the including project sets it (rigor's build
# tree: the folder its rigor binary searches), else in the current binary folder.
function(rigor_add_plugin name)
  cmake_parse_arguments(ARG "" "OUTPUT_DIR" "SOURCES" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "rigor_add_plugin(${name}): SOURCES is required")
  endif()
  add_library(${name} MODULE ${ARG_SOURCES})
  if(NOT ARG_OUTPUT_DIR AND DEFINED RIGOR_PLUGIN_OUTPUT_DIR)
    set(ARG_OUTPUT_DIR ${RIGOR_PLUGIN_OUTPUT_DIR})
  endif()
  set_target_properties(${name} PROPERTIES
    PREFIX ""
    OUTPUT_NAME ${name}
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    CUDA_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  if(ARG_OUTPUT_DIR)
    set_target_properties(${name} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${ARG_OUTPUT_DIR})
  endif()
  target_link_libraries(${name} PRIVATE rigor::plugin)
  target_link_options(${name} PRIVATE -Wl,--no-undefined)
endfunction()

# rigor_install_plugin(NAME) installs a plugin into RIGOR_PLUGIN_INSTALL_DIR (lib/rigor/plugins
# under the install prefix), the folder an installed rigor searches relative to itself.
function(rigor_install_plugin name)
  install(TARGETS ${name} LIBRARY DESTINATION ${RIGOR_PLUGIN_INSTALL_DIR})
endfunction()
