//===- RuntimeTest.cpp - Program-level behaviour of execute() -------------===//
#include "TestProgram.h"
#include "lpx/runtime/Runtime.h"

#include <cmath>

using namespace lpx::rt::test;

namespace {
std::string errorOf(llvm::Expected<std::vector<HostTensor>> r) {
  if (r)
    return "";
  return llvm::toString(r.takeError());
}

// y = x * w on node 0, sent to node 1, out = y + c on node 1.
ProgramBuilder twoNodeProgram() {
  ProgramBuilder b(2);
  uint32_t x = b.input("x", DType::F32, {2, 2}, 0);
  uint32_t w = b.constant<float>("w", DType::F32, {2}, {10, 100}, 0);
  uint32_t y = b.buffer("y", DType::F32, {2, 2}, isa::pb::TEMP, 0);
  uint32_t y1 = b.buffer("y@1", DType::F32, {2, 2}, isa::pb::TEMP, 1);
  uint32_t c = b.constant<float>("c", DType::F32, {2, 2}, {1, 2, 3, 4}, 1);
  uint32_t out = b.output("out", DType::F32, {2, 2}, 1);
  b.inst(Opcode::Mul, {x, w}, y, {}, 0);
  b.send(y, y1, 0, 1);
  b.inst(Opcode::Add, {y1, c}, out, {}, 1);
  return b;
}
} // namespace

TEST(Runtime, TwoNodesWithASend) {
  auto lp = twoNodeProgram().load();
  ASSERT_TRUE(bool(lp)) << llvm::toString(lp.takeError());
  auto out = execute(*lp, {tensor<float>("x", DType::F32, {2, 2}, {1, 2, 3, 4})});
  ASSERT_TRUE(bool(out)) << llvm::toString(out.takeError());
  ASSERT_EQ(out->size(), 1u);
  const HostTensor &t = (*out)[0];
  EXPECT_EQ(t.name, "out");
  EXPECT_EQ(t.dtype, DType::F32);
  EXPECT_EQ(t.shape, (std::vector<int64_t>{2, 2}));
  // [[1 2],[3 4]] * [10 100] = [[10 200],[30 400]]; + [[1 2],[3 4]].
  EXPECT_EQ(valuesOf<float>(t.data), (std::vector<float>{11, 202, 33, 404}));
}

TEST(Runtime, OutputsFollowBindingOrderAndNames) {
  ProgramBuilder b;
  NegAndRelu p = negAndRelu(b, DType::F32, {2}, /*bindOutputs=*/false);
  // Bind relu first, under names that differ from the buffer names.
  auto *o1 = b.proto().add_outputs();
  o1->set_name("relu_out");
  o1->set_buffer(p.relu);
  auto *o2 = b.proto().add_outputs();
  o2->set_name("neg_out");
  o2->set_buffer(p.neg);
  auto lp = b.load();
  ASSERT_TRUE(bool(lp)) << llvm::toString(lp.takeError());
  // An extra tensor the program does not name is ignored.
  auto out = execute(*lp, {tensor<float>("unused", DType::I32, {1}, {0}),
                           tensor<float>("x", DType::F32, {2}, {-1, 2})});
  ASSERT_TRUE(bool(out)) << llvm::toString(out.takeError());
  ASSERT_EQ(out->size(), 2u);
  EXPECT_EQ((*out)[0].name, "relu_out");
  EXPECT_EQ(valuesOf<float>((*out)[0].data), (std::vector<float>{0, 2}));
  EXPECT_EQ((*out)[1].name, "neg_out");
  EXPECT_EQ(valuesOf<float>((*out)[1].data), (std::vector<float>{1, -2}));
}

TEST(Runtime, MissingInputIsNamed) {
  auto lp = twoNodeProgram().load();
  ASSERT_TRUE(bool(lp)) << llvm::toString(lp.takeError());
  std::string err =
      errorOf(execute(*lp, {tensor<float>("y", DType::F32, {2, 2}, {1, 2, 3, 4})}));
  EXPECT_EQ(err, "missing input 'x'");
}

TEST(Runtime, WrongInputTypeOrShapeIsAnError) {
  auto lp = twoNodeProgram().load();
  ASSERT_TRUE(bool(lp)) << llvm::toString(lp.takeError());
  std::string shape =
      errorOf(execute(*lp, {tensor<float>("x", DType::F32, {4}, {1, 2, 3, 4})}));
  EXPECT_NE(shape.find("input 'x' is f32[4], the program expects f32[2, 2]"),
            std::string::npos)
      << shape;
  std::string type = errorOf(
      execute(*lp, {tensor<int32_t>("x", DType::I32, {2, 2}, {1, 2, 3, 4})}));
  EXPECT_NE(type.find("i32[2, 2]"), std::string::npos) << type;
  HostTensor shortData = tensor<float>("x", DType::F32, {2, 2}, {1, 2, 3});
  std::string bytes = errorOf(execute(*lp, {shortData}));
  EXPECT_NE(bytes.find("holds 12 bytes, expected 16"), std::string::npos)
      << bytes;
}

TEST(Runtime, ShapeOnlyConstantsCannotRun) {
  ProgramBuilder b = twoNodeProgram();
  for (isa::pb::Constant &c : *b.proto().mutable_constants()) {
    c.set_offset(0); // no data section
    c.set_size(0);
  }
  b.data = isa::ConstantData();
  auto lp = b.load();
  ASSERT_TRUE(bool(lp)) << llvm::toString(lp.takeError());
  std::string err =
      errorOf(execute(*lp, {tensor<float>("x", DType::F32, {2, 2}, {1, 2, 3, 4})}));
  EXPECT_NE(err.find("program has shape-only constants; it can be simulated "
                     "but not run"),
            std::string::npos)
      << err;
}

TEST(Runtime, AnEditedProgramRunsOnlyOnceVerifiedAgain) {
  // execute takes only a VerifiedProgram: an edited copy goes through the
  // verifier, which rejects a broken one before any kernel runs.
  auto lp = twoNodeProgram().load();
  ASSERT_TRUE(bool(lp)) << llvm::toString(lp.takeError());
  isa::pb::Program edited = lp->program();
  edited.mutable_instructions(0)->set_result(999);
  auto bad = isa::VerifiedProgram::verify(std::move(edited), lp->chip());
  ASSERT_FALSE(bool(bad));
  std::string err = llvm::toString(bad.takeError());
  EXPECT_NE(err.find("out of range"), std::string::npos) << err;
}

TEST(Runtime, InconsistentOperandShapeIsAnError) {
  // Passes the verifier (arity, sizes) but [3] does not broadcast to [2, 2].
  ProgramBuilder b;
  uint32_t x = b.input("x", DType::F32, {2, 2});
  uint32_t c = b.constant<float>("c", DType::F32, {3}, {1, 2, 3});
  uint32_t o = b.output("out", DType::F32, {2, 2});
  b.inst(Opcode::Add, {x, c}, o);
  auto lp = b.load();
  ASSERT_TRUE(bool(lp)) << llvm::toString(lp.takeError());
  std::string err =
      errorOf(execute(*lp, {tensor<float>("x", DType::F32, {2, 2}, {1, 2, 3, 4})}));
  EXPECT_NE(err.find("does not broadcast"), std::string::npos) << err;
}

// The node memories are the highest byte each node's buffers reach, summed
// over nodes; a limit below that is an error naming both figures.
TEST(Runtime, MemoryNeedIsCheckedBeforeAllocating) {
  auto lp = twoNodeProgram().load();
  ASSERT_TRUE(bool(lp)) << llvm::toString(lp.takeError());
  uint64_t need = requiredMemoryBytes(lp->program());
  uint64_t perNode[2] = {0, 0};
  for (const isa::pb::Buffer &b : lp->program().buffers())
    perNode[b.node()] = std::max<uint64_t>(perNode[b.node()], b.addr() + b.bytes());
  EXPECT_EQ(need, perNode[0] + perNode[1]);
  EXPECT_FALSE(bool(checkMemoryFits(lp->program(), need)));
  llvm::Error e = checkMemoryFits(lp->program(), need - 1);
  ASSERT_TRUE(bool(e));
  EXPECT_EQ(llvm::toString(std::move(e)),
            "the program's node memories need " + std::to_string(need) +
                " bytes, more than the " + std::to_string(need - 1) +
                " bytes of memory this machine has");
  EXPECT_GT(physicalMemoryBytes(), uint64_t(1) << 20);
}

// A Machine places constants once; a constant whose bytes a later buffer
// reuses must be placed again before the next run.
TEST(Runtime, MachineRunsRepeatedlyAndRestoresOverwrittenConstants) {
  ProgramBuilder b;
  uint32_t x = b.input("x", DType::F32, {2});
  uint32_t c = b.constant<float>("c", DType::F32, {2}, {1, 2});
  uint32_t s = b.buffer("s", DType::F32, {2});
  uint32_t t = b.buffer("t", DType::F32, {2});
  uint32_t out = b.output("out", DType::F32, {2});
  b.proto().mutable_buffers(t)->set_addr(b.proto().buffers(c).addr());
  b.inst(Opcode::Add, {x, c}, s); // s = x + c
  b.inst(Opcode::Neg, {x}, t);    // t = -x, over c's bytes
  b.inst(Opcode::Add, {s, t}, out);
  auto lp = b.load();
  ASSERT_TRUE(bool(lp)) << llvm::toString(lp.takeError());
  auto m = Machine::load(*lp);
  ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError());
  for (float v : {5.0f, -3.0f}) {
    auto r = m->run({tensor<float>("x", DType::F32, {2}, {v, 2 * v})});
    ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
    EXPECT_EQ(valuesOf<float>((*r)[0].data), (std::vector<float>{1, 2}));
  }
}

// Reduced-format constants a matrix kernel reads as float are widened once
// at load and used from there; the values are those of the bytes. fp16 x
// [1, 2, 0.5] times fp8e4m3 w [[1, -2], [0.5, 1.5], [4, 0.25]] (patterns
// 0x38 0xC0 / 0x30 0x3C / 0x48 0x28: bias 7, 3 mantissa bits) is
// [1 + 1 + 2, -2 + 3 + 0.125] = [4, 1.125], fp16 0x4400 0x3C80, on every
// run; the same weights given as an input (converted per run) agree.
TEST(Runtime, WidenedConstantWeightsGiveTheValuesOfTheirBytes) {
  const std::vector<uint8_t> wBits = {0x38, 0xC0, 0x30, 0x3C, 0x48, 0x28};
  const std::vector<uint16_t> xBits = {0x3C00, 0x4000, 0x3800};
  // Without room for the float copy (budget 0) the constant is converted
  // on every run, with the same values.
  for (auto [constantWeights, budget] :
       {std::pair{true, UINT64_MAX}, {true, uint64_t(0)}, {false, UINT64_MAX}}) {
    ProgramBuilder b;
    uint32_t x = b.input("x", DType::F16, {1, 3});
    uint32_t w = constantWeights
                     ? b.constant<uint8_t>("w", DType::F8E4M3, {3, 2}, wBits)
                     : b.input("w", DType::F8E4M3, {3, 2});
    uint32_t out = b.output("out", DType::F16, {1, 2});
    b.inst(Opcode::MatMul, {x, w}, out);
    auto lp = b.load();
    ASSERT_TRUE(bool(lp)) << llvm::toString(lp.takeError());
    auto m = Machine::load(*lp, budget);
    ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError());
    std::vector<HostTensor> in = {
        tensor<uint16_t>("x", DType::F16, {1, 3}, xBits)};
    if (!constantWeights)
      in.push_back(tensor<uint8_t>("w", DType::F8E4M3, {3, 2}, wBits));
    for (int run = 0; run < 2; ++run) {
      auto r = m->run(in);
      ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
      EXPECT_EQ(valuesOf<uint16_t>((*r)[0].data),
                (std::vector<uint16_t>{0x4400, 0x3C80}))
          << (constantWeights ? "constant" : "input") << " weights, budget "
          << budget << ", run " << run;
    }
  }
}

// A program whose input and output are fp16 (lpx compile --activations
// fp16 of an fp32 model) takes fp32 data: the host rounds it to fp16 at the
// boundary, as a deployment's runtime does. 0.1 becomes 0.0999755859375
// (0x2E66), 1e5 passes fp16's largest value 65504 and becomes infinity;
// -2 is exact. The result stays fp16 and widens back exactly.
TEST(Runtime, FloatDataForAReducedFormatInputIsConvertedOnTheHost) {
  ProgramBuilder b;
  uint32_t x = b.input("x", DType::F16, {3});
  uint32_t y = b.output("y", DType::F16, {3});
  b.inst(Opcode::Neg, {x}, y);
  auto lp = b.load();
  ASSERT_TRUE(bool(lp)) << llvm::toString(lp.takeError());
  auto out = execute(*lp, {tensor<float>("x", DType::F32, {3}, {0.1f, 1e5f, -2})});
  ASSERT_TRUE(bool(out)) << llvm::toString(out.takeError());
  ASSERT_EQ((*out)[0].dtype, DType::F16);
  auto wide = convertTensor((*out)[0], DType::F32);
  ASSERT_TRUE(bool(wide)) << llvm::toString(wide.takeError());
  const std::vector<float> v = valuesOf<float>(wide->data);
  EXPECT_EQ(v[0], -0.0999755859375f);
  EXPECT_TRUE(std::isinf(v[1]) && v[1] < 0);
  EXPECT_EQ(v[2], 2.0f);
  // Integer data for a float input is still refused: only formats convert.
  std::string wrong = errorOf(execute(*lp, {tensor<int32_t>("x", DType::I32, {3}, {1, 2, 3})}));
  EXPECT_NE(wrong.find("input 'x' is i32[3], the program expects f16[3]"),
            std::string::npos) << wrong;
}
