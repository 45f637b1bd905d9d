//===- GridSampleKernelTest.cpp - The grid_sample kernel ------------------===//
//
// One-instruction programs through the real loader and verifier, on the 2x2
// input X = [[1, 2], [3, 4]] (H = W = 2). Every expected value is worked
// out by hand in the comments.
//
//===----------------------------------------------------------------------===//
#include "TestProgram.h"
#include "lpx/test/Near.h"
#include "lpx/runtime/Runtime.h"

using namespace lpx::rt::test;

namespace {

namespace pb = lpx::isa::pb;
constexpr auto Bilinear = pb::GRID_SAMPLE_BILINEAR;
constexpr auto Nearest = pb::GRID_SAMPLE_NEAREST;
constexpr auto Bicubic = pb::GRID_SAMPLE_BICUBIC;
constexpr auto Zeros = pb::GRID_SAMPLE_ZEROS;
constexpr auto Border = pb::GRID_SAMPLE_BORDER;
constexpr auto Reflection = pb::GRID_SAMPLE_REFLECTION;

/// grid_sample of X at the given (x, y) grid points (a 1 x P grid).
std::vector<float> sample(std::vector<float> grid, pb::GridSampleMode mode,
                          pb::GridSamplePadding padding, bool align) {
  const int64_t points = int64_t(grid.size()) / 2;
  ProgramBuilder b;
  uint32_t x = b.input("x", DType::F32, {1, 1, 2, 2});
  uint32_t g = b.input("g", DType::F32, {1, 1, points, 2});
  uint32_t o = b.output("y", DType::F32, {1, 1, 1, points});
  *b.inst(Opcode::GridSample, {x, g}, o).mutable_attributes() =
      lpx::test::gridSampleAttrs(mode, padding, align);
  auto lp = b.load();
  if (!lp) {
    ADD_FAILURE() << llvm::toString(lp.takeError());
    return {};
  }
  auto out = execute(*lp, {tensor("x", DType::F32, {1, 1, 2, 2}, std::vector<float>{1, 2, 3, 4}),
                           tensor("g", DType::F32, {1, 1, points, 2}, grid)});
  if (!out) {
    ADD_FAILURE() << llvm::toString(out.takeError());
    return {};
  }
  return valuesOf<float>((*out)[0].data);
}

using lpx::test::expectNear;

} // namespace

TEST(GridSampleKernel, BilinearAlignCorners) {
  // align_corners: ix = (x + 1) / 2 * (W - 1). (0, 0) -> (0.5, 0.5): the
  // mean of all four, 2.5. (-1, -1) -> (0, 0): 1. (1, -1) -> (1, 0): 2.
  expectNear(sample({0, 0, -1, -1, 1, -1}, Bilinear, Zeros, 1),
             {2.5f, 1, 2});
}

TEST(GridSampleKernel, BilinearPaddingModes) {
  // Without align_corners: ix = ((x + 1) * W - 1) / 2.
  // (-1, -1) -> (-0.5, -0.5): only tap (0, 0) is inside, weight 0.25:
  //   zeros 0.25; border clamps to (0, 0): 1; reflection mirrors -0.5 about
  //   -0.5 (itself), then clamps to 0: 1.
  // (1.5, -1) -> (2, -0.5): zeros: taps x 2, 3 are outside: 0. border:
  //   (1, 0): 2. reflection: 2 mirrored in [-0.5, 1.5] is 1, -0.5 stays and
  //   clamps to 0: (1, 0): 2.
  expectNear(sample({-1, -1, 1.5f, -1}, Bilinear, Zeros, 0), {0.25f, 0});
  expectNear(sample({-1, -1, 1.5f, -1}, Bilinear, Border, 0), {1, 2});
  expectNear(sample({-1, -1, 1.5f, -1}, Bilinear, Reflection, 0), {1, 2});
}

TEST(GridSampleKernel, NearestRoundsHalfToEven) {
  // align_corners: (0.2, -0.6) -> (0.6, 0.2): tap (1, 0) = 2.
  // (0, 1) -> (0.5, 1): 0.5 rounds to 0: tap (0, 1) = 3.
  // (1, 1) -> (1, 1): 4.
  expectNear(sample({0.2f, -0.6f, 0, 1, 1, 1}, Nearest, Zeros, 1), {2, 3, 4});
}

TEST(GridSampleKernel, Bicubic) {
  // A = -0.75. At an integer position the weights are (0, 1, 0, 0):
  // (-1, -1) with align_corners -> (0, 0): 1.
  // (0, -1) -> (0.5, 0): t = 0.5, x weights w(1.5), w(0.5), w(0.5), w(1.5)
  // with w(0.5) = ((A + 2) 0.5 - (A + 3)) 0.25 + 1 = 0.59375 and
  // w(1.5) = ((1.5 A - 5 A) 1.5 + 8 A) 1.5 - 4 A = -0.09375 (they sum to
  // 1); the taps x = -1, 0, 1, 2 on row 0 read
  //   zeros: 0, 1, 2, 0 -> 0.59375 + 1.1875 = 1.78125;
  //   border: 1, 1, 2, 2 -> -0.09375 + 0.59375 + 1.1875 - 0.1875 = 1.5.
  expectNear(sample({-1, -1, 0, -1}, Bicubic, Zeros, 1), {1, 1.78125f});
  expectNear(sample({0, -1}, Bicubic, Border, 1), {1.5f});
}

TEST(GridSampleKernel, RejectsMismatchedShapes) {
  ProgramBuilder b;
  uint32_t x = b.input("x", DType::F32, {1, 1, 2, 2});
  uint32_t g = b.input("g", DType::F32, {1, 1, 3, 2});
  uint32_t o = b.output("y", DType::F32, {1, 1, 1, 2}); // should be 1x1x1x3
  b.inst(Opcode::GridSample, {x, g}, o, {0, 0, 0});
  auto lp = b.load();
  if (!lp) {
    llvm::consumeError(lp.takeError());
    return; // the verifier caught it: fine too
  }
  auto out = execute(*lp, {tensor("x", DType::F32, {1, 1, 2, 2}, std::vector<float>{1, 2, 3, 4}),
                           tensor("g", DType::F32, {1, 1, 3, 2},
                                  std::vector<float>{0, 0, 0, 0, 0, 0})});
  ASSERT_FALSE(bool(out));
  EXPECT_NE(llvm::toString(out.takeError()).find("grid_sample"),
            std::string::npos);
}
