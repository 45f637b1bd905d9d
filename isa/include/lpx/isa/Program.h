//===- Program.h - Reading, writing and verifying program files -*- C++ -*-===//
//
// A program file is a fixed 16-byte header (magic "LPXB", major, minor,
// payload size, little-endian), a serialized pb::Program, and the constants'
// data sections (see pb::Constant). Loading verifies the whole file once;
// simulator and runtime then trust it.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ISA_PROGRAM_H
#define LPX_ISA_PROGRAM_H

#include "lpx/isa/ChipSpec.h"
#include "lpx/isa/ConstantData.h"
#include "lpx/isa/Timing.h"
#include "program.pb.h"
#include "llvm/Support/Error.h"

namespace lpx::isa {

TensorDesc descOf(const pb::Buffer &b);
Opcode opcodeOf(const pb::Instruction &inst);
/// Bytes an instruction writes: its result, except a state_write, which
/// writes its update into the state in place.
uint64_t bytesWritten(const pb::Program &p, const pb::Instruction &inst);
/// Bytes an instruction reads of its first operand: a gather's data only the
/// rows it picks (gatherReadBytes), a slice's only the vectors that hold its
/// selection (sliceReadBytes), any other operand whole.
uint64_t firstOperandReadBytes(const ChipSpec &chip, const pb::Program &p,
                               const pb::Instruction &inst);
/// Bytes an instruction reads from SRAM: each operand once (one listed
/// twice is streamed once), the first as firstOperandReadBytes.
uint64_t bytesRead(const ChipSpec &chip, const pb::Program &p,
                   const pb::Instruction &inst);

/// Structural and semantic checks: ids in range, operands on the issuing
/// node, shapes consistent with byte sizes, buffers inside SRAM, opcode
/// arities and attributes, instructions sorted by issue cycle.
llvm::Error verifyProgram(const pb::Program &p, const ChipSpec &chip);
/// The embedded chip description is the text its recorded hash was taken
/// of (a description edited after compiling is a different chip).
llvm::Error checkChipHash(const pb::Program &p);
/// One entry of `data` per constant of `p` with the size the constant
/// declares (none at all when every constant is shape-only).
llvm::Error checkConstantData(const pb::Program &p, const ConstantData &data);

/// A program message with its constants' data: what the compiler emits and
/// the writer takes.
struct ProgramWithData {
  pb::Program program;
  ConstantData data;
};

/// A program that passed checkChipHash, verifyProgram for its chip and
/// checkConstantData. Only verify() (which the file readers and the
/// compiler's emitter call) makes one, and it cannot be changed afterwards,
/// so the simulator, the runtime and the tools trust it without checking
/// again. To try a modified program, edit a copy of program() and verify it.
class VerifiedProgram {
public:
  static llvm::Expected<VerifiedProgram>
  verify(pb::Program program, ChipSpec chip, ConstantData data = {});
  static llvm::Expected<VerifiedProgram> verify(ProgramWithData p,
                                                ChipSpec chip) {
    return verify(std::move(p.program), std::move(chip), std::move(p.data));
  }
  const pb::Program &program() const { return program_; }
  /// The data of program().constants(i) is data()[i].
  const ConstantData &data() const { return data_; }
  const ChipSpec &chip() const { return chip_; } // the one compiled for
  /// Keeps `owner` (what the data views, such as the compiler's context)
  /// alive as long as the program; what the program holds is unchanged.
  void keepDataAlive(std::shared_ptr<const void> owner) {
    data_.keepAlive(std::move(owner));
  }

private:
  VerifiedProgram(pb::Program program, ChipSpec chip, ConstantData data)
      : program_(std::move(program)), chip_(std::move(chip)),
        data_(std::move(data)) {}
  pb::Program program_;
  ChipSpec chip_;
  ConstantData data_;
};

/// Writes header, payload and data sections, checking every write. Writes a
/// temporary file and renames it, so a failure never leaves a partial
/// output.
llvm::Error writeProgramFile(const pb::Program &p, const ConstantData &data,
                             llvm::StringRef path);
inline llvm::Error writeProgramFile(const ProgramWithData &p,
                                    llvm::StringRef path) {
  return writeProgramFile(p.program, p.data, path);
}
inline llvm::Error writeProgramFile(const VerifiedProgram &p,
                                    llvm::StringRef path) {
  return writeProgramFile(p.program(), p.data(), path);
}
/// Maps the file (or reads it): constant data is viewed where it lies, never
/// copied.
llvm::Expected<VerifiedProgram> readProgramFile(llvm::StringRef path);
/// Parses bytes in memory; the constant data is copied once (the result
/// does not refer to `bytes`).
llvm::Expected<VerifiedProgram> parseProgram(llvm::StringRef bytes,
                                             llvm::StringRef sourceName);
/// `s` with invalid UTF-8 replaced by U+FFFD. The program's proto3 strings
/// must be UTF-8 (protobuf refuses to parse them otherwise) and so must JSON
/// text; names from an ONNX model (proto2) or a file path need not be.
std::string validUtf8(llvm::StringRef s);

/// The whole file in memory (for tests and programs built in memory); empty
/// when writeProgramFile would fail.
std::string serializeProgram(const pb::Program &p,
                             const ConstantData &data = {});
inline std::string serializeProgram(const ProgramWithData &p) {
  return serializeProgram(p.program, p.data);
}

/// Cost of one instruction of a program (sends over global links included).
Cost instructionCost(const ChipSpec &chip, const pb::Program &p,
                     const pb::Instruction &inst);

} // namespace lpx::isa

#endif
