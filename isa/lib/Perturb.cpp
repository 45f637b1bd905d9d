//===- Perturb.cpp - Deliberately broken schedules ------------------------===//
#include "lpx/isa/Perturb.h"
#include "lpx/isa/Opcode.h"
#include "lpx/isa/Program.h"

int lpx::isa::moveEarlier(pb::Program &p, int index, uint64_t cycles) {
  auto *insts = p.mutable_instructions();
  pb::Instruction moved = insts->Get(index);
  moved.set_issue(moved.issue() - cycles);
  if (opcodeOf(moved) == Opcode::Send)
    moved.set_arrive(moved.arrive() - cycles);
  int at = index;
  while (at > 0 && insts->Get(at - 1).issue() > moved.issue()) {
    insts->SwapElements(at, at - 1);
    --at;
  }
  *insts->Mutable(at) = std::move(moved);
  return at;
}

llvm::Expected<int> lpx::isa::checkedMoveEarlier(pb::Program &p,
                                                 uint64_t index,
                                                 uint64_t cycles) {
  const uint64_t count = uint64_t(p.instructions_size());
  if (index >= count)
    return llvm::createStringError(
        "instruction " + std::to_string(index) +
        " does not exist: the program has " + std::to_string(count) +
        " instructions");
  const pb::Instruction &moved = p.instructions(int(index));
  if (moved.issue() < cycles)
    return llvm::createStringError(
        "instruction " + std::to_string(index) + " issues at cycle " +
        std::to_string(moved.issue()) + ", it cannot move " +
        std::to_string(cycles) + " cycles earlier");
  return moveEarlier(p, int(index), cycles);
}

std::string lpx::isa::describeMove(const pb::Program &p, uint64_t index,
                                   uint64_t cycles, int at) {
  const pb::Instruction &i = p.instructions(at);
  const uint64_t from = i.issue() + cycles;
  std::string line = "moved instruction " + std::to_string(index) + " (" +
                     std::string(mnemonic(opcodeOf(i)));
  if (!i.origin().empty())
    line += " " + i.origin();
  line += ", node " + std::to_string(i.node()) + ") from cycle " +
          std::to_string(from) + " to " + std::to_string(i.issue());
  if (at != int(index))
    line += ", now instruction " + std::to_string(at);
  return line;
}
