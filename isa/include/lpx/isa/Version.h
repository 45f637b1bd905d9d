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
// 2 minors: 1 Binding.offsets; 2 BufferKind STATE and state_write.
// 3: constant data in 64-byte-aligned data sections after the payload
// (Constant.offset and size) instead of inside the message, so a program
// of any size can be written and read; 3.0 holds everything of 2.2.
// 3 minors: 1 Program.tp and pp, the placement the partition chose;
// 2 a tensor's bound pieces may cut several axes (a grid, isa::tileGrid),
// and Program.states, the resident state a program expects, bound by name
// (a 3.0/3.1 file's state buffers are read as bound whole, by buffer name);
// 3 Program.weights_format and activations_format, the number formats the
// compile held values in (empty in older files: the model's own), and
// Program.folded_inputs, the values --const-input folded in; and
// the integer bitwise functions (unary bitwise_not, binary bitwise_and,
// bitwise_or, bitwise_xor: ONNX's Bitwise* of opset 18); 4 the unary
// quantize and dequantize functions (QDQ's rescaling in one VXM pass).
inline constexpr uint16_t kFormatMajor = 3;
inline constexpr uint16_t kFormatMinor = 4;
// Fixed 16-byte prefix: magic, major, minor, payload size. Never changes.
inline constexpr char kMagic[4] = {'L', 'P', 'X', 'B'};
inline constexpr unsigned kHeaderBytes = 16;
} // namespace lpx::isa

#endif
