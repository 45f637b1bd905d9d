//===- ISABridge.h - Map compiler IR onto the instruction set ---*- C++ -*-===//
//
// Types and costs of instructions for the chip. Which instruction an op
// becomes, with which attributes, each op says itself
// (InstructionOpInterface); the scheduler and the emitter both cost and
// emit through it, so the cycles the compiler plans are the cycles it writes.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_TARGET_ISABRIDGE_H
#define LPX_TARGET_ISABRIDGE_H

#include "lpx/Dialect/Graph/IR/InstructionOpInterface.h"
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

/// The instruction's typed attributes (InstructionOpInterface; none for
/// opcodes without attributes).
isa::pb::Attributes instructionAttrs(InstructionOpInterface op);
/// The instruction's operand buffers: the op's operands, except the state of
/// a state write, which is its result buffer (written in place).
mlir::OperandRange instructionOperands(mlir::Operation *op);
/// Busy and latency cycles of `op` on `chip`, from operand and result types
/// and its attributes.
isa::Cost costOf(const isa::ChipSpec &chip, InstructionOpInterface op);

/// Attaches the parsed chip to `module` (lpx_part.chip, a #lpx_part.chip),
/// replacing any earlier one; an error on a module already scheduled (its
/// schedule is for the chip it has).
mlir::LogicalResult attachChip(mlir::ModuleOp module,
                               const isa::ChipSpec &chip);
/// The chip attached to `module` (parsed when it was attached or read);
/// emits an error on it when there is none.
mlir::FailureOr<isa::ChipSpec> chipOf(mlir::ModuleOp module);

} // namespace lpx

#endif
