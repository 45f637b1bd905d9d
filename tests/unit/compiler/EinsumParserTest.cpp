//===- EinsumParserTest.cpp - Einsum equations to per-dimension labels ----===//
#include "Einsum.h"

#include <gtest/gtest.h>

using namespace lpx::onnximport;

namespace {

constexpr int E = kEllipsisLabel;

using Labels = std::vector<int>;

EinsumEquation parse(const char *eq, std::vector<int64_t> ranks) {
  auto r = parseEinsumEquation(eq, ranks);
  if (!r) {
    ADD_FAILURE() << eq << ": " << llvm::toString(r.takeError());
    return {};
  }
  return *r;
}

std::string error(const char *eq, std::vector<int64_t> ranks) {
  auto r = parseEinsumEquation(eq, ranks);
  if (r)
    return "(parsed)";
  return llvm::toString(r.takeError());
}

TEST(EinsumParser, ExplicitOutput) {
  EinsumEquation e = parse("bij, bjk -> bik", {3, 3});
  ASSERT_EQ(e.inputs.size(), 2u);
  EXPECT_EQ(e.inputs[0], (Labels{'b', 'i', 'j'}));
  EXPECT_EQ(e.inputs[1], (Labels{'b', 'j', 'k'}));
  EXPECT_EQ(e.output, (Labels{'b', 'i', 'k'}));

  e = parse("ij->ji", {2});
  EXPECT_EQ(e.inputs[0], (Labels{'i', 'j'}));
  EXPECT_EQ(e.output, (Labels{'j', 'i'}));

  // An empty explicit output is a full reduction.
  e = parse("ij->", {2});
  EXPECT_EQ(e.output, Labels{});
}

TEST(EinsumParser, ImplicitOutputIsSortedSingleUseLabels) {
  // "i,i": i is used twice, so the output is a scalar.
  EinsumEquation e = parse("i,i", {1, 1});
  EXPECT_EQ(e.output, Labels{});
  // "ba,ac": b and c once each, sorted by character code; a is contracted.
  e = parse("ba,ac", {2, 2});
  EXPECT_EQ(e.output, (Labels{'b', 'c'}));
  // Upper case sorts before lower case (character codes).
  e = parse("aB", {2});
  EXPECT_EQ(e.output, (Labels{'B', 'a'}));
  // A repeated label in one term is used twice: "ii" is the trace.
  e = parse("ii", {2});
  EXPECT_EQ(e.inputs[0], (Labels{'i', 'i'}));
  EXPECT_EQ(e.output, Labels{});
}

TEST(EinsumParser, EllipsisDimsAreRightAligned) {
  // "...ii->...i" on rank 3: one ellipsis dim.
  EinsumEquation e = parse("...ii ->...i", {3});
  EXPECT_EQ(e.inputs[0], (Labels{E, 'i', 'i'}));
  EXPECT_EQ(e.output, (Labels{E, 'i'}));
  // Ellipses of 2 and 1 dims: the single one is the rightmost (E + 1).
  e = parse("...ij,...jk", {4, 3});
  EXPECT_EQ(e.inputs[0], (Labels{E, E + 1, 'i', 'j'}));
  EXPECT_EQ(e.inputs[1], (Labels{E + 1, 'j', 'k'}));
  // Implicit output: the ellipsis dims first, then i and k.
  EXPECT_EQ(e.output, (Labels{E, E + 1, 'i', 'k'}));
  // An ellipsis in the middle, standing for no dims.
  e = parse("i...j->ji", {2});
  EXPECT_EQ(e.inputs[0], (Labels{'i', 'j'}));
  EXPECT_EQ(e.output, (Labels{'j', 'i'}));
}

TEST(EinsumParser, Errors) {
  EXPECT_NE(error("ij,jk->ik", {2}).find("2 input terms for 1 operands"),
            std::string::npos);
  EXPECT_NE(error("ij->i", {3}).find("term 'ij' has 2 labels for operand 0 "
                                     "of rank 3"),
            std::string::npos);
  EXPECT_NE(error("...ijk", {2}).find("3 labels for operand 0 of rank 2"),
            std::string::npos);
  EXPECT_NE(error("i1->i", {2}).find("'1' is not a label"), std::string::npos);
  EXPECT_NE(error("......i", {3}).find("more than one '...'"),
            std::string::npos);
  EXPECT_NE(error("ij->ik", {2}).find("output label 'k' is in no input term"),
            std::string::npos);
  EXPECT_NE(error("ij->ii", {2}).find("output label 'i' repeats"),
            std::string::npos);
  EXPECT_NE(error("i->i->i", {1}).find("more than one '->'"),
            std::string::npos);
}

} // namespace
