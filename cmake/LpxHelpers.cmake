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
# Writes OUT, the preset files DIR/NAME.yaml of each NAME as C++ raw string
# literals (a `kPresets` table of {name, text}: isa/EmbedPresets.cmake), so
# the tools need no data path: the chip presets and the GPU descriptions.
function(lpx_embed_presets out dir)
  set(files)
  foreach(p ${ARGN})
    list(APPEND files ${dir}/${p}.yaml)
  endforeach()
  string(REPLACE ";" "," names "${ARGN}")
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DPRESETS=${names} -DDIR=${dir}
            -P ${PROJECT_SOURCE_DIR}/isa/EmbedPresets.cmake
    DEPENDS ${files} ${PROJECT_SOURCE_DIR}/isa/EmbedPresets.cmake
    VERBATIM)
endfunction()

function(lpx_add_gtest name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main)
  lpx_enable_exceptions(${name})
  lpx_warnings(${name})
  add_test(NAME ${name} COMMAND ${name})
  lpx_sanitizer_env(${name})
endfunction()

# A dialect of ours whose <Name>Ops.td also defines attributes (lpx_part,
# lpx_sched): its ops (MLIR<Name>OpsIncGen), attributes
# (MLIR<Name>AttrsIncGen) and op documentation.
function(lpx_add_dialect name dialect)
  add_mlir_dialect(${name}Ops ${dialect})
  set(LLVM_TARGET_DEFINITIONS ${name}Ops.td)
  mlir_tablegen(${name}Attrs.h.inc -gen-attrdef-decls -attrdefs-dialect=${dialect})
  mlir_tablegen(${name}Attrs.cpp.inc -gen-attrdef-defs -attrdefs-dialect=${dialect})
  add_public_tablegen_target(MLIR${name}AttrsIncGen)
  add_mlir_doc(${name}Ops ${name}Ops Dialects/ -gen-op-doc)
endfunction()

# The library of dialect <Name>, Lpx<Name>Dialect: Dialect/<Name>/IR/
# <Name>Dialect.cpp and the SOURCES of that folder, built after its
# generated ops (MLIR<Name>OpsIncGen), attributes (MLIR<Name>AttrsIncGen,
# where lpx_add_dialect made it) and DEPENDS, linking LINK_LIBS publicly.
function(lpx_add_dialect_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS;LINK_LIBS" ${ARGN})
  set(sources ${name}Dialect.cpp ${ARG_SOURCES})
  list(TRANSFORM sources PREPEND Dialect/${name}/IR/)
  set(depends MLIR${name}OpsIncGen ${ARG_DEPENDS})
  if(TARGET MLIR${name}AttrsIncGen)
    list(APPEND depends MLIR${name}AttrsIncGen)
  endif()
  add_mlir_dialect_library(Lpx${name}Dialect ${sources}
    DEPENDS ${depends}
    LINK_LIBS PUBLIC ${ARG_LINK_LIBS})
endfunction()
