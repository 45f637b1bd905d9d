//===- ISABridge.cpp - Map compiler IR onto the instruction set -----------===//
#include "lpx/Target/ISABridge.h"
#include "program.pb.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Dialect/Part/IR/PartOps.h"
#include "lpx/Dialect/Sched/IR/SchedOps.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace lpx;
using isa::DType;

std::optional<DType> lpx::dtypeOf(Type t) {
  if (t.isF32()) return DType::F32;
  if (t.isF16()) return DType::F16;
  if (t.isBF16()) return DType::BF16;
  if (t.isF64()) return DType::F64;
  if (t.isFloat8E4M3FN()) return DType::F8E4M3;
  if (t.isFloat8E5M2()) return DType::F8E5M2;
  if (auto i = dyn_cast<IntegerType>(t)) {
    bool u = i.isUnsigned();
    switch (i.getWidth()) {
    case 1: return DType::Bool;
    case 8: return u ? DType::U8 : DType::I8;
    case 16: return u ? DType::U16 : DType::I16;
    case 32: return u ? DType::U32 : DType::I32;
    case 64: return u ? DType::U64 : DType::I64;
    default: return std::nullopt;
    }
  }
  return std::nullopt;
}

isa::TensorDesc lpx::tensorDescOf(Type type) {
  isa::TensorDesc d;
  auto t = cast<RankedTensorType>(type);
  d.dtype = dtypeOf(t.getElementType()).value_or(DType::Undefined);
  d.shape.assign(t.getShape().begin(), t.getShape().end());
  return d;
}

isa::pb::Attributes lpx::instructionAttrs(InstructionOpInterface op) {
  isa::pb::Attributes attrs;
  op.fillInstructionAttrs(attrs);
  return attrs;
}

OperandRange lpx::instructionOperands(Operation *op) {
  // A state write names its state as its result buffer, not as an operand.
  if (llvm::isa<graph::StateWriteOp>(op))
    return op->getOperands().drop_front();
  return op->getOperands();
}

isa::Cost lpx::costOf(const isa::ChipSpec &chip, InstructionOpInterface op) {
  std::vector<isa::TensorDesc> operands;
  for (Value v : instructionOperands(op))
    operands.push_back(tensorDescOf(v.getType()));
  return isa::instructionCost(chip, op.getOpcode(), operands,
                              tensorDescOf(op->getResult(0).getType()),
                              instructionAttrs(op));
}

LogicalResult lpx::attachChip(ModuleOp module, const isa::ChipSpec &chip) {
  // The schedule is the attached chip's: a scheduled module keeps it.
  WalkResult scheduled = module.walk([](Operation *op) {
    return op->hasAttr(sched::SchedDialect::kSlotAttr) ? WalkResult::interrupt()
                                                       : WalkResult::advance();
  });
  if (scheduled.wasInterrupted()) {
    auto had =
        module->getAttrOfType<part::ChipAttr>(part::PartDialect::kChipAttr);
    return module.emitError("the module is already scheduled")
           << (had ? " for chip '" + had.getSpec().name + "'" : std::string())
           << "; a chip is attached before lpx-schedule";
  }
  module->setAttr(part::PartDialect::kChipAttr,
                  part::ChipAttr::get(module.getContext(), chip));
  return success();
}

FailureOr<isa::ChipSpec> lpx::chipOf(ModuleOp module) {
  auto chip =
      module->getAttrOfType<part::ChipAttr>(part::PartDialect::kChipAttr);
  if (!chip)
    return module.emitError("module has no chip description; run "
                            "lpx-attach-chip first");
  return chip.getSpec();
}
