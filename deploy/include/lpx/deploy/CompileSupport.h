//===- CompileSupport.h - MLIR diagnostics as one line ----------*- C++ -*-===//
//
// MLIR diagnostics as one line, for evaluate() and `lpx compile`. Kept
// apart so that what does not compile needs no MLIR header.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_COMPILESUPPORT_H
#define LPX_DEPLOY_COMPILESUPPORT_H

#include "mlir/IR/Diagnostics.h"
#include <string>

namespace lpx::deploy {

/// One line per diagnostic: "<where>: <message>; <notes>".
std::string describeDiagnostic(mlir::Diagnostic &d);

/// `message` without the leading "<file>: " a diagnostic located in `file`
/// starts with (a scratch export's path says nothing to the user); the
/// whole message otherwise.
llvm::StringRef withoutFile(llvm::StringRef message, llvm::StringRef file);

} // namespace lpx::deploy

#endif
