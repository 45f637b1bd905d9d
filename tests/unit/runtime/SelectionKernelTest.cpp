//===- SelectionKernelTest.cpp - TopK and the scatter kernels -------------===//
//
// One-instruction programs through the real loader and verifier. Every
// expected value is worked out by hand in the comments.
//
//===----------------------------------------------------------------------===//
#include "TestProgram.h"
#include "lpx/runtime/Runtime.h"
#include <cmath>
#include <limits>

using namespace lpx::rt::test;

namespace {

/// top_k of an f32 tensor: the i64 indices.
std::vector<int64_t> topK(std::vector<int64_t> shape, std::vector<float> x,
                          std::vector<int64_t> outShape,
                          std::vector<int64_t> attrs) {
  ProgramBuilder b;
  uint32_t in = b.input("x", DType::F32, shape);
  uint32_t o = b.output("i", DType::I64, outShape);
  b.inst(Opcode::TopK, {in}, o, attrs);
  auto out = runProgram(b, {tensor("x", DType::F32, shape, x)});
  return out.empty() ? std::vector<int64_t>{} : valuesOf<int64_t>(out[0].data);
}

} // namespace

TEST(TopKKernel, LargestAndSmallestAlongLastAxis) {
  // Rows [3 1 4 1], [5 9 2 6]. Largest 2: row 0 -> 4 (2), 3 (0); row 1 ->
  // 9 (1), 6 (3).
  std::vector<float> x = {3, 1, 4, 1, 5, 9, 2, 6};
  EXPECT_EQ(topK({2, 4}, x, {2, 2}, {1, 2, 1, 1}),
            (std::vector<int64_t>{2, 0, 1, 3}));
  // Smallest 3: row 0 -> 1 (1), 1 (3: the tie keeps the lower index first),
  // 3 (0); row 1 -> 2 (2), 5 (0), 6 (3).
  EXPECT_EQ(topK({2, 4}, x, {2, 3}, {1, 3, 0, 1}),
            (std::vector<int64_t>{1, 3, 0, 2, 0, 3}));
}

TEST(TopKKernel, TiesNaNAndInnerAxis) {
  // Along axis 0 of a 3x2 tensor: columns [7 7 1] and [2 NaN 8].
  // Largest 2: column 0 -> 7 (0), 7 (1) (tie: lower index first);
  // column 1 -> NaN ranks above every number: 1, then 8 (2).
  float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> x = {7, 2, 7, nan, 1, 8};
  // Result [2, 2] row-major: [k=0: col0, col1], [k=1: col0, col1].
  EXPECT_EQ(topK({3, 2}, x, {2, 2}, {0, 2, 1, 1}),
            (std::vector<int64_t>{0, 1, 1, 2}));
  // Smallest 1: column 0 -> 1 (2); column 1 -> 2 (0), NaN last.
  EXPECT_EQ(topK({3, 2}, x, {1, 2}, {0, 1, 0, 1}),
            (std::vector<int64_t>{2, 0}));
}

TEST(TopKKernel, IntegerInputAndVerifierLimits) {
  ProgramBuilder b;
  uint32_t in = b.input("x", DType::I32, {5});
  uint32_t o = b.output("i", DType::I64, {3});
  b.inst(Opcode::TopK, {in}, o, {0, 3, 1, 1});
  // [-4 10 3 10 -7]: 10 (1), 10 (3), 3 (2).
  auto out = runProgram(
      b, {tensor("x", DType::I32, {5}, std::vector<int32_t>{-4, 10, 3, 10, -7})});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(valuesOf<int64_t>(out[0].data), (std::vector<int64_t>{1, 3, 2}));

  // k larger than the axis is rejected when the program is loaded.
  ProgramBuilder bad;
  uint32_t bx = bad.input("x", DType::F32, {2});
  uint32_t bo = bad.output("i", DType::I64, {3});
  bad.inst(Opcode::TopK, {bx}, bo, {0, 3, 1, 1});
  std::string error;
  runProgram(bad, {tensor("x", DType::F32, {2}, std::vector<float>{1, 2})},
             &error);
  EXPECT_NE(error.find("top_k): k must be in [1, 2]"), std::string::npos)
      << error;
}

namespace {
std::vector<float> scatterElements(std::vector<int64_t> ds,
                                   std::vector<float> data,
                                   std::vector<int64_t> is,
                                   std::vector<int64_t> idx,
                                   std::vector<float> upd,
                                   std::vector<int64_t> attrs,
                                   std::string *error = nullptr) {
  ProgramBuilder b;
  uint32_t d = b.input("d", DType::F32, ds);
  uint32_t i = b.input("i", DType::I64, is);
  uint32_t u = b.input("u", DType::F32, is);
  uint32_t o = b.output("o", DType::F32, ds);
  b.inst(Opcode::ScatterElements, {d, i, u}, o, attrs);
  auto out = runProgram(b,
                        {tensor("d", DType::F32, ds, data),
                         tensor("i", DType::I64, is, idx),
                         tensor("u", DType::F32, is, upd)},
                        error);
  return out.empty() ? std::vector<float>{} : valuesOf<float>(out[0].data);
}
} // namespace

TEST(ScatterElementsKernel, AxesAndReductions) {
  // data [1 2 3 4 5], updates 10, 20 at columns 1 and -1 (= 4).
  std::vector<float> d = {1, 2, 3, 4, 5};
  EXPECT_EQ(scatterElements({1, 5}, d, {1, 2}, {1, -1}, {10, 20}, {1, 0}),
            (std::vector<float>{1, 10, 3, 4, 20}));
  // Both updates at column 1: add gives 2 + 10 + 20 = 32, mul 2 * 10 * 20 =
  // 400, max 20, min 2.
  EXPECT_EQ(scatterElements({1, 5}, d, {1, 2}, {1, 1}, {10, 20}, {1, 1}),
            (std::vector<float>{1, 32, 3, 4, 5}));
  EXPECT_EQ(scatterElements({1, 5}, d, {1, 2}, {1, 1}, {10, 20}, {1, 2}),
            (std::vector<float>{1, 400, 3, 4, 5}));
  EXPECT_EQ(scatterElements({1, 5}, d, {1, 2}, {1, 1}, {10, 20}, {1, 3}),
            (std::vector<float>{1, 20, 3, 4, 5}));
  EXPECT_EQ(scatterElements({1, 5}, d, {1, 2}, {1, 1}, {10, 20}, {1, 4}),
            (std::vector<float>{1, 2, 3, 4, 5}));
  // Axis 0 of a 3x3 zero matrix with indices [[1 0 2] [0 2 1]] and updates
  // [[1 2 3] [4 5 6]]: element (r, c) of the updates goes to row idx[r][c],
  // column c: (1,0)=1 (0,1)=2 (2,2)=3 (0,0)=4 (2,1)=5 (1,2)=6.
  std::vector<float> z(9, 0);
  EXPECT_EQ(scatterElements({3, 3}, z, {2, 3}, {1, 0, 2, 0, 2, 1},
                            {1, 2, 3, 4, 5, 6}, {0, 0}),
            (std::vector<float>{4, 2, 0, 1, 0, 6, 0, 5, 3}));
  std::string error;
  scatterElements({1, 5}, d, {1, 2}, {1, 5}, {10, 20}, {1, 0}, &error);
  EXPECT_NE(error.find("scatter_elements index 5 out of range"),
            std::string::npos)
      << error;
}

TEST(ScatterNDKernel, SlicesAndElements) {
  // data 3x2 [[1 2] [3 4] [5 6]], rows 2 and -3 (= 0) replaced by [7 8] and
  // [9 10].
  auto run = [](std::vector<int64_t> ds, std::vector<float> data,
                std::vector<int64_t> is, std::vector<int64_t> idx,
                std::vector<int64_t> us, std::vector<float> upd,
                int64_t reduction) {
    ProgramBuilder b;
    uint32_t d = b.input("d", DType::F32, ds);
    uint32_t i = b.input("i", DType::I64, is);
    uint32_t u = b.input("u", DType::F32, us);
    uint32_t o = b.output("o", DType::F32, ds);
    b.inst(Opcode::ScatterND, {d, i, u}, o, {reduction});
    auto out = runProgram(b, {tensor("d", DType::F32, ds, data),
                              tensor("i", DType::I64, is, idx),
                              tensor("u", DType::F32, us, upd)});
    return out.empty() ? std::vector<float>{} : valuesOf<float>(out[0].data);
  };
  std::vector<float> d = {1, 2, 3, 4, 5, 6};
  EXPECT_EQ(run({3, 2}, d, {2, 1}, {2, -3}, {2, 2}, {7, 8, 9, 10}, 0),
            (std::vector<float>{9, 10, 3, 4, 7, 8}));
  // Full index tuples (k = rank): elements (1, 0) and (1, 0) again with
  // add: 3 + 10 + 20 = 33; with mul: 3 * 10 * 20 = 600.
  EXPECT_EQ(run({3, 2}, d, {2, 2}, {1, 0, 1, 0}, {2}, {10, 20}, 1),
            (std::vector<float>{1, 2, 33, 4, 5, 6}));
  EXPECT_EQ(run({3, 2}, d, {2, 2}, {1, 0, 1, 0}, {2}, {10, 20}, 2),
            (std::vector<float>{1, 2, 600, 4, 5, 6}));
}
