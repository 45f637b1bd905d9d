//===- KernelTest.cpp - Kernel values on one-instruction programs ---------===//
//
// Every expected value here is worked out by hand from the inputs.
//
//===----------------------------------------------------------------------===//
#include "TestProgram.h"
#include "lpx/test/Near.h"
#include "lpx/runtime/Runtime.h"
#include <cmath>

using namespace lpx::rt::test;

namespace {

// Runs `b` and returns the error message ("" if it succeeded).
std::string runError(const ProgramBuilder &b,
                     const std::vector<HostTensor> &inputs) {
  auto lp = b.load();
  if (!lp)
    return "load: " + llvm::toString(lp.takeError());
  auto out = execute(*lp, inputs);
  if (out)
    return "";
  return llvm::toString(out.takeError());
}

/// One two-input instruction on `a` and `b` (their names, types and shapes)
/// writing "out" of type `t` and shape `so`; the outputs, or none (see
/// runProgram for `error`).
std::vector<HostTensor> runOnTwo(Opcode op, const HostTensor &a,
                                 const HostTensor &b, DType t,
                                 std::vector<int64_t> so,
                                 std::string *error = nullptr) {
  ProgramBuilder pb;
  uint32_t x = pb.input(a.name, a.dtype, a.shape);
  uint32_t y = pb.input(b.name, b.dtype, b.shape);
  uint32_t o = pb.output("out", t, so);
  pb.inst(op, {x, y}, o);
  return runProgram(pb, {a, b}, error);
}

// One binary instruction: out = op(a, b), both inputs.
template <typename T, typename U = T>
std::vector<T> binaryOp(Opcode op, DType ta, std::vector<int64_t> sa,
                        std::vector<T> va, DType tb, std::vector<int64_t> sb,
                        std::vector<U> vb, std::vector<int64_t> so) {
  auto out =
      runOnTwo(op, tensor("a", ta, sa, va), tensor("b", tb, sb, vb), ta, so);
  if (out.size() != 1)
    return {};
  EXPECT_EQ(out[0].shape, so);
  return valuesOf<T>(out[0].data);
}

using lpx::test::expectNear;

} // namespace

TEST(MatMul, TwoByThreeTimesThreeByTwo) {
  // [1 2 3] [ 7  8]   [1*7+2*9+3*11  1*8+2*10+3*12]   [ 58  64]
  // [4 5 6] [ 9 10] = [4*7+5*9+6*11  4*8+5*10+6*12] = [139 154]
  //         [11 12]
  auto got = binaryOp<float>(Opcode::MatMul, DType::F32, {2, 3},
                             {1, 2, 3, 4, 5, 6}, DType::F32, {3, 2},
                             {7, 8, 9, 10, 11, 12}, {2, 2});
  EXPECT_EQ(got, (std::vector<float>{58, 64, 139, 154}));
}

TEST(MatMul, OneDimensionalOperands) {
  // [1 2 3] @ B = [58 64]; the row dimension is dropped.
  auto row = binaryOp<float>(Opcode::MatMul, DType::F32, {3}, {1, 2, 3},
                             DType::F32, {3, 2}, {7, 8, 9, 10, 11, 12}, {2});
  EXPECT_EQ(row, (std::vector<float>{58, 64}));
  // A @ [1 1 1] = row sums [6 15]; the column dimension is dropped.
  auto col = binaryOp<float>(Opcode::MatMul, DType::F32, {2, 3},
                             {1, 2, 3, 4, 5, 6}, DType::F32, {3}, {1, 1, 1},
                             {2});
  EXPECT_EQ(col, (std::vector<float>{6, 15}));
  // Vector dot vector gives a scalar: 1*4 + 2*5 + 3*6 = 32.
  auto dot = binaryOp<double>(Opcode::MatMul, DType::F64, {3}, {1, 2, 3},
                              DType::F64, {3}, {4, 5, 6}, {});
  EXPECT_EQ(dot, (std::vector<double>{32}));
}

TEST(MatMul, BroadcastBatchDims) {
  // A: batch [2,1] of 1x2 rows A0=[1 2], A1=[3 4]; B: batch [3] of 2x1
  // columns B0=[1 1], B1=[2 0], B2=[0 -1]. Result [2,3,1,1] = Ai . Bj.
  auto got = binaryOp<float>(Opcode::MatMul, DType::F32, {2, 1, 1, 2},
                             {1, 2, 3, 4}, DType::F32, {3, 2, 1},
                             {1, 1, 2, 0, 0, -1}, {2, 3, 1, 1});
  EXPECT_EQ(got, (std::vector<float>{3, 2, -2, 7, 6, -4}));
  // A batch of two 1x2 matrices against one shared 2x2 matrix.
  auto shared = binaryOp<float>(Opcode::MatMul, DType::F32, {2, 1, 2},
                                {1, 2, 3, 4}, DType::F32, {2, 2},
                                {1, 0, 1, 1}, {2, 1, 2});
  EXPECT_EQ(shared, (std::vector<float>{3, 2, 7, 4}));
}

TEST(MatMul, IntegerWrapsAndHalfFloat) {
  // int8: 100*1 + 100*1 = 200 wraps to 200 - 256 = -56, like numpy.
  auto i8 = binaryOp<int8_t>(Opcode::MatMul, DType::I8, {1, 2}, {100, 100},
                             DType::I8, {2, 1}, {1, 1}, {1, 1});
  EXPECT_EQ(i8, (std::vector<int8_t>{-56}));
  auto i64 = binaryOp<int64_t>(Opcode::MatMul, DType::I64, {1, 2},
                               {3, -4}, DType::I64, {2, 2}, {1, 2, 3, 4},
                               {1, 2});
  EXPECT_EQ(i64, (std::vector<int64_t>{3 - 12, 6 - 16}));
  // f16: [1 2] @ [0.5 0.25]^T = 1.0 = 0x3C00.
  auto f16 = binaryOp<uint16_t>(Opcode::MatMul, DType::F16, {1, 2},
                                {0x3C00, 0x4000}, DType::F16, {2, 1},
                                {0x3800, 0x3400}, {1, 1});
  EXPECT_EQ(f16, (std::vector<uint16_t>{0x3C00}));
}

TEST(MatMul, Int8OperandsAccumulateInInt32) {
  // [ 100  100 100] [127    1]   [100*127*3            100 + 200 - 12800]
  // [-128  127  -1] [127    2] = [127*(-128+127-1)  -128 + 254 + 128     ]
  //                 [127 -128]
  // = [[38100, -12500], [-254, 254]]: far outside int8, exact in int32.
  auto out = runOnTwo(
      Opcode::MatMul,
      tensor<int8_t>("a", DType::I8, {2, 3}, {100, 100, 100, -128, 127, -1}),
      tensor<int8_t>("b", DType::I8, {3, 2}, {127, 1, 127, 2, 127, -128}),
      DType::I32, {2, 2});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(valuesOf<int32_t>(out[0].data),
            (std::vector<int32_t>{38100, -12500, -254, 254}));
  // int32 operands wrap in 32 bits: 65536 * 65536 = 2^32 -> 0, plus 3 * 1.
  auto i32 = binaryOp<int32_t>(Opcode::MatMul, DType::I32, {1, 2}, {65536, 3},
                               DType::I32, {2, 1}, {65536, 1}, {1, 1});
  EXPECT_EQ(i32, (std::vector<int32_t>{3}));
}

TEST(MatMul, Uint8OperandsIntoInt32AreAnError) {
  // Only int8 has the int32-accumulating mode; uint8 is widened first.
  std::string err;
  runOnTwo(Opcode::MatMul, tensor<uint8_t>("a", DType::U8, {1, 1}, {2}),
           tensor<uint8_t>("b", DType::U8, {1, 1}, {3}), DType::I32, {1, 1},
           &err);
  EXPECT_FALSE(err.empty());
}

TEST(MatMul, MismatchedShapesAreAnError) {
  std::string err;
  runOnTwo(Opcode::MatMul,
           tensor<float>("a", DType::F32, {2, 3}, {1, 2, 3, 4, 5, 6}),
           tensor<float>("b", DType::F32, {2, 2}, {1, 2, 3, 4}), DType::F32,
           {2, 2}, &err);
  EXPECT_NE(err.find("inner dimensions"), std::string::npos) << err;
}

TEST(Elementwise, AddBroadcastsTrailingAndLeading) {
  // [[1 2 3],[4 5 6]] + [10 20 30]
  auto row = binaryOp<float>(Opcode::Add, DType::F32, {2, 3},
                             {1, 2, 3, 4, 5, 6}, DType::F32, {3},
                             {10, 20, 30}, {2, 3});
  EXPECT_EQ(row, (std::vector<float>{11, 22, 33, 14, 25, 36}));
  // Both sides broadcast: [2,1] + [1,3] -> [2,3].
  auto both = binaryOp<float>(Opcode::Add, DType::F32, {2, 1}, {1, 2},
                              DType::F32, {1, 3}, {10, 20, 30}, {2, 3});
  EXPECT_EQ(both, (std::vector<float>{11, 21, 31, 12, 22, 32}));
}

TEST(Elementwise, SubMulBroadcastColumnAndScalar) {
  // [[1 2 3],[4 5 6]] - [[100],[200]]
  auto sub = binaryOp<float>(Opcode::Sub, DType::F32, {2, 3},
                             {1, 2, 3, 4, 5, 6}, DType::F32, {2, 1},
                             {100, 200}, {2, 3});
  EXPECT_EQ(sub, (std::vector<float>{-99, -98, -97, -196, -195, -194}));
  auto mul = binaryOp<int32_t>(Opcode::Mul, DType::I32, {2, 3},
                               {1, 2, 3, 4, 5, 6}, DType::I32, {}, {-2},
                               {2, 3});
  EXPECT_EQ(mul, (std::vector<int32_t>{-2, -4, -6, -8, -10, -12}));
  // uint8 wraps: 250 + 10 = 260 - 256 = 4.
  auto u8 = binaryOp<uint8_t>(Opcode::Add, DType::U8, {1}, {250}, DType::U8,
                              {1}, {10}, {1});
  EXPECT_EQ(u8, (std::vector<uint8_t>{4}));
}

TEST(Elementwise, IntegerDivisionTruncatesTowardZero) {
  auto q = binaryOp<int32_t>(Opcode::Div, DType::I32, {6},
                             {7, -7, 7, -7, 0, INT32_MIN}, DType::I32, {6},
                             {2, 2, -2, -2, 3, -1}, {6});
  // C semantics, not floor: -7/2 = -3. INT32_MIN / -1 wraps to INT32_MIN.
  EXPECT_EQ(q, (std::vector<int32_t>{3, -3, -3, 3, 0, INT32_MIN}));
  auto f = binaryOp<float>(Opcode::Div, DType::F32, {2}, {1, 3}, DType::F32,
                           {2}, {4, 2}, {2});
  EXPECT_EQ(f, (std::vector<float>{0.25f, 1.5f}));
}

TEST(Elementwise, IntegerDivisionByZeroIsAnError) {
  ProgramBuilder b;
  uint32_t a = b.input("a", DType::I64, {2});
  uint32_t c = b.constant<int64_t>("zero", DType::I64, {}, {0});
  uint32_t o = b.output("out", DType::I64, {2});
  b.inst(Opcode::Div, {a, c}, o);
  std::string err =
      runError(b, {tensor<int64_t>("a", DType::I64, {2}, {1, 2})});
  EXPECT_NE(err.find("division by zero"), std::string::npos) << err;
  EXPECT_NE(err.find("instruction 0 (div"), std::string::npos) << err;
}

TEST(Elementwise, PowWithExponentOfAnotherType) {
  // f32 base, broadcast i64 exponent 2: squares.
  auto sq = binaryOp<float, int64_t>(Opcode::Pow, DType::F32, {3}, {2, 3, -4},
                                     DType::I64, {}, {2}, {3});
  EXPECT_EQ(sq, (std::vector<float>{4, 9, 16}));
  auto root = binaryOp<float>(Opcode::Pow, DType::F32, {2}, {4, 9},
                              DType::F32, {1}, {0.5f}, {2});
  EXPECT_EQ(root, (std::vector<float>{2, 3}));
  // Integer base, float exponent: 2^3 = 8, 3^0.5 = 1.73 truncates to 1.
  auto ints = binaryOp<int32_t, float>(Opcode::Pow, DType::I32, {2}, {2, 3},
                                       DType::F32, {2}, {3, 0.5f}, {2});
  EXPECT_EQ(ints, (std::vector<int32_t>{8, 1}));
}

TEST(Elementwise, WhereBroadcastsItsOperands) {
  ProgramBuilder b;
  uint32_t c = b.input("c", DType::Bool, {2, 2});
  uint32_t x = b.input("x", DType::F32, {2, 2});
  uint32_t y = b.constant<float>("y", DType::F32, {}, {-1});
  uint32_t o = b.output("out", DType::F32, {2, 2});
  b.inst(Opcode::Where, {c, x, y}, o);
  auto out =
      runProgram(b, {tensor<uint8_t>("c", DType::Bool, {2, 2}, {1, 0, 0, 1}),
                     tensor<float>("x", DType::F32, {2, 2}, {1, 2, 3, 4})});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(valuesOf<float>(out[0].data), (std::vector<float>{1, -1, -1, 4}));
}

TEST(Elementwise, UnaryFunctions) {
  auto unary = [](Opcode op, std::vector<float> in) {
    ProgramBuilder b;
    int64_t n = in.size();
    uint32_t x = b.input("x", DType::F32, {n});
    uint32_t o = b.output("out", DType::F32, {n});
    b.inst(op, {x}, o);
    auto out = runProgram(b, {tensor("x", DType::F32, {n}, in)});
    return out.empty() ? std::vector<float>{} : valuesOf<float>(out[0].data);
  };
  EXPECT_EQ(unary(Opcode::Neg, {1, -2}), (std::vector<float>{-1, 2}));
  EXPECT_EQ(unary(Opcode::Relu, {-1, 0, 2}), (std::vector<float>{0, 0, 2}));
  EXPECT_EQ(unary(Opcode::Sqrt, {4, 2.25f}), (std::vector<float>{2, 1.5f}));
  // sigmoid(0) = 1/2, sigmoid(ln 3) = 3/4, sigmoid(-1000) underflows to 0.
  expectNear(unary(Opcode::Sigmoid, {0, std::log(3.0f), -1000}),
             {0.5f, 0.75f, 0});
  // tanh(ln 2) = (2 - 1/2) / (2 + 1/2) = 0.6.
  expectNear(unary(Opcode::Tanh, {0, std::log(2.0f)}), {0, 0.6f});
}

TEST(Elementwise, IntegerNegAndRelu) {
  ProgramBuilder b;
  negAndRelu(b, DType::I32, {3});
  auto out = runProgram(
      b, {tensor<int32_t>("x", DType::I32, {3}, {5, -3, INT32_MIN})});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(valuesOf<int32_t>(out[0].data),
            (std::vector<int32_t>{-5, 3, INT32_MIN}));
  EXPECT_EQ(valuesOf<int32_t>(out[1].data), (std::vector<int32_t>{5, 0, 0}));
}

TEST(Elementwise, SqrtOfIntegerIsAnError) {
  ProgramBuilder b;
  uint32_t x = b.input("x", DType::I32, {1});
  uint32_t o = b.output("out", DType::I32, {1});
  b.inst(Opcode::Sqrt, {x}, o);
  std::string err = runError(b, {tensor<int32_t>("x", DType::I32, {1}, {4})});
  EXPECT_NE(err.find("floating-point"), std::string::npos) << err;
}

TEST(TypeConvert, F32ToF16ToF32RoundsToNearestEven) {
  // Halfway cases: 1 + 2^-11 lies between 1 and 1 + 2^-10 and goes to the
  // even mantissa (1); 1 + 3*2^-11 goes up to 1 + 2^-9. Just above halfway
  // rounds up. 65520 is halfway between 65504 (max) and 65536: even -> inf.
  std::vector<float> in = {1.0f + std::ldexp(1.0f, -11),
                           1.0f + 3 * std::ldexp(1.0f, -11),
                           1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20),
                           65520.0f, 0.1f, -2.0f};
  int64_t n = in.size();
  ProgramBuilder b;
  uint32_t x = b.input("x", DType::F32, {n});
  uint32_t h = b.output("half", DType::F16, {n});
  uint32_t o = b.output("back", DType::F32, {n});
  b.inst(Opcode::Cast, {x}, h);
  b.inst(Opcode::Cast, {h}, o);
  auto out = runProgram(b, {tensor("x", DType::F32, {n}, in)});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(valuesOf<uint16_t>(out[0].data),
            (std::vector<uint16_t>{0x3C00, 0x3C02, 0x3C01, 0x7C00, 0x2E66,
                                   0xC000}));
  std::vector<float> back = valuesOf<float>(out[1].data);
  ASSERT_EQ(back.size(), 6u);
  EXPECT_EQ(back[0], 1.0f);
  EXPECT_EQ(back[1], 1.0f + std::ldexp(1.0f, -9));
  EXPECT_EQ(back[2], 1.0f + std::ldexp(1.0f, -10));
  EXPECT_TRUE(std::isinf(back[3]));
  EXPECT_EQ(back[4], 0.0999755859375f); // 0x2E66 = 1638/16384
  EXPECT_EQ(back[5], -2.0f);
}

TEST(TypeConvert, F32ToBF16RoundsToNearestEven) {
  // bf16 keeps 7 mantissa bits: 1 + 2^-8 is halfway -> 1.0 (0x3F80);
  // 1 + 3*2^-8 is halfway -> 1 + 2^-6 (0x3F82).
  std::vector<float> in = {1.0f + std::ldexp(1.0f, -8),
                           1.0f + 3 * std::ldexp(1.0f, -8)};
  ProgramBuilder b;
  uint32_t x = b.input("x", DType::F32, {2});
  uint32_t o = b.output("out", DType::BF16, {2});
  b.inst(Opcode::Cast, {x}, o);
  auto out = runProgram(b, {tensor("x", DType::F32, {2}, in)});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(valuesOf<uint16_t>(out[0].data),
            (std::vector<uint16_t>{0x3F80, 0x3F82}));
}

TEST(TypeConvert, FloatToIntTruncatesAndToBoolTestsNonZero) {
  ProgramBuilder b;
  uint32_t x = b.input("x", DType::F32, {4});
  uint32_t i = b.output("int", DType::I32, {4});
  uint32_t t = b.output("bool", DType::Bool, {4});
  uint32_t d = b.output("double", DType::F64, {4});
  b.inst(Opcode::Cast, {x}, i);
  b.inst(Opcode::Cast, {x}, t);
  b.inst(Opcode::Cast, {x}, d);
  auto out = runProgram(
      b, {tensor<float>("x", DType::F32, {4}, {2.7f, -2.7f, 0.0f, 0.5f})});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(valuesOf<int32_t>(out[0].data), (std::vector<int32_t>{2, -2, 0, 0}));
  EXPECT_EQ(valuesOf<uint8_t>(out[1].data), (std::vector<uint8_t>{1, 1, 0, 1}));
  EXPECT_EQ(valuesOf<double>(out[2].data),
            (std::vector<double>{double(2.7f), double(-2.7f), 0, 0.5}));
}

TEST(Reduce, SoftmaxRowsSumToOneAndMatchHandValues) {
  // exp of [0, ln 2, ln 3] is [1, 2, 3]: softmax = [1/6, 1/3, 1/2]. The second
  // row adds 1000, which overflows exp unless the max is subtracted first.
  float l2 = std::log(2.0f), l3 = std::log(3.0f);
  ProgramBuilder b;
  uint32_t x = b.input("x", DType::F32, {2, 3});
  uint32_t o = b.output("out", DType::F32, {2, 3});
  b.inst(Opcode::Softmax, {x}, o, {1});
  auto out =
      runProgram(b, {tensor<float>("x", DType::F32, {2, 3},
                                   {0, l2, l3, 1000, 1000 + l2, 1000 + l3})});
  ASSERT_EQ(out.size(), 1u);
  std::vector<float> v = valuesOf<float>(out[0].data);
  expectNear(v, {1 / 6.f, 1 / 3.f, 1 / 2.f, 1 / 6.f, 1 / 3.f, 1 / 2.f}, 1e-4f);
  EXPECT_NEAR(v[0] + v[1] + v[2], 1.0f, 1e-6f);
  EXPECT_NEAR(v[3] + v[4] + v[5], 1.0f, 1e-6f);
}

TEST(Reduce, SoftmaxAlongLeadingAxis) {
  // Along axis 0 of [[0, 0], [0, ln 3]]: columns [1/2, 1/2] and [1/4, 3/4].
  ProgramBuilder b;
  uint32_t x = b.input("x", DType::F32, {2, 2});
  uint32_t o = b.output("out", DType::F32, {2, 2});
  b.inst(Opcode::Softmax, {x}, o, {0});
  auto out = runProgram(
      b, {tensor<float>("x", DType::F32, {2, 2}, {0, 0, 0, std::log(3.0f)})});
  ASSERT_EQ(out.size(), 1u);
  expectNear(valuesOf<float>(out[0].data), {0.5f, 0.25f, 0.5f, 0.75f});
}

TEST(Reduce, ReduceMeanKeepsOrDropsAxesByResultRank) {
  std::vector<float> x = {1, 2, 3, 4, 5, 6}; // [[1 2 3],[4 5 6]]
  auto mean = [&](std::vector<int64_t> axes, std::vector<int64_t> shape) {
    ProgramBuilder b;
    uint32_t in = b.input("x", DType::F32, {2, 3});
    uint32_t o = b.output("out", DType::F32, shape);
    b.inst(Opcode::ReduceMean, {in}, o, axes);
    auto out = runProgram(b, {tensor("x", DType::F32, {2, 3}, x)});
    return out.empty() ? std::vector<float>{} : valuesOf<float>(out[0].data);
  };
  EXPECT_EQ(mean({1}, {2, 1}), (std::vector<float>{2, 5}));   // kept
  EXPECT_EQ(mean({0}, {3}), (std::vector<float>{2.5f, 3.5f, 4.5f}));
  EXPECT_EQ(mean({0, 1}, {}), (std::vector<float>{3.5f}));    // 21 / 6
  EXPECT_EQ(mean({0, 1}, {1, 1}), (std::vector<float>{3.5f}));
  EXPECT_EQ(mean({}, {2, 3}), x);                             // a copy
}

TEST(DataMovement, Transpose) {
  // [[1 2 3],[4 5 6]]^T = [[1 4],[2 5],[3 6]]
  ProgramBuilder b;
  uint32_t x = b.input("x", DType::I16, {2, 3});
  uint32_t o = b.output("out", DType::I16, {3, 2});
  b.inst(Opcode::Transpose, {x}, o, {1, 0});
  auto out = runProgram(
      b, {tensor<int16_t>("x", DType::I16, {2, 3}, {1, 2, 3, 4, 5, 6})});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(valuesOf<int16_t>(out[0].data),
            (std::vector<int16_t>{1, 4, 2, 5, 3, 6}));
}

TEST(DataMovement, Transpose3D) {
  // x[i][j][k] = 100i + 10j + k with shape [2,3,4]; perm [2,0,1] gives
  // out[k][i][j] = x[i][j][k], shape [4,2,3].
  std::vector<int32_t> in;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k)
        in.push_back(100 * i + 10 * j + k);
  std::vector<int32_t> want;
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j)
        want.push_back(100 * i + 10 * j + k);
  ProgramBuilder b;
  uint32_t x = b.input("x", DType::I32, {2, 3, 4});
  uint32_t o = b.output("out", DType::I32, {4, 2, 3});
  b.inst(Opcode::Transpose, {x}, o, {2, 0, 1});
  auto out = runProgram(b, {tensor("x", DType::I32, {2, 3, 4}, in)});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(valuesOf<int32_t>(out[0].data), want);
}

TEST(DataMovement, ConcatAlongEitherAxis) {
  ProgramBuilder b;
  uint32_t a = b.input("a", DType::F32, {2, 1});
  uint32_t c = b.input("b", DType::F32, {2, 2});
  uint32_t o1 = b.output("cols", DType::F32, {2, 3});
  uint32_t t = b.buffer("t", DType::F32, {1, 2});
  uint32_t o0 = b.output("rows", DType::F32, {3, 2});
  b.inst(Opcode::Concat, {a, c}, o1, {1});
  b.inst(Opcode::Copy, {a}, t); // reshape [2,1] -> [1,2]
  b.inst(Opcode::Concat, {t, c}, o0, {0});
  auto out =
      runProgram(b, {tensor<float>("a", DType::F32, {2, 1}, {1, 2}),
                     tensor<float>("b", DType::F32, {2, 2}, {3, 4, 5, 6})});
  ASSERT_EQ(out.size(), 2u);
  // [[1],[2]] ++ [[3 4],[5 6]] along columns: [[1 3 4],[2 5 6]].
  EXPECT_EQ(valuesOf<float>(out[0].data), (std::vector<float>{1, 3, 4, 2, 5, 6}));
  // [[1 2]] ++ [[3 4],[5 6]] along rows.
  EXPECT_EQ(valuesOf<float>(out[1].data), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST(DataMovement, SliceWithNegativeSteps) {
  // x = [[0 1 2 3],[4 5 6 7]]; start [1, 3], step [-1, -2]:
  // rows 1, 0 and columns 3, 1 -> [[7 5],[3 1]].
  ProgramBuilder b;
  uint32_t x = b.input("x", DType::F32, {2, 4});
  uint32_t o = b.output("out", DType::F32, {2, 2});
  b.inst(Opcode::Slice, {x}, o, {1, 3, -1, -2});
  auto out = runProgram(
      b, {tensor<float>("x", DType::F32, {2, 4}, {0, 1, 2, 3, 4, 5, 6, 7})});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(valuesOf<float>(out[0].data), (std::vector<float>{7, 5, 3, 1}));
}

TEST(DataMovement, SliceOutsideTheOperandIsAnError) {
  ProgramBuilder b;
  uint32_t x = b.input("x", DType::F32, {4});
  uint32_t o = b.output("out", DType::F32, {3});
  b.inst(Opcode::Slice, {x}, o, {2, 1}); // reads 2, 3, 4
  std::string err = runError(b, {tensor<float>("x", DType::F32, {4}, {0, 1, 2, 3})});
  EXPECT_NE(err.find("slice dimension 0"), std::string::npos) << err;
}

TEST(DataMovement, GatherWithNegativeIndices) {
  // data [[1 2],[3 4],[5 6]]; rows [-1, 0] -> [[5 6],[1 2]].
  ProgramBuilder b;
  uint32_t d = b.input("data", DType::F32, {3, 2});
  uint32_t i = b.constant<int64_t>("idx", DType::I64, {2}, {-1, 0});
  uint32_t o = b.output("rows", DType::F32, {2, 2});
  // Along axis 1 with i32 indices [[1],[-2]] -> out[r][j][0] = data[r][idx].
  uint32_t i2 = b.constant<int32_t>("idx2", DType::I32, {2, 1}, {1, -2});
  uint32_t o2 = b.output("cols", DType::F32, {3, 2, 1});
  b.inst(Opcode::Gather, {d, i}, o, {0});
  b.inst(Opcode::Gather, {d, i2}, o2, {1});
  auto out = runProgram(
      b, {tensor<float>("data", DType::F32, {3, 2}, {1, 2, 3, 4, 5, 6})});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(valuesOf<float>(out[0].data), (std::vector<float>{5, 6, 1, 2}));
  EXPECT_EQ(valuesOf<float>(out[1].data),
            (std::vector<float>{2, 1, 4, 3, 6, 5}));
}

TEST(DataMovement, GatherOutOfRangeIsAnErrorNotACrash) {
  ProgramBuilder b;
  uint32_t d = b.input("data", DType::F32, {3});
  uint32_t i = b.constant<int64_t>("idx", DType::I64, {2}, {0, 3});
  uint32_t o = b.output("out", DType::F32, {2});
  b.inst(Opcode::Gather, {d, i}, o, {0});
  std::string err = runError(b, {tensor<float>("data", DType::F32, {3}, {1, 2, 3})});
  EXPECT_NE(err.find("gather index 3 out of range"), std::string::npos) << err;
  EXPECT_NE(err.find("test_gather"), std::string::npos) << err; // origin
}
