//===- InstructionOpInterface.td - Ops that are instructions -*- tablegen -*-===//
//
// An op that executes as one program instruction says which opcode and fills
// that opcode's typed attribute message (isa/proto/program.proto). The
// scheduler (cost) and the emitter ask this interface; nothing else maps ops
// to opcodes. Shared by lpx_graph, lpx_part and lpx_sched ops.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_INSTRUCTION_OP_INTERFACE_TD
#define LPX_INSTRUCTION_OP_INTERFACE_TD

include "mlir/IR/OpBase.td"

def LpxInstructionOpInterface : OpInterface<"InstructionOpInterface"> {
  let cppNamespace = "::lpx";
  let description = [{
    An op that is one instruction of the program: its opcode (from
    `Lpx_Instruction<"Name">`, the `Opcodes.def` entry) and, for opcodes
    whose `Opcodes.def` entry names an attribute message, the attributes.
  }];
  let methods = [
    InterfaceMethod<"The opcode this op executes as.",
      "::lpx::isa::Opcode", "getOpcode", (ins), [{}],
      /*defaultImplementation=*/[{ return ConcreteOp::kOpcode; }]>,
    InterfaceMethod<[{
        Sets the instruction's attribute message (the oneof case that
        Opcodes.def names for the opcode) in `attrs`; opcodes without
        attributes leave it unset.
      }],
      "void", "fillInstructionAttrs",
      (ins "::lpx::isa::pb::Attributes &":$attrs), [{}],
      /*defaultImplementation=*/[{ return; }]>,
  ];
}

// The opcode as a C++ trait (lpx::HasOpcode, InstructionOpInterface.h).
class Lpx_HasOpcode<string name>
    : ParamNativeOpTrait<"HasOpcode", "::lpx::isa::Opcode::" # name> {
  let cppNamespace = "::lpx";
}

// On an op that executes as opcode `name` (isa::Opcode::name). With
// `hasAttrs`, the op defines fillInstructionAttrs (InstructionAttrs.cpp);
// without, the instruction carries no attributes.
class Lpx_Instruction<string name, bit hasAttrs = 0> : TraitList<[
    !if(hasAttrs,
        DeclareOpInterfaceMethods<LpxInstructionOpInterface,
                                  ["fillInstructionAttrs"]>,
        LpxInstructionOpInterface),
    Lpx_HasOpcode<name>]>;

#endif // LPX_INSTRUCTION_OP_INTERFACE_TD
