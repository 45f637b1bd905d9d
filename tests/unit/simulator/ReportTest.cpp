//===- ReportTest.cpp - Text and JSON reports -----------------------------===//
#include "ProgramBuilder.h"

#include "llvm/Support/JSON.h"

using namespace lpx::sim::test;

namespace {


// add, then a relu issued one cycle early: it reads 't' before it is
// complete and while the add still writes it (operand-not-ready and
// bank-conflict, both at the relu), one busy VXM.
ProgramBuilder brokenChain() {
  return addThenRelu(row::kVxmDone - 1);
}

std::string json(const SimResult &r, const isa::VerifiedProgram &p) {
  std::string s;
  llvm::raw_string_ostream os(s);
  printJson(r, p, os);
  return s;
}

std::string text(const SimResult &r, const isa::VerifiedProgram &p) {
  std::string s;
  llvm::raw_string_ostream os(s);
  printReport(r, p, os);
  return s;
}

/// brokenChain() loaded and simulated by the replay alone (the vector check
/// would add its own findings), for the report tests.
class BrokenChainReport : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(loadAndSimulate(brokenChain(), prog, r, replayOnly()));
  }
  std::optional<isa::VerifiedProgram> prog;
  SimResult r;
};

TEST(ReportTest, IdenticalRunsGiveIdenticalOutput) {
  ProgramBuilder b = brokenChain();
  std::optional<isa::VerifiedProgram> p1, p2;
  SimResult r1, r2;
  ASSERT_TRUE(loadAndSimulate(b, p1, r1));
  ASSERT_TRUE(loadAndSimulate(b, p2, r2));
  EXPECT_EQ(json(r1, *p1), json(r2, *p2));
  EXPECT_EQ(text(r1, *p1), text(r2, *p2));
  // Repeating on the same loaded program changes nothing either.
  auto r3 = simulate(*p1);
  ASSERT_TRUE(bool(r3)) << llvm::toString(r3.takeError());
  EXPECT_EQ(json(r1, *p1), json(*r3, *p1));
}

TEST_F(BrokenChainReport, JsonContents) {
  std::string s = json(r, *prog);
  auto parsed = llvm::json::parse(s);
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  const llvm::json::Object *root = parsed->getAsObject();
  ASSERT_NE(root, nullptr);

  // The relu issues at row::kVxmDone - 1 and takes its own busy + latency.
  const uint64_t total = row::kVxmDone - 1 + row::kVxmDone;
  EXPECT_EQ(root->getInteger("total_cycles"), int64_t(total));
  EXPECT_EQ(root->getInteger("instructions"), 2);
  EXPECT_EQ(root->getInteger("hazard_count"), 2);
  EXPECT_EQ(root->getString("chip"), "sim-test");
  EXPECT_DOUBLE_EQ(*root->getNumber("seconds"),
                   double(total) / (chip::kClockMHz * 1e6));

  const llvm::json::Array *hazards = root->getArray("hazards");
  ASSERT_TRUE(hazards && hazards->size() == 2);
  const llvm::json::Object *h = (*hazards)[0].getAsObject();
  EXPECT_EQ(h->getString("kind"), "operand-not-ready");
  EXPECT_EQ(h->getInteger("instruction"), 1);
  EXPECT_EQ(h->getInteger("cycle"), int64_t(row::kVxmDone - 1));

  const llvm::json::Array *queues = root->getArray("queues");
  ASSERT_TRUE(queues && queues->size() == 4);
  const llvm::json::Object *vxm = (*queues)[3].getAsObject();
  EXPECT_EQ(vxm->getString("queue"), "vxm");
  EXPECT_EQ(vxm->getInteger("busy_cycles"), int64_t(2 * row::kVxmBusy));
  EXPECT_DOUBLE_EQ(*vxm->getNumber("utilisation"),
                   double(2 * row::kVxmBusy) / double(total));

  // Keys come out sorted, whatever order the code inserted them in.
  EXPECT_LT(s.find("\"bytes_over_links\""), s.find("\"chip\""));
  EXPECT_LT(s.find("\"hazards\""), s.find("\"total_cycles\""));
}

TEST_F(BrokenChainReport, TextReport) {
  std::string s = text(r, *prog);
  const uint64_t total = row::kVxmDone - 1 + row::kVxmDone;
  EXPECT_THAT(s, HasSubstr("total cycles:     " + std::to_string(total)));
  // total cycles at 500 MHz, in microseconds.
  std::string us = llvm::formatv("{0:f3} us", double(total) / chip::kClockMHz);
  EXPECT_THAT(s, HasSubstr(us));
  // VXM busy 2 * 2 of 9 cycles = 44.44%.
  std::string util = llvm::formatv(
      "{0:f2}%", 100.0 * double(2 * row::kVxmBusy) / double(total));
  EXPECT_THAT(s, HasSubstr(util));
  EXPECT_THAT(s, HasSubstr("hazards: 2"));
  EXPECT_THAT(s, HasSubstr("cycle " + std::to_string(row::kVxmDone - 1) +
                           " node 0 instruction 1 operand-not-ready: relu "
                           "(origin 'Relu_1'): operand 't'"));
}

TEST(ReportTest, NoHazards) {
  ProgramBuilder b = relusOfX(1, [](int) { return uint64_t(0); });
  std::optional<isa::VerifiedProgram> prog;
  SimResult r;
  ASSERT_TRUE(loadAndSimulate(b, prog, r));
  EXPECT_THAT(text(r, *prog), HasSubstr("hazards: none"));
}

} // namespace
