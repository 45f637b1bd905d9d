# LPX_SANITIZE=ON: one build that serves both the sanitizer suite and the fuzz
# targets. Every lpx object is compiled with AddressSanitizer and
# UndefinedBehaviorSanitizer (any report aborts the process, so a test cannot
# pass over one) and, with clang, with libFuzzer's coverage instrumentation;
# the fuzz targets in tests/fuzz link libFuzzer's main. The Debian LLVM, MLIR,
# protobuf and ONNX libraries stay uninstrumented; ASan still checks every
# access lpx code makes to their memory.
#
#   CC=clang-19 CXX=clang++-19 cmake -G Ninja -S . -B build-san -DLPX_SANITIZE=ON
#
# -O0 with line tables: the reports name file and line, and the build costs
# no more CPU than the Release one (measured on GraphOps.cpp: gcc -O3 11.4 s,
# clang ASan -O1 20.8 s, clang ASan -O0 8.0 s), which is what CI can afford.
# Assertions are on (NDEBUG undefined): they are checks too.
option(LPX_SANITIZE "Build with ASan+UBSan (and libFuzzer targets with clang)" OFF)

set(LPX_FUZZ OFF)
if(LPX_SANITIZE)
  set(san -fsanitize=address,undefined -fno-sanitize-recover=all
          -fno-omit-frame-pointer)
  add_compile_options(${san} -O0 -gline-tables-only -UNDEBUG)
  add_link_options(${san})
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    add_compile_options(-fsanitize=fuzzer-no-link)
    set(LPX_FUZZ ON)
  else()
    message(STATUS "LPX_SANITIZE without clang: no fuzz targets")
  endif()
endif()

# Runtime options for every test of the sanitizer build: a report aborts
# (SIGABRT), so `not lpx-opt ...` in a lit test and an expected failure in
# the node-test list cannot pass over it; UBSan prints the stack.
# allow_user_poisoning=0: LLVM's headers poison allocator slabs in ASan
# builds (LLVM_ADDRESS_SANITIZER_BUILD), but Debian's prebuilt LLVM/MLIR
# code that shares those slabs never unpoisons them, which would report
# every MLIRContext as a use-after-poison inside MLIR itself.
function(lpx_sanitizer_env test)
  if(LPX_SANITIZE)
    set_tests_properties(${test} PROPERTIES ENVIRONMENT
      "ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:allow_user_poisoning=0;UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1")
  endif()
endfunction()
