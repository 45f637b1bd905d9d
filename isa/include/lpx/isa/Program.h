//===- Program.h - Reading, writing and verifying program files -*- C++ -*-===//
//
// A program file is a fixed 16-byte header (magic "LPXB", major, minor,
// payload size, little-endian) followed by a serialized pb::Program. Loading
// verifies the whole file once; simulator and runtime then trust it.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ISA_PROGRAM_H
#define LPX_ISA_PROGRAM_H

#include "lpx/isa/ChipSpec.h"
#include "lpx/isa/Timing.h"
#include "program.pb.h"
#include "llvm/Support/Error.h"

namespace lpx::isa {

struct LoadedProgram {
  pb::Program program;
  ChipSpec chip; // parsed from program.chip_yaml
};

TensorDesc descOf(const pb::Buffer &b);
Opcode opcodeOf(const pb::Instruction &inst);

/// Structural and semantic checks: ids in range, operands on the issuing
/// node, shapes consistent with byte sizes, buffers inside SRAM, opcode
/// arities and attributes, instructions sorted by issue cycle.
llvm::Error verifyProgram(const pb::Program &p, const ChipSpec &chip);

/// Serializes with the header. Writes a temporary file and renames it, so a
/// failure never leaves a partial output.
llvm::Error writeProgramFile(const pb::Program &p, llvm::StringRef path);
llvm::Expected<LoadedProgram> readProgramFile(llvm::StringRef path);
llvm::Expected<LoadedProgram> parseProgram(llvm::StringRef bytes,
                                           llvm::StringRef sourceName);
std::string serializeProgram(const pb::Program &p);

/// Outgoing link a node uses to reach `dst` inside a fully connected group.
uint32_t directLink(uint32_t src, uint32_t dst);

} // namespace lpx::isa

#endif
