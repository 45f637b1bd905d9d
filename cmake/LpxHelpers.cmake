# Helpers shared by every part of the tree.
#
# LLVM's HandleLLVMOptions turns exceptions off globally for MLIR targets. Code
# that uses CLI11, protobuf or ONNX (which throw) is built with plain
# add_library/add_executable plus lpx_enable_exceptions().
function(lpx_enable_exceptions target)
  target_compile_options(${target} PRIVATE -fexceptions)
endfunction()

function(lpx_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-unused-parameter
    -Wno-missing-field-initializers -Wswitch)
endfunction()

# A GoogleTest binary registered with CTest.
function(lpx_add_gtest name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main)
  lpx_enable_exceptions(${name})
  lpx_warnings(${name})
  add_test(NAME ${name} COMMAND ${name})
  lpx_sanitizer_env(${name})
endfunction()
