//===- OnnxNodeTest.cpp - Kernels against the ONNX backend test data ------===//
//
// Each case wraps one ONNX node test in a one-instruction program: the
// test's inputs become program inputs, output_0 fixes the result buffer, and
// the runtime's output must match the reference within the default
// tolerances. Attributes come from the test's name (the .onnx models are not
// read here).
//
//===----------------------------------------------------------------------===//
#include "TestProgram.h"
#include "lpx/runtime/Compare.h"
#include "lpx/runtime/Runtime.h"
#include "lpx/runtime/TensorFile.h"

using namespace lpx::rt::test;

namespace {
struct NodeCase {
  const char *test;
  Opcode op;
  std::vector<int64_t> attrs;
  // ONNX 1.12 stores bfloat16 test tensors as uint16 bit patterns.
  bool u16IsBF16 = false;
};

void retagBF16(HostTensor &t) {
  if (t.dtype == isa::DType::U16)
    t.dtype = isa::DType::BF16;
}

void PrintTo(const NodeCase &c, std::ostream *os) { *os << c.test; }

class OnnxNode : public ::testing::TestWithParam<NodeCase> {};

TEST_P(OnnxNode, MatchesReferenceOutput) {
  const NodeCase &c = GetParam();
  std::string dir = std::string(LPX_ONNX_TESTDATA) + "/node/" + c.test +
                    "/test_data_set_0";
  auto inputs = readTestDataDir(dir, "input");
  ASSERT_TRUE(bool(inputs)) << llvm::toString(inputs.takeError());
  auto expected = readTestDataDir(dir, "output");
  ASSERT_TRUE(bool(expected)) << llvm::toString(expected.takeError());
  ASSERT_EQ(expected->size(), 1u);
  if (c.u16IsBF16) {
    for (HostTensor &t : *inputs)
      retagBF16(t);
    retagBF16((*expected)[0]);
  }
  const HostTensor &want = (*expected)[0];

  ProgramBuilder b;
  std::vector<uint32_t> operands;
  for (size_t i = 0; i < inputs->size(); ++i) {
    HostTensor &t = (*inputs)[i];
    t.name = "in" + std::to_string(i); // some test files leave names empty
    operands.push_back(b.input(t.name, t.dtype, t.shape));
  }
  uint32_t out = b.output("out", want.dtype, want.shape);
  b.inst(c.op, operands, out, c.attrs);
  auto lp = b.load();
  ASSERT_TRUE(bool(lp)) << llvm::toString(lp.takeError());
  auto got = execute(*lp, *inputs);
  ASSERT_TRUE(bool(got)) << llvm::toString(got.takeError());
  ASSERT_EQ(got->size(), 1u);
  CompareResult r = compareTensors(want, (*got)[0]);
  EXPECT_TRUE(r.ok) << r.message;
}

const NodeCase kCases[] = {
    {"test_add", Opcode::Add, {}},
    {"test_add_bcast", Opcode::Add, {}},
    {"test_add_uint8", Opcode::Add, {}},
    {"test_sub_bcast", Opcode::Sub, {}},
    {"test_sub_uint8", Opcode::Sub, {}},
    {"test_mul_bcast", Opcode::Mul, {}},
    {"test_div_bcast", Opcode::Div, {}},
    {"test_div_uint8", Opcode::Div, {}},
    {"test_pow_bcast_array", Opcode::Pow, {}},
    {"test_pow_types_float32_int64", Opcode::Pow, {}},
    {"test_pow_types_float32_uint32", Opcode::Pow, {}},
    {"test_pow_types_int32_float32", Opcode::Pow, {}},
    {"test_pow_types_int64_int64", Opcode::Pow, {}},
    {"test_where_long_example", Opcode::Where, {}},
    {"test_sqrt", Opcode::Sqrt, {}},
    {"test_neg", Opcode::Neg, {}},
    {"test_relu", Opcode::Relu, {}},
    {"test_sigmoid", Opcode::Sigmoid, {}},
    {"test_tanh", Opcode::Tanh, {}},
    {"test_matmul_2d", Opcode::MatMul, {}},
    {"test_matmul_3d", Opcode::MatMul, {}},
    {"test_matmul_4d", Opcode::MatMul, {}},
    {"test_cast_FLOAT_to_FLOAT16", Opcode::Cast, {}},
    {"test_cast_FLOAT16_to_FLOAT", Opcode::Cast, {}},
    {"test_cast_DOUBLE_to_FLOAT16", Opcode::Cast, {}},
    {"test_cast_FLOAT_to_BFLOAT16", Opcode::Cast, {}, true},
    {"test_cast_BFLOAT16_to_FLOAT", Opcode::Cast, {}, true},
    {"test_softmax_axis_0", Opcode::Softmax, {0}},
    {"test_softmax_axis_1", Opcode::Softmax, {1}},
    {"test_softmax_axis_2", Opcode::Softmax, {2}},
    {"test_softmax_large_number", Opcode::Softmax, {-1}},
    {"test_reduce_mean_keepdims_random", Opcode::ReduceMean, {1}},
    {"test_reduce_mean_do_not_keepdims_random", Opcode::ReduceMean, {1}},
    {"test_reduce_mean_default_axes_keepdims_random", Opcode::ReduceMean,
     {0, 1, 2}},
    {"test_transpose_default", Opcode::Transpose, {2, 1, 0}},
    {"test_transpose_all_permutations_1", Opcode::Transpose, {0, 2, 1}},
    {"test_transpose_all_permutations_3", Opcode::Transpose, {1, 2, 0}},
    {"test_transpose_all_permutations_4", Opcode::Transpose, {2, 0, 1}},
    {"test_concat_3d_axis_1", Opcode::Concat, {1}},
    {"test_concat_3d_axis_negative_1", Opcode::Concat, {2}},
    {"test_gather_0", Opcode::Gather, {0}},
    {"test_gather_1", Opcode::Gather, {1}},
    {"test_gather_2d_indices", Opcode::Gather, {1}},
    {"test_gather_negative_indices", Opcode::Gather, {0}},
};

INSTANTIATE_TEST_SUITE_P(
    Reference, OnnxNode, ::testing::ValuesIn(kCases),
    [](const ::testing::TestParamInfo<NodeCase> &info) {
      return std::string(info.param.test);
    });
} // namespace
