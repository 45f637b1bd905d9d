//===- PerturbTest.cpp - lpx perturb's move, its checks and its line ------===//
#include "lpx/isa/Opcode.h"
#include "lpx/isa/Perturb.h"

#include <gtest/gtest.h>

using namespace lpx::isa;

namespace {

/// Three instructions issued at cycles 2, 5 and 6; the last is a send
/// arriving at 20.
pb::Program threeInstructions() {
  pb::Program p;
  for (auto [op, issue, origin] :
       {std::tuple{Opcode::Neg, 2u, "neg_0"}, {Opcode::Relu, 5u, ""},
        {Opcode::Send, 6u, "x/send"}}) {
    pb::Instruction *i = p.add_instructions();
    i->set_opcode(uint32_t(op));
    i->set_issue(issue);
    i->set_node(1);
    i->set_origin(origin);
    if (op == Opcode::Send)
      i->set_arrive(20);
  }
  return p;
}

} // namespace

TEST(Perturb, AMovedSendPassesTheEarlierOnesAndKeepsItsFlight) {
  pb::Program p = threeInstructions();
  // 6 - 2 = 4: before the relu at 5, after the neg at 2.
  auto at = checkedMoveEarlier(p, 2, 2);
  ASSERT_TRUE(bool(at)) << llvm::toString(at.takeError());
  EXPECT_EQ(*at, 1);
  EXPECT_EQ(p.instructions(1).issue(), 4u);
  EXPECT_EQ(p.instructions(1).arrive(), 18u);
  EXPECT_EQ(describeMove(p, 2, 2, *at),
            "moved instruction 2 (send x/send, node 1) from cycle 6 to 4, now "
            "instruction 1");
  pb::Program q = threeInstructions();
  auto same = checkedMoveEarlier(q, 1, 1);
  ASSERT_TRUE(bool(same));
  EXPECT_EQ(describeMove(q, 1, 1, *same),
            "moved instruction 1 (relu, node 1) from cycle 5 to 4");
}

TEST(Perturb, WhatCannotMoveIsAnError) {
  pb::Program p = threeInstructions();
  auto missing = checkedMoveEarlier(p, 3, 1);
  ASSERT_FALSE(bool(missing));
  EXPECT_EQ(llvm::toString(missing.takeError()),
            "instruction 3 does not exist: the program has 3 instructions");
  auto early = checkedMoveEarlier(p, 0, 3);
  ASSERT_FALSE(bool(early));
  EXPECT_EQ(llvm::toString(early.takeError()),
            "instruction 0 issues at cycle 2, it cannot move 3 cycles "
            "earlier");
}
