# rigor_add_plugin(NAME SOURCES src...) builds a plugin module with hidden visibility, named
# NAME.so, in the folder the rigor binary searches.
function(rigor_add_plugin name)
  cmake_parse_arguments(ARG "" "OUTPUT_DIR" "SOURCES" ${ARGN})
  add_library(${name} MODULE ${ARG_SOURCES})
  if(NOT ARG_OUTPUT_DIR)
    set(ARG_OUTPUT_DIR ${RIGOR_PLUGIN_OUTPUT_DIR})
  endif()
  set_target_properties(${name} PROPERTIES
    PREFIX ""
    OUTPUT_NAME ${name}
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    CUDA_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LIBRARY_OUTPUT_DIRECTORY ${ARG_OUTPUT_DIR})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/core/include)
  target_link_options(${name} PRIVATE -Wl,--no-undefined)
endfunction()

# rigor_install_plugin(NAME) installs a plugin into lib/rigor/plugins.
function(rigor_install_plugin name)
  install(TARGETS ${name} LIBRARY DESTINATION ${RIGOR_PLUGIN_INSTALL_DIR})
endfunction()
