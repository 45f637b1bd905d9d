//===- UnitOps.cpp - Named operations of each functional unit -------------===//
#include "lpx/isa/UnitOps.h"
#include "lpx/isa/Attributes.h"
#include "lpx/isa/ElementwiseFunctions.h"

#include <algorithm>
#include <array>

using namespace lpx::isa;

namespace {

std::string functionName(Opcode op, int64_t id) {
  switch (op) {
  case Opcode::Unary:
    if (const FnInfo *f = unaryFnInfo(id))
      return std::string(f->mnemonic);
    break;
  case Opcode::Binary:
    if (const FnInfo *f = binaryFnInfo(id))
      return std::string(f->mnemonic);
    break;
  case Opcode::Reduce:
    if (const FnInfo *f = reduceFnInfo(id))
      return "reduce_" + std::string(f->mnemonic);
    break;
  case Opcode::ArgReduce:
    if (const FnInfo *f = argReduceFnInfo(id))
      return "arg" + std::string(f->mnemonic);
    break;
  default:
    break;
  }
  return std::string(mnemonic(op));
}

bool isGeneric(Opcode op) {
  return op == Opcode::Unary || op == Opcode::Binary ||
         op == Opcode::Reduce || op == Opcode::ArgReduce;
}

std::vector<std::string> collect(Unit unit) {
  std::vector<std::string> names;
  for (uint32_t i = 0; i < uint32_t(Opcode::NumOpcodes); ++i) {
    Opcode op = Opcode(i);
    if (unitOf(op) != unit)
      continue;
    if (!isGeneric(op)) {
      names.emplace_back(mnemonic(op));
      continue;
    }
    for (int64_t id = 0;; ++id) {
      std::string name = functionName(op, id);
      if (name == mnemonic(op)) // past the end of the function table
        break;
      names.push_back(std::move(name));
    }
  }
  std::sort(names.begin(), names.end());
  // reduce_mean is both an opcode and a reduction function: one operation.
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

} // namespace

const std::vector<std::string> &lpx::isa::unitOpNames(Unit unit) {
  static const std::array<std::vector<std::string>, kNumUnits> all = [] {
    std::array<std::vector<std::string>, kNumUnits> a;
    for (Unit u : {Unit::MEM, Unit::VXM, Unit::SXM})
      a[size_t(u)] = collect(u);
    return a;
  }();
  return all[size_t(unit)];
}

const std::string &lpx::isa::unitOpName(Opcode op,
                                        const pb::Attributes &attrs) {
  // Per opcode: its mnemonic, and for a generic opcode the name of each
  // function id (the mnemonic again past the end of its table).
  struct Names {
    std::string mnemonic;
    std::vector<std::string> functions;
  };
  static const std::vector<Names> table = [] {
    std::vector<Names> t(static_cast<size_t>(Opcode::NumOpcodes));
    for (uint32_t i = 0; i < uint32_t(Opcode::NumOpcodes); ++i) {
      Opcode o = Opcode(i);
      t[i].mnemonic = std::string(mnemonic(o));
      if (isGeneric(o))
        for (int64_t id = 0;; ++id) {
          std::string name = functionName(o, id);
          if (name == t[i].mnemonic)
            break;
          t[i].functions.push_back(std::move(name));
        }
    }
    return t;
  }();
  const Names &n = table[size_t(op) < table.size() ? size_t(op) : 0];
  int64_t id = functionIdOf(attrs);
  if (id >= 0 && size_t(id) < n.functions.size())
    return n.functions[size_t(id)];
  return n.mnemonic;
}

uint32_t lpx::isa::queueCount(const ChipSpec &chip, Unit unit) {
  switch (unit) {
  case Unit::MXM: return chip.mxm.queues;
  case Unit::VXM: return chip.vxm.queues;
  case Unit::SXM: return chip.sxm.queues;
  case Unit::MEM: return chip.mem.queues;
  case Unit::C2C: return 1;
  }
  return 1;
}
