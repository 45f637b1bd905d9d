//===- CompileSupport.h - Shared by compile and sweep -----------*- C++ -*-===//
//
// MLIR diagnostics as one line. Kept apart from Commands.h so commands that
// do not compile need no MLIR header.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_TOOLS_COMPILESUPPORT_H
#define LPX_TOOLS_COMPILESUPPORT_H

#include "mlir/IR/Diagnostics.h"
#include <string>

namespace lpx::cli {

/// One line per diagnostic: "<where>: <message>; <notes>".
std::string describeDiagnostic(mlir::Diagnostic &d);

} // namespace lpx::cli

#endif
