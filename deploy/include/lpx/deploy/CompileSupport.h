//===- CompileSupport.h - MLIR diagnostics as one line ----------*- C++ -*-===//
//
// MLIR diagnostics as one line, for evaluate() and `lpx compile`, and
// the line `lpx compile` prints of what it wrote. Kept
// apart so that what does not compile needs no MLIR header.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_COMPILESUPPORT_H
#define LPX_DEPLOY_COMPILESUPPORT_H

#include "lpx/isa/Program.h"
#include "mlir/IR/Diagnostics.h"
#include <string>

namespace lpx::deploy {

/// One line per diagnostic: "<where>: <message>; <notes>".
std::string describeDiagnostic(mlir::Diagnostic &d);

/// `message` without the leading "<file>: " a diagnostic located in `file`
/// starts with (a scratch export's path says nothing to the user); the
/// whole message otherwise.
llvm::StringRef withoutFile(llvm::StringRef message, llvm::StringRef file);

/// What `lpx compile` prints of a program: "compiled MODEL for N node(s) of
/// CHIP[ (modified)]: I instructions (S transfers), W bytes of weights ->
/// OUTPUT", S the sends and W the bytes of constant buffers.
std::string compiledLine(const isa::pb::Program &program,
                         llvm::StringRef modelFile, unsigned nodes,
                         llvm::StringRef chip, bool modified,
                         llvm::StringRef output);

} // namespace lpx::deploy

#endif
