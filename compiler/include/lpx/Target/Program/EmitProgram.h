//===- EmitProgram.h - Level-3 IR to a program file -------------*- C++ -*-===//
#ifndef LPX_TARGET_PROGRAM_EMITPROGRAM_H
#define LPX_TARGET_PROGRAM_EMITPROGRAM_H

#include "lpx/isa/ChipSpec.h"
#include "program.pb.h"
#include "mlir/IR/BuiltinOps.h"

namespace lpx {

/// Argument attribute naming a program input, and function attribute
/// listing the output names, as the ONNX importer sets them.
inline constexpr llvm::StringLiteral kInputNameAttr = "lpx_graph.name";
inline constexpr llvm::StringLiteral kOutputNamesAttr = "lpx_graph.outputs";

/// Writes the program of a scheduled and allocated module (IR level 3) for
/// the chip attached to it. Fails, with a diagnostic on the offending op, on
/// anything unscheduled.
mlir::FailureOr<isa::pb::Program> emitProgram(mlir::ModuleOp module,
                                              llvm::StringRef sourceName);

} // namespace lpx

#endif
