//===- Version.h - Program file format version ------------------*- C++ -*-===//
//
// The one place the program format version lives. A reader accepts a file
// whose major version equals its own and whose minor version is not newer.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ISA_VERSION_H
#define LPX_ISA_VERSION_H

#include <cstdint>

namespace lpx::isa {
// 2: typed per-opcode attributes (Instruction.attributes) replace the
// untyped integer list of format 1.
inline constexpr uint16_t kFormatMajor = 2;
// Minor: 1 Binding.offsets; 2 BufferKind STATE and state_write.
inline constexpr uint16_t kFormatMinor = 2;
// Fixed 16-byte prefix: magic, major, minor, payload size. Never changes.
inline constexpr char kMagic[4] = {'L', 'P', 'X', 'B'};
inline constexpr unsigned kHeaderBytes = 16;
} // namespace lpx::isa

#endif
