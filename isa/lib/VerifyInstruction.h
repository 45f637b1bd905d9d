//===- VerifyInstruction.h - Checks of one instruction ----------*- C++ -*-===//
#ifndef LPX_ISA_VERIFYINSTRUCTION_H
#define LPX_ISA_VERIFYINSTRUCTION_H

#include "program.pb.h"
#include "llvm/Support/Error.h"

namespace lpx::isa {

/// Operand count and types, and the attributes: the message Opcodes.def
/// names for the opcode, with values the kernels accept. Buffer ids and
/// placement were checked by the caller.
llvm::Error verifyInstruction(const pb::Program &p,
                              const pb::Instruction &inst, size_t index);

} // namespace lpx::isa

#endif
