//===- OpsetDowngradeTest.cpp - The opset 18-28 table and its rewrites ----===//
#include "OpsetDowngrade.h"

#include "lpx/Import/OpsetVersions.h"

#include <gtest/gtest.h>

#include <set>

using namespace lpx;
using namespace lpx::onnximport;

namespace {

TEST(OpsetVersionsTest, EveryRewrittenOrDecomposedVersionHasARewrite) {
  for (const OpVersionEntry &e : newerOpVersions())
    if (e.how == VersionHandling::Rewritten ||
        e.how == VersionHandling::Decomposed)
      EXPECT_TRUE(hasNodeRewrite(e.op)) << e.op << "-" << e.since;
}

TEST(OpsetVersionsTest, OneEntryPerOpVersionWithinTheKnownOpsets) {
  std::set<std::pair<std::string, int>> seen;
  for (const OpVersionEntry &e : newerOpVersions()) {
    EXPECT_TRUE(seen.insert({e.op, e.since}).second) << e.op << "-" << e.since;
    EXPECT_GT(e.since, kCheckedOpset) << e.op;
    EXPECT_LE(e.since, kNewestKnownOpset) << e.op;
    // Past kNewestOpset every version is recognised, not read.
    if (e.since > kNewestOpset)
      EXPECT_EQ(e.how, VersionHandling::Unsupported) << e.op << "-" << e.since;
  }
}

TEST(OpsetVersionsTest, AModelUsesTheNewestVersionUpToItsOpset) {
  ASSERT_NE(newerOpVersion("ReduceMax", 19), nullptr);
  EXPECT_EQ(newerOpVersion("ReduceMax", 19)->since, 18);
  EXPECT_EQ(newerOpVersion("ReduceMax", 23)->since, 20);
  EXPECT_EQ(newerOpVersion("Pad", 20)->since, 19);
  EXPECT_EQ(newerOpVersion("Relu", 23), nullptr); // Relu-14 still
  EXPECT_EQ(newerOpVersion("Gelu", 19), nullptr); // not an op before 20
  EXPECT_EQ(newerOpVersion("Attention", 25)->since, 25);
}

// ai.onnx.ml 4 (ONNX 1.15, beside opset 20) changed LabelEncoder; 5 (ONNX
// 1.16 to 1.18, beside 21 to 23) added TreeEnsemble and deprecated the
// older tree ensembles. lpx compiles none of them.
TEST(OpsetVersionsTest, MlVersionsPastThreeAreKnownAndUnsupported) {
  for (const OpVersionEntry &e : newerMlOpVersions()) {
    EXPECT_GT(e.since, kCheckedMlOpset) << e.op;
    EXPECT_LE(e.since, kNewestMlOpset) << e.op;
    EXPECT_EQ(e.how, VersionHandling::Unsupported) << e.op;
  }
  EXPECT_EQ(newerMlOpVersion("LabelEncoder", 3), nullptr); // LabelEncoder-2
  EXPECT_EQ(newerMlOpVersion("LabelEncoder", 5)->since, 4);
  EXPECT_EQ(newerMlOpVersion("TreeEnsemble", 4), nullptr); // new in 5
  EXPECT_EQ(newerMlOpVersion("TreeEnsemble", 5)->since, 5);
  EXPECT_EQ(newerMlOpVersion("TreeEnsembleRegressor", 5)->since, 5);
  EXPECT_EQ(newerMlOpVersion("Binarizer", 5), nullptr); // Binarizer-1
  EXPECT_EQ(newerOpVersion("LabelEncoder", 23), nullptr); // not default-domain
}

onnx::ModelProto modelOf(int64_t opset, const onnx::NodeProto &node,
                         std::vector<int64_t> dims) {
  onnx::ModelProto m;
  m.set_ir_version(10);
  auto *o = m.add_opset_import();
  o->set_domain("");
  o->set_version(opset);
  onnx::GraphProto &g = *m.mutable_graph();
  *g.add_node() = node;
  auto *in = g.add_input();
  in->set_name(node.input(0));
  auto *tt = in->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims)
    tt->mutable_shape()->add_dim()->set_dim_value(d);
  for (const std::string &out : node.output())
    g.add_output()->set_name(out);
  return m;
}

TEST(OpsetDowngradeTest, GeluBecomesOpset17OpsWritingTheSameOutput) {
  onnx::NodeProto gelu;
  gelu.set_op_type("Gelu");
  gelu.add_input("x");
  gelu.add_output("y");
  onnx::ModelProto m = modelOf(20, gelu, {2, 3});
  m.set_ir_version(9);
  EXPECT_TRUE(downgradeToOpset17(m, 20).empty());
  EXPECT_EQ(m.opset_import(0).version(), 17);
  EXPECT_EQ(m.ir_version(), 8);
  const onnx::GraphProto &g = m.graph();
  ASSERT_GT(g.node_size(), 1);
  std::set<std::string> ops;
  for (const auto &n : g.node()) {
    ops.insert(n.op_type());
    EXPECT_EQ(n.name().rfind("Gelu_0/", 0), 0u) << n.name(); // named after it
  }
  EXPECT_EQ(ops.count("Gelu"), 0u);
  EXPECT_EQ(ops.count("Erf"), 1u);
  EXPECT_EQ(g.node(g.node_size() - 1).output(0), "y");
}

TEST(OpsetDowngradeTest, SplitWithoutAKnownShapeIsOneProblem) {
  onnx::NodeProto split;
  split.set_op_type("Split");
  split.add_input("x");
  split.add_output("a");
  split.add_output("b");
  auto *a = split.add_attribute();
  a->set_name("num_outputs");
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(2);
  onnx::ModelProto m = modelOf(18, split, {});
  m.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()
      ->clear_shape();
  std::vector<DowngradeProblem> problems = downgradeToOpset17(m, 18);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].node, "Split_0");
  EXPECT_EQ(problems[0].version, 18);
  EXPECT_NE(problems[0].reason.find("the shape of input 'x' is not known"),
            std::string::npos)
      << problems[0].reason;

  // With the shape the sizes are ceil(5 / 2) and the rest.
  onnx::ModelProto known = modelOf(18, split, {5});
  EXPECT_TRUE(downgradeToOpset17(known, 18).empty());
  const onnx::NodeProto &n = known.graph().node(0);
  ASSERT_EQ(n.input_size(), 2);
  for (const auto &t : known.graph().initializer())
    if (t.name() == n.input(1)) {
      ASSERT_EQ(t.int64_data_size(), 2);
      EXPECT_EQ(t.int64_data(0), 3);
      EXPECT_EQ(t.int64_data(1), 2);
    }
  EXPECT_EQ(n.attribute_size(), 0); // num_outputs is gone
}

} // namespace

namespace {
/// A DequantizeLinear of a constant `w` (ONNX type `type`, raw bytes) by a
/// float scale `s`, at `opset`; `w` is an initializer unless `asInput`.
onnx::ModelProto dequantizeOf(int64_t opset, int32_t type,
                              std::vector<int64_t> dims, std::string raw,
                              std::vector<float> scale, int64_t axis,
                              int64_t block, bool asInput = false) {
  onnx::NodeProto dq;
  dq.set_op_type("DequantizeLinear");
  dq.add_input("w");
  dq.add_input("s");
  dq.add_output("y");
  auto *a = dq.add_attribute();
  a->set_name("axis");
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(axis);
  if (block) {
    auto *b = dq.add_attribute();
    b->set_name("block_size");
    b->set_type(onnx::AttributeProto::INT);
    b->set_i(block);
  }
  onnx::ModelProto m = modelOf(opset, dq, dims);
  onnx::GraphProto &g = *m.mutable_graph();
  if (!asInput) {
    g.clear_input();
    onnx::TensorProto &w = *g.add_initializer();
    w.set_name("w");
    w.set_data_type(type);
    for (int64_t d : dims)
      w.add_dims(d);
    w.set_raw_data(raw);
  } else {
    g.mutable_input(0)->mutable_type()->mutable_tensor_type()->set_elem_type(
        type);
  }
  onnx::TensorProto &s = *g.add_initializer();
  s.set_name("s");
  s.set_data_type(onnx::TensorProto::FLOAT);
  if (scale.size() > 1)
    s.add_dims(int64_t(scale.size()));
  for (float v : scale)
    s.add_float_data(v);
  return m;
}

/// The float values the folded model gives `y` (its Identity's initializer).
std::vector<float> foldedValues(const onnx::ModelProto &m) {
  const onnx::GraphProto &g = m.graph();
  for (const auto &n : g.node())
    if (n.output(0) == "y")
      for (const auto &t : g.initializer())
        if (t.name() == n.input(0))
          return {t.float_data().begin(), t.float_data().end()};
  return {};
}
} // namespace

TEST(OpsetDowngradeTest, Float8WeightFoldsToItsValuesTimesThePerAxisScale) {
  // E4M3FN: 0x38 = 2^(7-7) = 1, 0x40 = 2^(8-7) = 2, 0xB8 = -1, 0x1D =
  // 2^(3-7) * (1 + 5/8) = 0.1015625, 0x7E = 2^8 * 1.75 = 448 (the largest),
  // 0x01 = 2^-6 * 1/8 (the smallest subnormal). Scale per column (axis 1).
  std::string raw = {'\x38', '\x40', '\xB8', '\x1D', '\x7E', '\x01'};
  onnx::ModelProto m =
      dequantizeOf(19, /*FLOAT8E4M3FN*/ 17, {2, 3}, raw, {0.5f, 2, 4}, 1, 0);
  ASSERT_TRUE(downgradeToOpset17(m, 19).empty());
  EXPECT_EQ(foldedValues(m),
            (std::vector<float>{0.5f, 4, -4, 0.05078125f, 896,
                                4 * 0.001953125f}));
  for (const auto &t : m.graph().initializer()) // ONNX 1.12 sees no float8
    EXPECT_NE(t.data_type(), 17) << t.name();
}

TEST(OpsetDowngradeTest, Int4WeightFoldsPerBlockTheLowNibbleFirst) {
  // INT4 [4, 1], blocks of 2 along axis 0: bytes 0x1F (elements -1, 1) and
  // 0x87 (7, -8); scales [2, 1] of the two blocks: 0.5 and 0.25.
  std::string raw = {'\x1F', '\x87'};
  onnx::ModelProto m = dequantizeOf(21, /*INT4*/ 22, {4, 1}, raw, {}, 0, 2);
  onnx::TensorProto &s = *m.mutable_graph()->mutable_initializer(1);
  s.add_dims(2);
  s.add_dims(1);
  s.add_float_data(0.5f);
  s.add_float_data(0.25f);
  ASSERT_TRUE(downgradeToOpset17(m, 21).empty());
  EXPECT_EQ(foldedValues(m), (std::vector<float>{-0.5f, 0.5f, 1.75f, -2}));
}

TEST(OpsetDowngradeTest, Float8ActivationIsOneProblem) {
  onnx::ModelProto m =
      dequantizeOf(19, 17, {2}, "", {1.0f}, 0, 0, /*asInput=*/true);
  std::vector<DowngradeProblem> problems = downgradeToOpset17(m, 19);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].reason.find("not activations"), std::string::npos)
      << problems[0].reason;
}
