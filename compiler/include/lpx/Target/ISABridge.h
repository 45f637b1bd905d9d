//===- ISABridge.h - Map compiler IR onto the instruction set ---*- C++ -*-===//
//
// The one place that says which program instruction an op becomes, with
// which attributes, and what it costs. The scheduler and the emitter both
// use it, so the cycles the compiler plans are the cycles it writes.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_TARGET_ISABRIDGE_H
#define LPX_TARGET_ISABRIDGE_H

#include "lpx/isa/ChipSpec.h"
#include "lpx/isa/DType.h"
#include "lpx/isa/Opcode.h"
#include "lpx/isa/Timing.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"
#include <optional>

namespace lpx {

std::optional<isa::DType> dtypeOf(mlir::Type elementType);
isa::TensorDesc tensorDescOf(mlir::Type tensorType);

/// The opcode an op executes as; failure for ops that are not instructions
/// (constants, returns) or are not known.
mlir::FailureOr<isa::Opcode> opcodeOf(mlir::Operation *op);
/// The instruction's typed attributes (the message Opcodes.def names for its
/// opcode; none for opcodes without attributes).
isa::pb::Attributes instructionAttrs(mlir::Operation *op);
/// The instruction's operand buffers: the op's operands, except the state of
/// a state write, which is its result buffer (written in place).
mlir::OperandRange instructionOperands(mlir::Operation *op);
/// Busy and latency cycles of `op` on `chip`, from operand and result types.
isa::Cost costOf(const isa::ChipSpec &chip, mlir::Operation *op);

/// Attaches the resolved chip description to `module` (lpx_part.chip),
/// replacing any earlier one.
void attachChip(mlir::ModuleOp module, const isa::ChipSpec &chip);
/// The chip attached to `module`; emits an error on it when there is none or
/// it does not parse.
mlir::FailureOr<isa::ChipSpec> chipOf(mlir::ModuleOp module);

} // namespace lpx

#endif
