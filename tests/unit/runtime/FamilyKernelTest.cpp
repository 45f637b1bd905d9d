//===- FamilyKernelTest.cpp - Generic unary/binary/reduce kernels ---------===//
//
// The function-table opcodes (ElementwiseFunctions.def) and the data-movement
// opcodes added with them, on one-instruction programs. Every expected value
// is worked out by hand.
//
//===----------------------------------------------------------------------===//
#include "TestProgram.h"
#include "lpx/test/Near.h"
#include "lpx/isa/ElementwiseFunctions.h"
#include "lpx/runtime/Runtime.h"
#include "llvm/ADT/bit.h"
#include <cmath>

using namespace lpx::rt::test;

namespace {

int64_t bits(double v) { return int64_t(llvm::bit_cast<uint64_t>(v)); }
int64_t fnId(isa::UnaryFn f) { return int64_t(f); }
int64_t fnId(isa::BinaryFn f) { return int64_t(f); }
int64_t fnId(isa::ReduceFn f) { return int64_t(f); }

/// One instruction with one input `x` of `shape` and one output.
template <typename Out, typename In>
std::vector<Out> runOne(Opcode op, DType tin, std::vector<int64_t> shape,
                        std::vector<In> in, DType tout,
                        std::vector<int64_t> outShape,
                        std::vector<int64_t> attrs) {
  ProgramBuilder b;
  uint32_t x = b.input("x", tin, shape);
  uint32_t o = b.output("out", tout, outShape);
  b.inst(op, {x}, o, attrs);
  auto out = runProgram(b, {tensor("x", tin, shape, in)});
  return out.empty() ? std::vector<Out>{} : valuesOf<Out>(out[0].data);
}

/// One binary-function instruction on inputs `a` and `b` of one length and
/// type `t`; the result's values.
template <typename T>
std::vector<T> binaryFn(isa::BinaryFn fn, DType t, std::vector<T> a,
                        std::vector<T> b) {
  int64_t n = a.size();
  ProgramBuilder pb;
  uint32_t x = pb.input("a", t, {n});
  uint32_t y = pb.input("b", t, {n});
  uint32_t o = pb.output("out", t, {n});
  pb.inst(Opcode::Binary, {x, y}, o, {fnId(fn)});
  auto out = runProgram(pb, {tensor("a", t, {n}, a), tensor("b", t, {n}, b)});
  return out.empty() ? std::vector<T>{} : valuesOf<T>(out[0].data);
}

using lpx::test::expectNear;

std::vector<float> unaryF32(isa::UnaryFn fn, std::vector<float> in,
                            std::vector<double> params = {}) {
  std::vector<int64_t> attrs{fnId(fn)};
  for (double p : params)
    attrs.push_back(bits(p));
  int64_t n = in.size();
  return runOne<float>(Opcode::Unary, DType::F32, {n}, in, DType::F32, {n},
                       attrs);
}

} // namespace

TEST(UnaryFamily, RoundingAndSign) {
  using isa::UnaryFn;
  // Round is half to even: 0.5 -> 0, 1.5 -> 2, 2.5 -> 2, -0.5 -> -0.
  EXPECT_EQ(unaryF32(UnaryFn::Round, {0.5f, 1.5f, 2.5f, -0.5f, 1.2f}),
            (std::vector<float>{0, 2, 2, -0.f, 1}));
  EXPECT_EQ(unaryF32(UnaryFn::Ceil, {1.2f, -1.2f}), (std::vector<float>{2, -1}));
  EXPECT_EQ(unaryF32(UnaryFn::Floor, {1.2f, -1.2f}), (std::vector<float>{1, -2}));
  EXPECT_EQ(unaryF32(UnaryFn::Sign, {-3, 0, 2}), (std::vector<float>{-1, 0, 1}));
  EXPECT_EQ(unaryF32(UnaryFn::Abs, {-3, 2}), (std::vector<float>{3, 2}));
  EXPECT_EQ(unaryF32(UnaryFn::Reciprocal, {4, -0.5f}),
            (std::vector<float>{0.25f, -2}));
}

TEST(UnaryFamily, ActivationsWithParameters) {
  using isa::UnaryFn;
  // elu(-ln 2) = alpha * (1/2 - 1) = -1 for alpha 2; positive values pass.
  expectNear(unaryF32(UnaryFn::Elu, {-std::log(2.0f), 3}, {2.0}), {-1, 3});
  // leaky_relu with alpha 0.1: -5 -> -0.5.
  expectNear(unaryF32(UnaryFn::LeakyRelu, {-5, 5}, {0.1}), {-0.5f, 5});
  // hard_sigmoid(x) = clamp(0.2x + 0.5, 0, 1): -5 -> 0, 0 -> 0.5, 1 -> 0.7.
  expectNear(unaryF32(UnaryFn::HardSigmoid, {-5, 0, 1}, {0.2, 0.5}),
             {0, 0.5f, 0.7f});
  // thresholded_relu alpha 1: 1 is not above the threshold.
  expectNear(unaryF32(UnaryFn::ThresholdedRelu, {1, 1.5f}, {1.0}), {0, 1.5f});
  // shrink bias 1 lambd 2: -3 -> -2, 1 -> 0, 3 -> 2.
  expectNear(unaryF32(UnaryFn::Shrink, {-3, 1, 3}, {1.0, 2.0}), {-2, 0, 2});
  // softsign(3) = 3/4.
  expectNear(unaryF32(UnaryFn::Softsign, {3, -1}), {0.75f, -0.5f});
}

TEST(UnaryFamily, TestsGiveBoolAndClipWorksOnIntegers) {
  using isa::UnaryFn;
  const float inf = INFINITY;
  // isinf detecting only +inf.
  auto r = runOne<uint8_t>(Opcode::Unary, DType::F32, {3},
                           std::vector<float>{inf, -inf, 1}, DType::Bool, {3},
                           {fnId(UnaryFn::IsInf), bits(1), bits(0)});
  EXPECT_EQ(r, (std::vector<uint8_t>{1, 0, 0}));
  auto c = runOne<int32_t>(Opcode::Unary, DType::I32, {4},
                           std::vector<int32_t>{-7, -1, 3, 9}, DType::I32, {4},
                           {fnId(UnaryFn::Clip), bits(-2), bits(5)});
  EXPECT_EQ(c, (std::vector<int32_t>{-2, -1, 3, 5}));
}

TEST(UnaryFamily, QuantizeAndDequantizeChangeTheType) {
  using isa::UnaryFn;
  // quantize, pre 1, scale 0.5, zero point 3, to [-128, 127]: 1.25 / 0.5 =
  // 2.5 rounds to even 2, + 3 = 5; -0.75 / 0.5 = -1.5 -> -2, + 3 = 1;
  // 100 -> 203 saturates to 127.
  auto q = runOne<int8_t>(Opcode::Unary, DType::F32, {3},
                          std::vector<float>{1.25f, -0.75f, 100}, DType::I8,
                          {3},
                          {fnId(UnaryFn::Quantize), bits(1), bits(0.5), bits(3),
                           bits(-128), bits(127)});
  EXPECT_EQ(q, (std::vector<int8_t>{5, 1, 127}));
  // An int32 accumulator: f32(acc) * pre 0.25 / scale 2, floor 0 (a Relu
  // folded in): 20 -> 5 / 2 = 2.5 -> 2; -40 -> -5 -> 0; 52 -> 6.5 -> 6.
  auto r = runOne<int8_t>(Opcode::Unary, DType::I32, {3},
                          std::vector<int32_t>{20, -40, 52}, DType::I8, {3},
                          {fnId(UnaryFn::Quantize), bits(0.25), bits(2), bits(0),
                           bits(0), bits(127)});
  EXPECT_EQ(r, (std::vector<int8_t>{2, 0, 6}));
  // dequantize, scale 0.5, zero point -2: (x + 2) * 0.5.
  auto d = runOne<float>(Opcode::Unary, DType::I32, {3},
                         std::vector<int32_t>{-2, 0, 7}, DType::F32, {3},
                         {fnId(UnaryFn::Dequantize), bits(0.5), bits(-2)});
  EXPECT_EQ(d, (std::vector<float>{0, 1, 4.5f}));
}

TEST(BinaryFamily, ModFollowsTheDivisorAndFmodTheDividend) {
  using isa::BinaryFn;
  auto mod = [](BinaryFn fn, std::vector<int32_t> a, std::vector<int32_t> b) {
    return binaryFn(fn, DType::I32, a, b);
  };
  // -7 mod 3 = 2 (python), fmod = -1 (C); 7 mod -3 = -2, fmod = 1.
  EXPECT_EQ(mod(BinaryFn::Mod, {-7, 7, 6}, {3, -3, 3}),
            (std::vector<int32_t>{2, -2, 0}));
  EXPECT_EQ(mod(BinaryFn::Fmod, {-7, 7, 6}, {3, -3, 3}),
            (std::vector<int32_t>{-1, 1, 0}));
  EXPECT_EQ(mod(BinaryFn::Max, {-7, 7}, {3, -3}), (std::vector<int32_t>{3, 7}));
}

TEST(BinaryFamily, ComparisonsBroadcastAndGiveBool) {
  ProgramBuilder pb;
  uint32_t x = pb.input("a", DType::F32, {2, 2});
  uint32_t y = pb.input("b", DType::F32, {2});
  uint32_t o = pb.output("out", DType::Bool, {2, 2});
  pb.inst(Opcode::Binary, {x, y}, o, {fnId(isa::BinaryFn::LessEqual)});
  auto out = runProgram(
      pb, {tensor("a", DType::F32, {2, 2}, std::vector<float>{1, 5, 3, 2}),
           tensor("b", DType::F32, {2}, std::vector<float>{2, 2})});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(valuesOf<uint8_t>(out[0].data), (std::vector<uint8_t>{1, 0, 0, 1}));
}

TEST(BinaryFamily, ShiftsAndLogic) {
  auto shift = [](isa::BinaryFn fn) {
    return binaryFn<uint8_t>(fn, DType::U8, {16, 3}, {1, 7});
  };
  // 16 << 1 = 32; 3 << 7 = 384 wraps to 128 in u8.
  EXPECT_EQ(shift(isa::BinaryFn::ShiftLeft), (std::vector<uint8_t>{32, 128}));
  EXPECT_EQ(shift(isa::BinaryFn::ShiftRight), (std::vector<uint8_t>{8, 0}));
}

TEST(BinaryFamily, BitwiseOnIntegers) {
  auto bitwise = [](isa::BinaryFn fn) {
    return binaryFn<int32_t>(fn, DType::I32, {12, -8, 5}, {10, 9, -1});
  };
  // 12 = 0b1100, 10 = 0b1010; -8 = ...11000, 9 = 0b01001; -1 is all ones.
  EXPECT_EQ(bitwise(isa::BinaryFn::BitwiseAnd), (std::vector<int32_t>{8, 8, 5}));
  EXPECT_EQ(bitwise(isa::BinaryFn::BitwiseOr), (std::vector<int32_t>{14, -7, -1}));
  EXPECT_EQ(bitwise(isa::BinaryFn::BitwiseXor), (std::vector<int32_t>{6, -15, -6}));
  auto n = runOne<uint8_t>(Opcode::Unary, DType::U8, {3},
                           std::vector<uint8_t>{0, 1, 200}, DType::U8, {3},
                           {fnId(isa::UnaryFn::BitwiseNot)});
  EXPECT_EQ(n, (std::vector<uint8_t>{255, 254, 55}));
}

TEST(ReduceFamily, KindsOverOneAxis) {
  using isa::ReduceFn;
  std::vector<float> x = {1, 2, 3, 4, 5, 6}; // [[1 2 3],[4 5 6]]
  auto red = [&](ReduceFn fn, int64_t axis, std::vector<int64_t> shape) {
    return runOne<float>(Opcode::Reduce, DType::F32, {2, 3}, x, DType::F32,
                         shape, {fnId(fn), axis});
  };
  EXPECT_EQ(red(ReduceFn::Sum, 1, {2}), (std::vector<float>{6, 15}));
  EXPECT_EQ(red(ReduceFn::Max, 0, {1, 3}), (std::vector<float>{4, 5, 6}));
  EXPECT_EQ(red(ReduceFn::Min, 1, {2, 1}), (std::vector<float>{1, 4}));
  EXPECT_EQ(red(ReduceFn::Prod, 1, {2}), (std::vector<float>{6, 120}));
  EXPECT_EQ(red(ReduceFn::SumSquare, 1, {2}), (std::vector<float>{14, 77}));
  // l2 of [3 4] = 5, via the rows [1 2 3] -> sqrt 14.
  expectNear(red(ReduceFn::L2, 1, {2}), {std::sqrt(14.0f), std::sqrt(77.0f)});
  // log_sum_exp of [1 2 3] = 3 + ln(1 + e^-1 + e^-2).
  expectNear(red(ReduceFn::LogSumExp, 1, {2}),
             {3 + std::log(1 + std::exp(-1.0f) + std::exp(-2.0f)),
              6 + std::log(1 + std::exp(-1.0f) + std::exp(-2.0f))},
             1e-5f);
}

TEST(ReduceFamily, ArgMaxFirstOrLastTie) {
  std::vector<float> x = {1, 3, 3, 0}; // ties at 1 and 2
  auto arg = [&](int64_t fn, int64_t last) {
    return runOne<int64_t>(Opcode::ArgReduce, DType::F32, {4}, x, DType::I64,
                           {1}, {fn, 0, last});
  };
  EXPECT_EQ(arg(int64_t(isa::ArgReduceFn::ArgMax), 0), (std::vector<int64_t>{1}));
  EXPECT_EQ(arg(int64_t(isa::ArgReduceFn::ArgMax), 1), (std::vector<int64_t>{2}));
  EXPECT_EQ(arg(int64_t(isa::ArgReduceFn::ArgMin), 0), (std::vector<int64_t>{3}));
}

TEST(AxisOps, LogSoftmaxHardmaxCumSum) {
  // log_softmax of [0, ln 3]: softmax is [1/4, 3/4].
  expectNear(runOne<float>(Opcode::LogSoftmax, DType::F32, {2},
                           std::vector<float>{0, std::log(3.0f)}, DType::F32,
                           {2}, {0}),
             {std::log(0.25f), std::log(0.75f)}, 1e-6f);
  EXPECT_EQ(runOne<float>(Opcode::Hardmax, DType::F32, {2, 2},
                          std::vector<float>{1, 2, 5, 5}, DType::F32, {2, 2},
                          {1}),
            (std::vector<float>{0, 1, 1, 0}));
  std::vector<float> x = {1, 2, 3};
  EXPECT_EQ(runOne<float>(Opcode::CumSum, DType::F32, {3}, x, DType::F32, {3},
                          {0, 0, 0}),
            (std::vector<float>{1, 3, 6}));
  EXPECT_EQ(runOne<float>(Opcode::CumSum, DType::F32, {3}, x, DType::F32, {3},
                          {0, 1, 1}),
            (std::vector<float>{5, 3, 0}));
}

TEST(DataMovementFamily, BroadcastPadGatherElements) {
  EXPECT_EQ(runOne<float>(Opcode::Broadcast, DType::F32, {2, 1},
                          std::vector<float>{1, 2}, DType::F32, {2, 3}, {}),
            (std::vector<float>{1, 1, 1, 2, 2, 2}));
  std::vector<float> x = {1, 2, 3};
  // [1 2 3] padded 2 before and 1 after.
  EXPECT_EQ(runOne<float>(Opcode::Pad, DType::F32, {3}, x, DType::F32, {6},
                          {0, bits(9), 2, 1}),
            (std::vector<float>{9, 9, 1, 2, 3, 9}));
  EXPECT_EQ(runOne<float>(Opcode::Pad, DType::F32, {3}, x, DType::F32, {6},
                          {1, 0, 2, 1}),
            (std::vector<float>{3, 2, 1, 2, 3, 2}));
  EXPECT_EQ(runOne<float>(Opcode::Pad, DType::F32, {3}, x, DType::F32, {6},
                          {2, 0, 2, 1}),
            (std::vector<float>{1, 1, 1, 2, 3, 3}));
  // Negative pads crop.
  EXPECT_EQ(runOne<float>(Opcode::Pad, DType::F32, {3}, x, DType::F32, {1},
                          {0, 0, -1, -1}),
            (std::vector<float>{2}));

  ProgramBuilder pb;
  uint32_t d = pb.input("d", DType::F32, {2, 2});
  uint32_t i = pb.input("i", DType::I64, {2, 2});
  uint32_t o = pb.output("out", DType::F32, {2, 2});
  pb.inst(Opcode::GatherElements, {d, i}, o, {1});
  auto out = runProgram(
      pb, {tensor("d", DType::F32, {2, 2}, std::vector<float>{1, 2, 3, 4}),
           tensor("i", DType::I64, {2, 2}, std::vector<int64_t>{0, 0, 1, -2})});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(valuesOf<float>(out[0].data), (std::vector<float>{1, 1, 4, 3}));
}

namespace {
} // namespace

TEST(ConvKernel, BiasPaddingStridesGroups) {
  std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8, 9}; // 3x3
  // Diagonal 2x2 kernel: x[i][j] + x[i+1][j+1], plus bias 10.
  EXPECT_EQ(runConvF32(Opcode::Conv, {1, 1, 3, 3}, x, {1, 1, 2, 2},
                       {1, 0, 0, 1}, {10}, {1, 1, 2, 2},
                       {1, 1, 1, 1, 1, 0, 0, 0, 0}),
            (std::vector<float>{16, 18, 22, 24}));
  // All-ones 2x2 kernel, stride 2, one pad on every side: windows at rows
  // and cols {-1, 1}: 1, 2+3, 4+7, 5+6+8+9.
  EXPECT_EQ(runConvF32(Opcode::Conv, {1, 1, 3, 3}, x, {1, 1, 2, 2},
                       {1, 1, 1, 1}, {}, {1, 1, 2, 2},
                       {1, 2, 2, 1, 1, 1, 1, 1, 1}),
            (std::vector<float>{1, 5, 11, 28}));
  // Two groups of one channel each: 3*2, 5*10.
  EXPECT_EQ(runConvF32(Opcode::Conv, {1, 2, 1, 1}, {3, 5}, {2, 1, 1, 1},
                       {2, 10}, {}, {1, 2, 1, 1}, {2, 1, 1, 1, 1, 0, 0, 0, 0}),
            (std::vector<float>{6, 50}));
  // 1-D, dilation 2: x[i] + x[i+2] over [1 2 3 4].
  EXPECT_EQ(runConvF32(Opcode::Conv, {1, 1, 4}, {1, 2, 3, 4}, {1, 1, 2}, {1, 1},
                       {}, {1, 1, 2}, {1, 1, 2, 0, 0}),
            (std::vector<float>{4, 6}));
}

namespace {
/// Integer conv: x and w of type `tin`, optional int32 bias, int32 result.
template <typename In>
std::vector<int32_t> convInt(DType tin, std::vector<int64_t> xs,
                             std::vector<In> x, std::vector<int64_t> ws,
                             std::vector<In> w, std::vector<int32_t> bias,
                             std::vector<int64_t> os,
                             std::vector<int64_t> attrs) {
  ProgramBuilder pb;
  uint32_t xi = pb.input("x", tin, xs);
  uint32_t wi = pb.input("w", tin, ws);
  std::vector<uint32_t> ops{xi, wi};
  std::vector<HostTensor> in{tensor("x", tin, xs, x), tensor("w", tin, ws, w)};
  if (!bias.empty()) {
    int64_t m = bias.size();
    ops.push_back(pb.input("b", DType::I32, {m}));
    in.push_back(tensor("b", DType::I32, {m}, bias));
  }
  uint32_t o = pb.output("out", DType::I32, os);
  pb.inst(Opcode::Conv, ops, o, attrs);
  auto out = runProgram(pb, in);
  return out.empty() ? std::vector<int32_t>{} : valuesOf<int32_t>(out[0].data);
}
} // namespace

TEST(ConvKernel, Int32AndInt8IntoInt32) {
  const std::vector<int64_t> valid2d{1, 1, 1, 1, 1, 0, 0, 0, 0};
  // int32: 2x2 window sums of 1..9 (3x3): 1+2+4+5, 2+3+5+6, 4+5+7+8,
  // 5+6+8+9; then the same with bias -12.
  std::vector<int32_t> x = {1, 2, 3, 4, 5, 6, 7, 8, 9}, ones = {1, 1, 1, 1};
  EXPECT_EQ(convInt<int32_t>(DType::I32, {1, 1, 3, 3}, x, {1, 1, 2, 2}, ones,
                             {}, {1, 1, 2, 2}, valid2d),
            (std::vector<int32_t>{12, 16, 24, 28}));
  EXPECT_EQ(convInt<int32_t>(DType::I32, {1, 1, 3, 3}, x, {1, 1, 2, 2}, ones,
                             {-12}, {1, 1, 2, 2}, valid2d),
            (std::vector<int32_t>{0, 4, 12, 16}));
  // int8 operands into int32: (-128)(-128) * 2 = 32768, plus bias 1.
  EXPECT_EQ(convInt<int8_t>(DType::I8, {1, 1, 1, 2}, {-128, -128},
                            {1, 1, 1, 2}, {-128, -128}, {1}, {1, 1, 1, 1},
                            valid2d),
            (std::vector<int32_t>{32769}));
  // int32 sums wrap like the matrix unit's accumulator: 65536 * 65536 =
  // 2^32 -> 0, plus 7 * 2.
  EXPECT_EQ(convInt<int32_t>(DType::I32, {1, 1, 1, 2}, {65536, 7},
                             {1, 1, 1, 2}, {65536, 2}, {}, {1, 1, 1, 1},
                             valid2d),
            (std::vector<int32_t>{14}));
}

TEST(PoolKernel, MaxAverageIncludePadCeil) {
  // attrs: kind, count_include_pad, kernel, strides, dilations, pads.
  auto pool3x3 = [](std::vector<int64_t> attrs) { // 3x3 in, 2x2 out
    return runOne<float>(Opcode::Pool, DType::F32, {1, 1, 3, 3},
                         std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 9},
                         DType::F32, {1, 1, 2, 2}, attrs);
  };
  auto pool3 = [](std::vector<int64_t> attrs) { // [1 2 3] in, 2 out
    return runOne<float>(Opcode::Pool, DType::F32, {1, 1, 3},
                         std::vector<float>{1, 2, 3}, DType::F32, {1, 1, 2},
                         attrs);
  };
  EXPECT_EQ(pool3x3({0, 0, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0}),
            (std::vector<float>{5, 6, 8, 9}));
  EXPECT_EQ(pool3x3({1, 0, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0}),
            (std::vector<float>{3, 4, 6, 7}));
  // Stride 2, one pad all round: window sums 1, 5, 11, 28 over 1, 2, 2, 4
  // real elements, or over 4 positions with count_include_pad.
  EXPECT_EQ(pool3x3({1, 0, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1}),
            (std::vector<float>{1, 2.5f, 5.5f, 7}));
  EXPECT_EQ(pool3x3({1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1}),
            (std::vector<float>{0.25f, 1.25f, 2.75f, 7}));
  // ceil_mode: [1 2 3] by 2 with stride 2 gives a clipped second window.
  EXPECT_EQ(pool3({0, 0, 2, 2, 1, 0, 0}), (std::vector<float>{2, 3}));
  EXPECT_EQ(pool3({1, 0, 2, 2, 1, 0, 0}), (std::vector<float>{1.5f, 3}));
  // uint8 max.
  EXPECT_EQ(runOne<uint8_t>(Opcode::Pool, DType::U8, {1, 1, 3},
                            std::vector<uint8_t>{7, 200, 3}, DType::U8,
                            {1, 1, 2}, {0, 0, 2, 1, 1, 0, 0}),
            (std::vector<uint8_t>{200, 200}));
}
