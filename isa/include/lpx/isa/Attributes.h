//===- Attributes.h - Typed instruction attributes --------------*- C++ -*-===//
//
// An instruction's attributes are one message of pb::Attributes
// (program.proto); which one each opcode carries is the last column of
// Opcodes.def.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ISA_ATTRIBUTES_H
#define LPX_ISA_ATTRIBUTES_H

#include "lpx/isa/Opcode.h"
#include "program.pb.h"

namespace lpx::isa {

/// The pb::Attributes case the instructions of `op` carry (KIND_NOT_SET for
/// an opcode without attributes).
pb::Attributes::KindCase attributesCaseOf(Opcode op);

/// The function id (ElementwiseFunctions.def) named by the attributes of a
/// generic vector opcode (unary, binary, reduce, arg_reduce); -1 otherwise.
int64_t functionIdOf(const pb::Attributes &a);

} // namespace lpx::isa

#endif
