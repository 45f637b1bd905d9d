//===- TestData.h - Test data matched to a program, and its tolerance -*- C++ -*-===//
//
// What `lpx run` does with a folder of ONNX test data before and after it
// runs a program: name unnamed tensors by position, read ONNX 1.12's bf16
// bit patterns as bf16, refuse a value for an input the program folded in,
// choose the tolerance its float outputs are compared with, and compare.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_RUNTIME_TESTDATA_H
#define LPX_RUNTIME_TESTDATA_H

#include "lpx/isa/Program.h"
#include "lpx/runtime/HostTensor.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace lpx::rt {

/// Matches test-data tensors to `bindings` (the program's inputs or
/// outputs): unnamed ones take the i-th distinct binding name; uint16
/// tensors bound to bf16 buffers are read as bf16 (ONNX 1.12's test data
/// predates numpy bfloat16 and stores their bit patterns).
void matchToBindings(
    std::vector<HostTensor> &tensors, const isa::VerifiedProgram &prog,
    const google::protobuf::RepeatedPtrField<isa::pb::Binding> &bindings);

/// A data file given for an input folded at compile time (--const-input)
/// must hold the value it was folded to: the program cannot use another.
llvm::Error checkFoldedInputs(const std::vector<HostTensor> &inputs,
                              const isa::pb::Program &program);

/// A folder's test data for a program: its input_N.pb and output_N.pb
/// (TensorFile.h) matched to the program's inputs and outputs, a value for
/// a folded input checked (checkFoldedInputs).
struct ProgramTestData {
  std::vector<HostTensor> inputs, expected;
};
llvm::Expected<ProgramTestData>
readProgramTestData(llvm::StringRef dir, const isa::VerifiedProgram &prog);

/// The number format whose tolerances float outputs get, and why.
struct ToleranceChoice {
  std::string format; // empty: each output's own type
  std::string source; // "--tolerance-of", or the program's formats
};

/// `toleranceOf` when given, else the coarser of the formats the program
/// was compiled with.
ToleranceChoice chooseTolerance(const std::string &toleranceOf,
                                const isa::pb::Program &program);

/// The element type whose tolerances an output of type `output` gets: that
/// of `format` for a float output (fp32: its own type), else its own.
isa::DType toleranceType(isa::DType output, llvm::StringRef format);

/// The line `lpx run` prints before comparing: the format chosen (with its
/// rtol and atol, or `rtol`/`atol` where >= 0) or each output's own type,
/// why, and whether --rtol/--atol were given.
std::string toleranceLine(const ToleranceChoice &choice, double rtol,
                          double atol);

/// Compares each of `expected` with the output of its name at the
/// tolerance of its type under `format` (`rtol`/`atol` instead where >= 0),
/// printing a line per output and then the verdict; false when one
/// differs. An expected output the program does not have is an error.
llvm::Expected<bool> compareOutputs(const std::vector<HostTensor> &expected,
                                    const std::vector<HostTensor> &outputs,
                                    llvm::StringRef format, double rtol,
                                    double atol, llvm::raw_ostream &os);

} // namespace lpx::rt

#endif
