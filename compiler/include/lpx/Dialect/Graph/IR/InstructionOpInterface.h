//===- InstructionOpInterface.h - Ops that are instructions -----*- C++ -*-===//
#ifndef LPX_DIALECT_GRAPH_IR_INSTRUCTIONOPINTERFACE_H
#define LPX_DIALECT_GRAPH_IR_INSTRUCTIONOPINTERFACE_H

#include "lpx/isa/Opcode.h"
#include "mlir/IR/OpDefinition.h"

namespace lpx::isa::pb {
class Attributes; // program.proto; included where attributes are filled
} // namespace lpx::isa::pb

namespace lpx {
/// The opcode an op executes as, fixed per op (Lpx_Instruction<"Name"> in
/// ODS); InstructionOpInterface::getOpcode returns it.
template <isa::Opcode Code> struct HasOpcode {
  template <typename ConcreteOp>
  class Impl : public mlir::OpTrait::TraitBase<ConcreteOp, Impl> {
  public:
    static constexpr isa::Opcode kOpcode = Code;
  };
};
} // namespace lpx

#include "lpx/Dialect/Graph/IR/InstructionOpInterface.h.inc"

#endif
