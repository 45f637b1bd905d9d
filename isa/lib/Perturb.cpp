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
