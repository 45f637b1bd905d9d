//===- Attributes.cpp - Typed instruction attributes ----------------------===//
#include "lpx/isa/Attributes.h"

using namespace lpx::isa;

pb::Attributes::KindCase lpx::isa::attributesCaseOf(Opcode op) {
  switch (op) {
#define LPX_OPCODE(Name, U, Mnemonic, Attrs)                                   \
  case Opcode::Name:                                                           \
    return pb::Attributes::Attrs;
#include "lpx/isa/Opcodes.def"
  case Opcode::NumOpcodes:
    break;
  }
  return pb::Attributes::KIND_NOT_SET;
}

int64_t lpx::isa::functionIdOf(const pb::Attributes &a) {
  switch (a.kind_case()) {
  case pb::Attributes::kUnary: return a.unary().fn();
  case pb::Attributes::kBinary: return a.binary().fn();
  case pb::Attributes::kReduce: return a.reduce().fn();
  case pb::Attributes::kArgReduce: return a.arg_reduce().fn();
  default: return -1;
  }
}
