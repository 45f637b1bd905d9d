//===- Describe.h - How hazard messages name an instruction -----*- C++ -*-===//
#ifndef LPX_SIM_DESCRIBE_H
#define LPX_SIM_DESCRIBE_H

#include "lpx/isa/Opcode.h"
#include "lpx/isa/Program.h"
#include <string>

namespace lpx::sim {

/// "mnemonic (origin 'name')", or "mnemonic (no origin)".
inline std::string describeInstruction(const isa::pb::Instruction &inst) {
  std::string m(isa::mnemonic(isa::opcodeOf(inst)));
  if (inst.origin().empty())
    return m + " (no origin)";
  return m + " (origin '" + inst.origin() + "')";
}

} // namespace lpx::sim

#endif
