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

TensorDesc descOf(const pb::Buffer &b);
Opcode opcodeOf(const pb::Instruction &inst);
/// Bytes an instruction writes: its result, except a state_write, which
/// writes its update into the state in place.
uint64_t bytesWritten(const pb::Program &p, const pb::Instruction &inst);

/// Structural and semantic checks: ids in range, operands on the issuing
/// node, shapes consistent with byte sizes, buffers inside SRAM, opcode
/// arities and attributes, instructions sorted by issue cycle.
llvm::Error verifyProgram(const pb::Program &p, const ChipSpec &chip);

/// A program that passed verifyProgram for its chip. Only verify() (which
/// the file readers call) makes one, and it cannot be changed afterwards, so
/// the simulator, the runtime and the tools trust it without checking again.
/// To try a modified program, edit a copy of program() and verify it.
class VerifiedProgram {
public:
  static llvm::Expected<VerifiedProgram> verify(pb::Program program,
                                                ChipSpec chip);
  const pb::Program &program() const { return program_; }
  const ChipSpec &chip() const { return chip_; } // the one compiled for

private:
  VerifiedProgram(pb::Program program, ChipSpec chip)
      : program_(std::move(program)), chip_(std::move(chip)) {}
  pb::Program program_;
  ChipSpec chip_;
};

/// Serializes with the header. Writes a temporary file and renames it, so a
/// failure never leaves a partial output.
llvm::Error writeProgramFile(const pb::Program &p, llvm::StringRef path);
llvm::Expected<VerifiedProgram> readProgramFile(llvm::StringRef path);
llvm::Expected<VerifiedProgram> parseProgram(llvm::StringRef bytes,
                                             llvm::StringRef sourceName);
/// `s` with invalid UTF-8 replaced by U+FFFD. The program's proto3 strings
/// must be UTF-8 (protobuf refuses to parse them otherwise) and so must JSON
/// text; names from an ONNX model (proto2) or a file path need not be.
std::string validUtf8(llvm::StringRef s);

/// Header plus payload; empty when protobuf cannot serialize `p` (2 GiB or
/// more), which writeProgramFile reports as an error.
std::string serializeProgram(const pb::Program &p);

/// Cost of one instruction of a program (sends over global links included).
Cost instructionCost(const ChipSpec &chip, const pb::Program &p,
                     const pb::Instruction &inst);

} // namespace lpx::isa

#endif
