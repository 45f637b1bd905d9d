//===- Opcode.h - Opcodes and functional units ------------------*- C++ -*-===//
#ifndef LPX_ISA_OPCODE_H
#define LPX_ISA_OPCODE_H

#include <cstdint>
#include <optional>
#include <string_view>

namespace lpx::isa {

/// Functional units of one node. Each unit has its own in-order instruction
/// queue and its own SRAM stream ports; every outgoing link of a node is a
/// separate C2C queue.
enum class Unit : uint8_t { MEM, VXM, MXM, SXM, C2C };
inline constexpr unsigned kNumUnits = 5;
std::string_view unitName(Unit u);

enum class Opcode : uint32_t {
#define LPX_OPCODE(Name, Unit, Mnemonic, Attrs) Name,
#include "lpx/isa/Opcodes.def"
  NumOpcodes
};

Unit unitOf(Opcode op);
std::string_view mnemonic(Opcode op);
std::optional<Opcode> opcodeFromMnemonic(std::string_view m);
/// Opcodes that apply one function to each element (with broadcasting).
bool isElementwise(Opcode op);

} // namespace lpx::isa

#endif
