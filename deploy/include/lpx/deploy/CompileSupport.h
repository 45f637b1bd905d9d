//===- CompileSupport.h - Shared by compile and sweep -----------*- C++ -*-===//
//
// MLIR diagnostics as one line. Kept apart from Commands.h so commands that
// do not compile need no MLIR header.
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

/// While alive, keeps the first error diagnostic of `ctx` as one line and
/// silences the rest (for callers that report one failure per compile).
class FirstErrorCapture {
public:
  explicit FirstErrorCapture(mlir::MLIRContext *ctx)
      : handler(ctx, [this](mlir::Diagnostic &d) {
          if (d.getSeverity() == mlir::DiagnosticSeverity::Error &&
              first.empty())
            first = describeDiagnostic(d);
          return mlir::success();
        }) {}
  const std::string &message() const { return first; }

private:
  std::string first;
  mlir::ScopedDiagnosticHandler handler;
};

} // namespace lpx::deploy

#endif
