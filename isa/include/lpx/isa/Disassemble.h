//===- Disassemble.h - Program file to stable text --------------*- C++ -*-===//
#ifndef LPX_ISA_DISASSEMBLE_H
#define LPX_ISA_DISASSEMBLE_H

#include "lpx/isa/Program.h"
#include "llvm/Support/raw_ostream.h"

namespace lpx::isa {
/// Prints the buffer table and, per node, its instruction stream in issue
/// order with unit, cycles, operands and attributes. The text is stable: the
/// same program always prints the same way.
void disassemble(const VerifiedProgram &prog, llvm::raw_ostream &os);
} // namespace lpx::isa

#endif
