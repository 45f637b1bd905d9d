//===- Dispatch.h - Running one instruction ---------------------*- C++ -*-===//
#ifndef LPX_RUNTIME_DISPATCH_H
#define LPX_RUNTIME_DISPATCH_H

#include "lpx/isa/Program.h"
#include <vector>

namespace lpx::rt {

using NodeMemory = std::vector<uint8_t>;

/// Runs `inst` (the `index`th instruction): reads its operands from the
/// issuing node's memory and writes its result buffer on the node that holds
/// it (the destination node for a send). `scratch` is reused between calls.
/// `widened` holds, per buffer, the float elements of a constant the kernels
/// read as float (empty for the others). Errors name the instruction.
llvm::Error runInstruction(const isa::pb::Program &p,
                           const isa::pb::Instruction &inst, size_t index,
                           std::vector<NodeMemory> &memory,
                           std::vector<uint8_t> &scratch,
                           llvm::ArrayRef<std::vector<float>> widened = {});

} // namespace lpx::rt

#endif
