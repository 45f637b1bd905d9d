//===- EmitProgram.h - Level-3 IR to a program file -------------*- C++ -*-===//
#ifndef LPX_TARGET_PROGRAM_EMITPROGRAM_H
#define LPX_TARGET_PROGRAM_EMITPROGRAM_H

#include "lpx/isa/ChipSpec.h"
#include "lpx/isa/Program.h"
#include "mlir/IR/BuiltinOps.h"

namespace lpx {

/// Writes the program of a scheduled and allocated module (IR level 3) for
/// the chip attached to it, verified (isa::VerifiedProgram: a program that
/// does not verify is a compiler error, reported on the module). Fails, with
/// a diagnostic on the offending op, on anything unscheduled. Constant data
/// is viewed in the module's attributes where it can be: use the result
/// while the module's context lives (or keepDataAlive the context).
/// `folded` are the graph inputs the importer folded (--const-input), with
/// their values, recorded so a run can refuse a different one.
mlir::FailureOr<isa::VerifiedProgram>
emitProgram(mlir::ModuleOp module, llvm::StringRef sourceName,
            llvm::ArrayRef<isa::pb::FoldedInput> folded = {});

} // namespace lpx

#endif
