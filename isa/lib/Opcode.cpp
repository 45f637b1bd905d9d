//===- Opcode.cpp - Opcodes and functional units --------------------------===//
#include "lpx/isa/Opcode.h"

namespace lpx::isa {

std::string_view unitName(Unit u) {
  switch (u) {
  case Unit::MEM: return "mem";
  case Unit::VXM: return "vxm";
  case Unit::MXM: return "mxm";
  case Unit::SXM: return "sxm";
  case Unit::C2C: return "c2c";
  }
  return "?";
}

Unit unitOf(Opcode op) {
  switch (op) {
#define LPX_OPCODE(Name, U, Mnemonic, Attrs)                                          \
  case Opcode::Name:                                                           \
    return Unit::U;
#include "lpx/isa/Opcodes.def"
  case Opcode::NumOpcodes:
    break;
  }
  return Unit::MEM;
}

std::string_view mnemonic(Opcode op) {
  switch (op) {
#define LPX_OPCODE(Name, U, Mnemonic, Attrs)                                          \
  case Opcode::Name:                                                           \
    return Mnemonic;
#include "lpx/isa/Opcodes.def"
  case Opcode::NumOpcodes:
    break;
  }
  return "?";
}

std::optional<Opcode> opcodeFromMnemonic(std::string_view m) {
#define LPX_OPCODE(Name, U, Mnemonic, Attrs)                                          \
  if (m == Mnemonic)                                                           \
    return Opcode::Name;
#include "lpx/isa/Opcodes.def"
  return std::nullopt;
}

bool isElementwise(Opcode op) {
  switch (op) {
  case Opcode::Add: case Opcode::Sub: case Opcode::Mul: case Opcode::Div:
  case Opcode::Pow: case Opcode::Where: case Opcode::Sqrt: case Opcode::Neg:
  case Opcode::Relu: case Opcode::Sigmoid: case Opcode::Tanh: case Opcode::Cast:
  case Opcode::Unary: case Opcode::Binary:
    return true;
  case Opcode::MatMul: case Opcode::Softmax: case Opcode::ReduceMean:
  case Opcode::Transpose: case Opcode::Concat: case Opcode::Slice:
  case Opcode::Gather: case Opcode::Copy: case Opcode::Send:
  case Opcode::Reduce: case Opcode::ArgReduce: case Opcode::LogSoftmax:
  case Opcode::Hardmax: case Opcode::CumSum: case Opcode::Broadcast:
  case Opcode::Pad: case Opcode::GatherElements:
  case Opcode::Conv: case Opcode::Pool: case Opcode::ConvTranspose:
  case Opcode::TopK: case Opcode::ScatterElements: case Opcode::ScatterND:
  case Opcode::GridSample: case Opcode::Det: case Opcode::StateWrite:
  case Opcode::NumOpcodes:
    return false;
  }
  return false;
}

} // namespace lpx::isa
