find_package(PkgConfig REQUIRED)
pkg_check_modules(CMOCKA REQUIRED IMPORTED_TARGET cmocka)

set(RIGOR_TEST_PLUGIN_DIR ${CMAKE_BINARY_DIR}/tests/plugins)
set(RIGOR_TEST_OUTPUT_DIR ${CMAKE_BINARY_DIR}/tests)

# rigor_add_test(NAME SOURCES src... [LIBS lib...]) adds one cmocka executable to ctest.
function(rigor_add_test name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE PkgConfig::CMOCKA rigor_test_files ${ARG_LIBS})
  target_compile_options(${name} PRIVATE -Werror=implicit-function-declaration)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/core/include ${PROJECT_SOURCE_DIR}/tests/common)
  target_compile_definitions(${name} PRIVATE
    RIGOR_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    RIGOR_BINARY_DIR="${CMAKE_BINARY_DIR}"
    RIGOR_EXE="${RIGOR_BIN_DIR}/rigor"
    RIGOR_TEST_PLUGIN_DIR="${RIGOR_TEST_PLUGIN_DIR}"
    RIGOR_PLUGIN_DIR="${RIGOR_PLUGIN_OUTPUT_DIR}"
    _GNU_SOURCE)
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${RIGOR_TEST_OUTPUT_DIR})
  add_test(NAME ${name} COMMAND ${name} WORKING_DIRECTORY ${RIGOR_TEST_OUTPUT_DIR})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  set_tests_properties(${name} PROPERTIES TIMEOUT ${ARG_TIMEOUT})
endfunction()

add_library(rigor_test_host STATIC ${PROJECT_SOURCE_DIR}/tests/common/test_host.c)
target_include_directories(rigor_test_host PUBLIC ${PROJECT_SOURCE_DIR}/core/include ${PROJECT_SOURCE_DIR}/tests/common)
target_link_libraries(rigor_test_host PUBLIC ${CMAKE_DL_LIBS})
target_compile_definitions(rigor_test_host PRIVATE _GNU_SOURCE)

# What many tests do with files and the rigor binary (tests/common/test_files.h); every test
# made by rigor_add_test links it.
add_library(rigor_test_files STATIC ${PROJECT_SOURCE_DIR}/tests/common/test_files.c)
target_include_directories(rigor_test_files PUBLIC ${PROJECT_SOURCE_DIR}/tests/common)
target_compile_definitions(rigor_test_files PRIVATE RIGOR_EXE="${RIGOR_BIN_DIR}/rigor"
  _GNU_SOURCE)
