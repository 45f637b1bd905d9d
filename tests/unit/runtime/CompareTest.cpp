//===- CompareTest.cpp - allclose-style tensor comparison -----------------===//
#include "lpx/runtime/Compare.h"
#include "lpx/runtime/TensorFile.h"
#include "lpx/runtime/TestData.h"
#include "TestProgram.h"
#include <cmath>
#include <limits>

using namespace lpx::rt::test;

TEST(Compare, ReluInputDiffersFromOutput) {
  std::string dir = std::string(LPX_ONNX_TESTDATA) +
                    "/node/test_relu/test_data_set_0/";
  auto in = readTensorProto(dir + "input_0.pb");
  auto out = readTensorProto(dir + "output_0.pb");
  ASSERT_TRUE(bool(in)) << llvm::toString(in.takeError());
  ASSERT_TRUE(bool(out)) << llvm::toString(out.takeError());
  CompareResult diff = compareTensors(*out, *in, 1e-3, 1e-4);
  EXPECT_FALSE(diff.ok);
  EXPECT_FALSE(diff.where.empty());
  EXPECT_GT(diff.worstAbsError, 0);
  CompareResult same = compareTensors(*out, *out);
  EXPECT_TRUE(same.ok) << same.message;
  EXPECT_EQ(same.worstAbsError, 0);
}

TEST(Compare, AllcloseBoundary) {
  // Tolerance at expected 10 with rtol 0.1, atol 1: 1 + 0.1 * 10 = 2.
  HostTensor e = tensor<double>("t", DType::F64, {2}, {10, -10});
  CompareResult in = compareTensors(e, tensor<double>("t", DType::F64, {2}, {12, -8}), 0.1, 1);
  EXPECT_TRUE(in.ok) << in.message;
  EXPECT_DOUBLE_EQ(in.worstAbsError, 2);
  EXPECT_DOUBLE_EQ(in.worstRelError, 0.2);
  CompareResult out = compareTensors(e, tensor<double>("t", DType::F64, {2}, {12, -7.5}), 0.1, 1);
  EXPECT_FALSE(out.ok);
  EXPECT_EQ(out.where, "[1]");
  EXPECT_NE(out.message.find("1 of 2 elements differ"), std::string::npos)
      << out.message;
}

TEST(Compare, NaNAndInfinity) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  HostTensor e = tensor<float>("t", DType::F32, {3}, {nan, inf, -inf});
  EXPECT_TRUE(compareTensors(e, e).ok);
  EXPECT_FALSE(
      compareTensors(e, tensor<float>("t", DType::F32, {3}, {1, inf, -inf})).ok);
  EXPECT_FALSE(
      compareTensors(e, tensor<float>("t", DType::F32, {3}, {nan, inf, inf})).ok);
}

TEST(Compare, IntegersCompareExactly) {
  HostTensor e = tensor<int64_t>("t", DType::I64, {2, 2}, {1, 2, 3, 4});
  CompareResult r = compareTensors(
      e, tensor<int64_t>("t", DType::I64, {2, 2}, {1, 2, 3, 5}), 1, 10);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.where, "[1, 1]");
  // Beyond 2^53 doubles cannot tell these apart; the comparison still does.
  int64_t big = int64_t(1) << 60;
  EXPECT_FALSE(compareTensors(tensor<int64_t>("t", DType::I64, {1}, {big}),
                              tensor<int64_t>("t", DType::I64, {1}, {big + 1}))
                   .ok);
}

TEST(Compare, ShapeAndTypeMismatchesAreReported) {
  HostTensor e = tensor<float>("y", DType::F32, {2, 2}, {1, 2, 3, 4});
  CompareResult s =
      compareTensors(e, tensor<float>("y", DType::F32, {4}, {1, 2, 3, 4}));
  EXPECT_FALSE(s.ok);
  EXPECT_EQ(s.message, "'y': shape [4], expected [2, 2]");
  CompareResult t =
      compareTensors(e, tensor<int32_t>("y", DType::I32, {2, 2}, {1, 2, 3, 4}));
  EXPECT_FALSE(t.ok);
  EXPECT_EQ(t.message, "'y': element type i32, expected f32");
}

TEST(Compare, DefaultTolerances) {
  EXPECT_EQ(defaultTolerance(DType::F32).rtol, 1e-3);
  EXPECT_EQ(defaultTolerance(DType::F32).atol, 1e-7);
  EXPECT_EQ(defaultTolerance(DType::F64).rtol, 1e-12);
  EXPECT_GT(defaultTolerance(DType::F16).rtol, 1e-3);
  EXPECT_GT(defaultTolerance(DType::BF16).rtol, 1e-3);
  EXPECT_EQ(defaultTolerance(DType::I32).rtol, 0);
}

// The cases the old f32/f64 default (rtol 1e-3, atol 1e-4) let through.
TEST(Compare, DefaultsCatchSmallOutputsAndF64Drift) {
  // An output around 1e-3 (a GRU state) that is 10% off.
  auto e32 = tensor<float>("h", DType::F32, {2}, {1e-3f, -2e-3f});
  EXPECT_FALSE(compareTensors(e32, tensor<float>("h", DType::F32, {2},
                                                 {1.1e-3f, -2e-3f})).ok);
  EXPECT_TRUE(compareTensors(e32, tensor<float>("h", DType::F32, {2},
                                                {1.0005e-3f, -2e-3f})).ok);
  // float64 computed in float32 somewhere: ~1e-8 relative error.
  auto e64 = tensor<double>("y", DType::F64, {1}, {1.0 / 3});
  EXPECT_FALSE(compareTensors(e64, tensor<double>("y", DType::F64, {1},
                                                  {double(1.0f / 3)})).ok);
  EXPECT_TRUE(compareTensors(e64, tensor<double>("y", DType::F64, {1},
                                                 {1.0 / 3 + 1e-16})).ok);
}

// fp16 results against fp32 expected values are widened on the host and
// compared in the caller's tolerance: 0.1 in fp16 is 0.0999755859375, an
// error of 2.4e-5, inside rtol 1e-3 and outside rtol 1e-5 (atol 0).
TEST(Compare, AReducedFormatResultIsWidenedBeforeComparing) {
  HostTensor e = tensor<float>("y", DType::F32, {1}, {0.1f});
  auto half = convertTensor(e, DType::F16);
  ASSERT_TRUE(bool(half)) << llvm::toString(half.takeError());
  EXPECT_TRUE(compareTensors(e, *half, 1e-3, 0).ok);
  CompareResult tight = compareTensors(e, *half, 1e-5, 0);
  EXPECT_FALSE(tight.ok);
  EXPECT_DOUBLE_EQ(tight.worstAbsError, double(0.1f) - 0.0999755859375);
}

// `lpx run`'s tolerance line and output check (TestData.h).
TEST(OutputCheck, ToleranceLineNamesFormatAndOverride) {
  // fp16: rtol 4 * 2^-10 = 0.00390625, atol 2^-10 = 0.0009765625.
  EXPECT_EQ(toleranceLine({"fp16", "--tolerance-of"}, -1, -1),
            "tolerance: fp16 (rtol 0.00390625, atol 0.0009765625) for "
            "floating-point outputs, --tolerance-of");
  EXPECT_EQ(toleranceLine({"fp16", "--tolerance-of"}, 0.5, -1),
            "tolerance: fp16 (rtol 0.5, atol 0.0009765625) for "
            "floating-point outputs, --tolerance-of; --rtol/--atol given");
  EXPECT_EQ(toleranceLine({"", "the program keeps the model's formats"}, -1,
                          -1),
            "tolerance: each output's own type (the program keeps the "
            "model's formats)");
}

TEST(OutputCheck, ComparesByNameAtTheFormatsTolerance) {
  // 1.003 against 1: |diff| 0.003 is past fp32's 1e-7 + 1e-3 * 1 but
  // within fp16's 2^-10 + 4 * 2^-10 = 0.0049.
  std::vector<HostTensor> want = {tensor<float>("y", DType::F32, {1}, {1})};
  std::vector<HostTensor> got = {tensor<float>("z", DType::F32, {1}, {7}),
                                 tensor<float>("y", DType::F32, {1}, {1.003f})};
  std::string text;
  llvm::raw_string_ostream os(text);
  auto fp16 = compareOutputs(want, got, "fp16", -1, -1, os);
  ASSERT_TRUE(bool(fp16)) << llvm::toString(fp16.takeError());
  EXPECT_TRUE(*fp16);
  EXPECT_NE(text.find("y: match"), std::string::npos) << text;
  EXPECT_NE(text.find("all outputs match\n"), std::string::npos) << text;
  text.clear();
  auto fp32 = compareOutputs(want, got, "", -1, -1, os);
  ASSERT_TRUE(bool(fp32)) << llvm::toString(fp32.takeError());
  EXPECT_FALSE(*fp32);
  EXPECT_NE(text.find("y: MISMATCH"), std::string::npos) << text;
  EXPECT_NE(text.find("outputs differ from the expected values\n"),
            std::string::npos)
      << text;
  // --atol 0.01 alone lets fp32 accept it.
  text.clear();
  auto loose = compareOutputs(want, got, "", -1, 0.01, os);
  ASSERT_TRUE(bool(loose));
  EXPECT_TRUE(*loose);
}

TEST(OutputCheck, AnExpectedOutputTheProgramLacksIsAnError) {
  std::vector<HostTensor> want = {tensor<float>("w", DType::F32, {1}, {1})};
  std::vector<HostTensor> got = {tensor<float>("y", DType::F32, {1}, {1})};
  std::string text;
  llvm::raw_string_ostream os(text);
  auto r = compareOutputs(want, got, "", -1, -1, os);
  ASSERT_FALSE(bool(r));
  EXPECT_EQ(llvm::toString(r.takeError()),
            "expected output 'w' is not an output of the program");
}
