//===- DetKernelTest.cpp - The det kernel ---------------------------------===//
//
// One-instruction programs through the real loader and verifier. Every
// expected value is worked out by hand in the comments.
//
//===----------------------------------------------------------------------===//
#include "TestProgram.h"
#include "lpx/runtime/Runtime.h"

using namespace lpx::rt::test;

namespace {

std::vector<double> det(std::vector<int64_t> shape, std::vector<double> x) {
  std::vector<int64_t> outShape(shape.begin(), shape.end() - 2);
  ProgramBuilder b;
  uint32_t in = b.input("x", DType::F64, shape);
  uint32_t o = b.output("d", DType::F64, outShape);
  b.inst(Opcode::Det, {in}, o, {});
  auto lp = b.load();
  if (!lp) {
    ADD_FAILURE() << llvm::toString(lp.takeError());
    return {};
  }
  auto out = execute(*lp, {tensor("x", DType::F64, shape, x)});
  if (!out) {
    ADD_FAILURE() << llvm::toString(out.takeError());
    return {};
  }
  return valuesOf<double>((*out)[0].data);
}

} // namespace

TEST(DetKernel, TwoByTwoBatch) {
  // [[1, 2], [3, 4]]: 1*4 - 2*3 = -2. [[0, 1], [1, 0]]: a zero first pivot
  // (elimination without pivoting would divide by 0): 0*0 - 1*1 = -1.
  // [[2, 4], [1, 2]]: singular, 2*2 - 4*1 = 0.
  EXPECT_EQ(det({3, 2, 2}, {1, 2, 3, 4, 0, 1, 1, 0, 2, 4, 1, 2}),
            (std::vector<double>{-2, -1, 0}));
}

TEST(DetKernel, ThreeByThreeAndScalarResult) {
  // diag(2, 3, 4) = 24. [[0, 2, 1], [1, 0, 0], [0, 0, 3]] by the first
  // row: -2 * (1*3 - 0*0) + 1 * (1*0 - 0*0) = -6.
  EXPECT_EQ(det({3, 3}, {2, 0, 0, 0, 3, 0, 0, 0, 4}),
            (std::vector<double>{24}));
  EXPECT_EQ(det({3, 3}, {0, 2, 1, 1, 0, 0, 0, 0, 3}),
            (std::vector<double>{-6}));
}

TEST(DetKernel, ZeroPivotsEverywhereNeedRowSwaps) {
  // The 4x4 anti-diagonal permutation swaps rows 1<->4 and 2<->3: two
  // transpositions, determinant +1; every leading entry is 0, so each step
  // must pick another row. Scaled by 2 in one row: 2.
  EXPECT_EQ(det({4, 4}, {0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0}),
            (std::vector<double>{1}));
  EXPECT_EQ(det({4, 4}, {0, 0, 0, 2, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0}),
            (std::vector<double>{2}));
}
