//===- ImportTest.cpp - ONNX importer tests -------------------------------===//
//
// What import does to each op is tested by lit (tests/lit/Import: ONNX
// textual models through lpx-translate --import-onnx). What stays here needs
// the API or the file system: files that are missing, empty, truncated or not
// ONNX; external data; the op list; whole ONNX backend node tests; counts of
// ops; and models the ONNX 1.12 text format cannot write (empty input or
// output names, outputs of unknown shape). Models are built in memory with
// the ONNX protobuf API, written to a temporary folder and imported.
//
//===----------------------------------------------------------------------===//
#include "lpx/Import/ONNXImporter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include "onnx/onnx_pb.h"

#include <gtest/gtest.h>

#include <optional>
#include <map>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <set>

using namespace lpx;

namespace {

//===----------------------------------------------------------------------===//
// Building models
//===----------------------------------------------------------------------===//

constexpr int kF32 = onnx::TensorProto::FLOAT;
constexpr int kI64 = onnx::TensorProto::INT64;

/// A graph under construction. Dims < 0 in inputs become symbolic ("N").
struct ModelBuilder {
  onnx::ModelProto m;

  explicit ModelBuilder(int opset = 13) {
    m.set_ir_version(8);
    auto *o = m.add_opset_import();
    o->set_domain("");
    o->set_version(opset);
    m.mutable_graph()->set_name("test");
  }
  onnx::GraphProto &g() { return *m.mutable_graph(); }

  static void setType(onnx::ValueInfoProto *vi, int elt,
                      const std::vector<int64_t> *dims) {
    auto *tt = vi->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(elt);
    if (!dims)
      return;
    auto *shape = tt->mutable_shape();
    for (int64_t d : *dims) {
      auto *dim = shape->add_dim();
      if (d >= 0)
        dim->set_dim_value(d);
      else
        dim->set_dim_param("N");
    }
  }
  void input(const std::string &name, std::vector<int64_t> dims,
             int elt = kF32) {
    auto *vi = g().add_input();
    vi->set_name(name);
    setType(vi, elt, &dims);
  }
  void output(const std::string &name, int elt = kF32) {
    auto *vi = g().add_output();
    vi->set_name(name);
    setType(vi, elt, nullptr);
  }
  onnx::NodeProto &node(const std::string &op, std::vector<std::string> ins,
                        std::vector<std::string> outs,
                        const std::string &name = "") {
    auto *n = g().add_node();
    n->set_op_type(op);
    n->set_name(name);
    for (auto &i : ins)
      n->add_input(i);
    for (auto &o : outs)
      n->add_output(o);
    return *n;
  }
  onnx::TensorProto &initF32(const std::string &name,
                             std::vector<int64_t> dims,
                             std::vector<float> values = {}) {
    auto *t = g().add_initializer();
    t->set_name(name);
    t->set_data_type(kF32);
    int64_t n = 1;
    for (int64_t d : dims) {
      t->add_dims(d);
      n *= d;
    }
    if (values.empty())
      for (int64_t i = 0; i < n; ++i)
        values.push_back(float(i) * 0.5f);
    for (float v : values)
      t->add_float_data(v);
    return *t;
  }
  onnx::TensorProto &initI64(const std::string &name,
                             std::vector<int64_t> values) {
    auto *t = g().add_initializer();
    t->set_name(name);
    t->set_data_type(kI64);
    t->add_dims(values.size());
    for (int64_t v : values)
      t->add_int64_data(v);
    return *t;
  }
};

void attrInt(onnx::NodeProto &n, const std::string &name, int64_t v) {
  auto *a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
}
void attrFloat(onnx::NodeProto &n, const std::string &name, float v) {
  auto *a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::FLOAT);
  a->set_f(v);
}
void attrInts(onnx::NodeProto &n, const std::string &name,
              std::vector<int64_t> v) {
  auto *a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (int64_t x : v)
    a->add_ints(x);
}

//===----------------------------------------------------------------------===//
// Importing
//===----------------------------------------------------------------------===//

struct Imported {
  bool ok = false;
  std::string ir;    // without locations
  std::string irLoc; // with locations
  std::string diags; // "<loc>: <message>" lines
  int numErrors = 0;
};

Imported importPath(const std::string &path, const ImportOptions &opts = {}) {
  mlir::MLIRContext ctx;
  Imported r;
  mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic &d) {
    llvm::raw_string_ostream os(r.diags);
    os << d.getLocation() << ": " << d.str() << "\n";
    if (d.getSeverity() == mlir::DiagnosticSeverity::Error)
      ++r.numErrors;
    return mlir::success();
  });
  auto module = importOnnxFile(ctx, path, opts);
  // Handy when changing messages: LPX_SHOW_DIAGS=1 prints them all.
  if (std::getenv("LPX_SHOW_DIAGS"))
    std::cerr << r.diags;
  if (failed(module)) {
    EXPECT_GT(r.numErrors, 0) << "failure without a diagnostic";
    return r;
  }
  EXPECT_EQ(r.numErrors, 0) << r.diags;
  EXPECT_TRUE(succeeded(mlir::verify(**module))) << r.diags;
  r.ok = true;
  {
    llvm::raw_string_ostream os(r.ir);
    (*module)->print(os);
  }
  {
    llvm::raw_string_ostream os(r.irLoc);
    (*module)->print(os, mlir::OpPrintingFlags().enableDebugInfo());
  }
  return r;
}

class ImportTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> d;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("lpx-import", d));
    dir = std::string(d);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }

  std::string path(const std::string &name) { return dir + "/" + name; }
  std::string write(ModelBuilder &b, const std::string &name = "model.onnx") {
    std::string p = path(name);
    std::ofstream(p, std::ios::binary) << b.m.SerializeAsString();
    return p;
  }
  void writeText(const std::string &name, const std::string &bytes) {
    std::ofstream(path(name), std::ios::binary) << bytes;
  }
  Imported import(ModelBuilder &b, const ImportOptions &opts = {}) {
    return importPath(write(b), opts);
  }

  std::string dir;
};

#define EXPECT_HAS(hay, needle)                                                \
  EXPECT_NE((hay).find(needle), std::string::npos)                             \
      << "missing: " << (needle) << "\nin:\n"                                  \
      << (hay)
#define EXPECT_HASNT(hay, needle)                                              \
  EXPECT_EQ((hay).find(needle), std::string::npos)                             \
      << "unexpected: " << (needle) << "\nin:\n"                               \
      << (hay)

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

ModelBuilder mlp() {
  ModelBuilder b;
  b.input("x", {1, 4});
  b.initF32("w1", {8, 4});
  b.initF32("b1", {8});
  b.initF32("w2", {8, 3});
  b.initF32("b2", {3});
  attrInt(b.node("Gemm", {"x", "w1", "b1"}, {"h"}, "fc1"), "transB", 1);
  b.node("Relu", {"h"}, {"r"}, "relu1");
  auto &fc2 = b.node("Gemm", {"r", "w2", "b2"}, {"y"}, "fc2");
  attrFloat(fc2, "alpha", 0.5f);
  b.output("y");
  return b;
}

TEST_F(ImportTest, OutputsMayBeInputsOrInitializers) {
  ModelBuilder b;
  b.input("x", {2});
  b.initF32("w", {2});
  b.output("x");
  b.output("w");
  Imported r = import(b);
  ASSERT_TRUE(r.ok) << r.diags;
  EXPECT_HAS(r.ir, "return %arg0, %0 : tensor<2xf32>, tensor<2xf32>");
  EXPECT_HAS(r.ir, "lpx_graph.outputs = [\"x\", \"w\"]");
}

//===----------------------------------------------------------------------===//
// External data
//===----------------------------------------------------------------------===//

ModelBuilder externalModel(const std::string &location) {
  ModelBuilder b;
  b.input("x", {2});
  auto *t = b.g().add_initializer();
  t->set_name("w");
  t->set_data_type(kF32);
  t->add_dims(2);
  t->set_data_location(onnx::TensorProto::EXTERNAL);
  auto *kv = t->add_external_data();
  kv->set_key("location");
  kv->set_value(location);
  kv = t->add_external_data();
  kv->set_key("offset");
  kv->set_value("4");
  kv = t->add_external_data();
  kv->set_key("length");
  kv->set_value("8");
  b.node("Add", {"x", "w"}, {"y"}, "add");
  b.output("y");
  return b;
}

std::string floatBytes(std::vector<float> v) {
  return std::string(reinterpret_cast<const char *>(v.data()), v.size() * 4);
}

TEST_F(ImportTest, ExternalDataInsideFolder) {
  writeText("w.bin", floatBytes({9.f, 1.5f, -2.f, 7.f}));
  ModelBuilder b = externalModel("w.bin");
  Imported r = import(b);
  ASSERT_TRUE(r.ok) << r.diags;
  EXPECT_HAS(r.ir, "dense<[1.500000e+00, -2.000000e+00]> : tensor<2xf32>");
}

TEST_F(ImportTest, ExternalDataOutsideFolderRejected) {
  ModelBuilder up = externalModel("../x.bin");
  Imported r = import(up);
  EXPECT_FALSE(r.ok);
  EXPECT_HAS(r.diags, "'../x.bin'");
  EXPECT_HAS(r.diags, "leaves the model's folder");

  ModelBuilder abs = externalModel("/etc/passwd");
  r = import(abs);
  EXPECT_FALSE(r.ok);
  EXPECT_HAS(r.diags, "'/etc/passwd' is an absolute path");
}

TEST_F(ImportTest, ExternalDataSymlinkOutsideRejected) {
  llvm::SmallString<128> other;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("lpx-import-out", other));
  std::string target = std::string(other) + "/secret.bin";
  std::ofstream(target, std::ios::binary) << floatBytes({1, 2, 3, 4});
  ASSERT_FALSE(llvm::sys::fs::create_link(target, path("link.bin")));
  ModelBuilder b = externalModel("link.bin");
  Imported r = import(b);
  EXPECT_FALSE(r.ok);
  EXPECT_HAS(r.diags, "'link.bin' resolves to");
  EXPECT_HAS(r.diags, "outside the model's folder");
  llvm::sys::fs::remove_directories(other);
}

TEST_F(ImportTest, ExternalDataTooShort) {
  writeText("w.bin", floatBytes({1.f}));
  ModelBuilder b = externalModel("w.bin");
  Imported r = import(b);
  EXPECT_FALSE(r.ok);
  EXPECT_HAS(r.diags, "exceeds the file size");
}

//===----------------------------------------------------------------------===//
// Bad files and graphs
//===----------------------------------------------------------------------===//

TEST_F(ImportTest, MissingFile) {
  Imported r = importPath(path("nope.onnx"));
  EXPECT_FALSE(r.ok);
  EXPECT_HAS(r.diags, "cannot open model");
  EXPECT_HAS(r.diags, "nope.onnx");
}

TEST_F(ImportTest, EmptyFile) {
  writeText("empty.onnx", "");
  Imported r = importPath(path("empty.onnx"));
  EXPECT_FALSE(r.ok);
  EXPECT_HAS(r.diags, "is empty");
}

TEST_F(ImportTest, TruncatedFile) {
  ModelBuilder b = mlp();
  std::string bytes = b.m.SerializeAsString();
  writeText("half.onnx", bytes.substr(0, bytes.size() / 2));
  Imported r = importPath(path("half.onnx"));
  EXPECT_FALSE(r.ok);
  EXPECT_HAS(r.diags, "is not an ONNX model");
  EXPECT_EQ(r.numErrors, 1);
}

TEST_F(ImportTest, NotOnnx) {
  writeText("notes.onnx", "hello, this is just some text\nwith two lines\n");
  Imported r = importPath(path("notes.onnx"));
  EXPECT_FALSE(r.ok);
  EXPECT_HAS(r.diags, "is not an ONNX model");
  EXPECT_EQ(r.numErrors, 1);
}

void attrString(onnx::NodeProto &n, const std::string &name,
                const std::string &v) {
  auto *a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::STRING);
  a->set_s(v);
}

TEST_F(ImportTest, AllUnsupportedNodesReported) {
  ModelBuilder b;
  b.input("x", {1, 1, 4, 4});
  b.initF32("k", {1, 1, 3, 3});
  b.node("TfIdfVectorizer", {"x", "k"}, {"a"}, "conv1");
  b.node("Relu", {"a"}, {"b"}, "relu_after_conv"); // skipped silently
  auto &custom = b.node("Frobnicate", {"x"}, {"c"}, "frob");
  custom.set_domain("com.example");
  b.node("Relu", {"x"}, {"d"}, "fine");
  b.input("s", {2}, kI64);
  b.node("Reshape", {"x", "s"}, {"e"}, "dyn_reshape");
  b.output("b");
  b.output("c");
  b.output("d");
  b.output("e");
  Imported r = import(b);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.numErrors, 3) << r.diags;
  EXPECT_HAS(r.diags, "node 'dyn_reshape' (Reshape): input 's' must be a compile-time constant");
  EXPECT_HAS(r.diags, "node 'conv1' (TfIdfVectorizer): op type 'TfIdfVectorizer' is not supported");
  EXPECT_HAS(r.diags, "node 'frob' (Frobnicate): unknown domain 'com.example'");
  EXPECT_HAS(r.diags, "loc(\"conv1\")");
}

TEST(ImportCoverage, SupportedOps) {
  std::vector<std::string> ops = supportedOnnxOps();
  for (const char *op : {"MatMul", "Gemm", "Add", "Sub", "Mul", "Div", "Pow",
                         "Sqrt", "Neg", "Relu", "Sigmoid", "Tanh", "Cast",
                         "Where", "Softmax", "ReduceMean", "Reshape",
                         "Transpose", "Concat", "Slice", "Gather", "Unsqueeze",
                         "Squeeze", "Constant"})
    EXPECT_NE(std::find(ops.begin(), ops.end(), op), ops.end()) << op;
  EXPECT_TRUE(std::is_sorted(ops.begin(), ops.end()));
}

//===----------------------------------------------------------------------===//
// ONNX backend node tests
//===----------------------------------------------------------------------===//

std::string nodeTestDir(const std::string &name) {
  return std::string(LPX_ONNX_TESTDATA) + "/node/" + name;
}

/// Imports a node test, folding the listed graph inputs (by position) from
/// test_data_set_0 as constants.
Imported importNodeTest(const std::string &name,
                        std::vector<int> constInputs = {}) {
  std::string d = nodeTestDir(name);
  ImportOptions opts;
  if (!constInputs.empty()) {
    onnx::ModelProto m;
    std::ifstream in(d + "/model.onnx", std::ios::binary);
    EXPECT_TRUE(m.ParseFromIstream(&in)) << name;
    for (int i : constInputs)
      opts.constInputs[m.graph().input(i).name()] =
          d + "/test_data_set_0/input_" + std::to_string(i) + ".pb";
  }
  return importPath(d + "/model.onnx", opts);
}

TEST(ImportNodeTests, Selected) {
  if (!llvm::sys::fs::exists(nodeTestDir("test_gemm_all_attributes")))
    GTEST_SKIP() << "libonnx-testdata is not installed";
  Imported r = importNodeTest("test_gemm_all_attributes");
  ASSERT_TRUE(r.ok) << r.diags;
  EXPECT_HAS(r.ir, "lpx_graph.gemm");
  EXPECT_HAS(r.ir, "transA = true");

  r = importNodeTest("test_slice_neg_steps", {1, 2, 3, 4});
  ASSERT_TRUE(r.ok) << r.diags;
  EXPECT_HAS(r.ir, "lpx_graph.slice");

  r = importNodeTest("test_softmax_axis_0");
  ASSERT_TRUE(r.ok) << r.diags;
  EXPECT_HAS(r.ir, "lpx_graph.softmax");

  r = importNodeTest("test_reduce_mean_keepdims_example");
  ASSERT_TRUE(r.ok) << r.diags;
  EXPECT_HAS(r.ir, "lpx_graph.reduce_mean");

  r = importNodeTest("test_reshape_negative_dim", {1});
  ASSERT_TRUE(r.ok) << r.diags;
  EXPECT_HAS(r.ir, "lpx_graph.reshape");
  EXPECT_HAS(r.ir, "tensor<2x3x4xf32> to tensor<2x6x2xf32>");
}

/// Inputs that the importer needs as constants (shape operands, an If's
/// condition), by op, and the arithmetic ops through which such an operand is
/// traced back to graph inputs ("$through"): tests/nodetests/
/// const_operands.json, which the node-test driver reads too.
struct ConstOperands {
  std::map<std::string, std::set<int>> byOp;
  std::set<std::string> through;
};

const ConstOperands &constOperands() {
  static const ConstOperands table = [] {
    ConstOperands t;
    auto buf = llvm::MemoryBuffer::getFile(LPX_CONST_OPERANDS);
    if (!buf) {
      ADD_FAILURE() << "cannot read " << LPX_CONST_OPERANDS;
      return t;
    }
    llvm::Expected<llvm::json::Value> json =
        llvm::json::parse((*buf)->getBuffer());
    const llvm::json::Object *obj = json ? json->getAsObject() : nullptr;
    if (!obj) {
      ADD_FAILURE() << LPX_CONST_OPERANDS << " is not a JSON object";
      if (!json)
        llvm::consumeError(json.takeError());
      return t;
    }
    for (const auto &[key, value] : *obj)
      if (const llvm::json::Array *list = value.getAsArray())
        for (const llvm::json::Value &v : *list) {
          if (auto idx = v.getAsInteger())
            t.byOp[key.str()].insert(int(*idx));
          else if (auto op = v.getAsString(); op && key == "$through")
            t.through.insert(op->str());
        }
    return t;
  }();
  return table;
}

bool mustBeConstant(const std::string &op, int index) {
  const auto &byOp = constOperands().byOp;
  auto it = byOp.find(op);
  return it != byOp.end() && it->second.count(index);
}

/// The values of `g` that must be compile-time constants: the operands
/// mustBeConstant names and, through the "$through" ops, what they are
/// computed from.
std::set<std::string> valuesToFold(const onnx::GraphProto &g) {
  std::set<std::string> folded;
  std::map<std::string, const onnx::NodeProto *> producer;
  for (const auto &n : g.node()) {
    for (const auto &out : n.output())
      producer[out] = &n;
    for (int i = 0; i < n.input_size(); ++i)
      if (mustBeConstant(n.op_type(), i) && !n.input(i).empty())
        folded.insert(n.input(i));
  }
  std::vector<std::string> work(folded.begin(), folded.end());
  while (!work.empty()) {
    std::string name = work.back();
    work.pop_back();
    auto p = producer.find(name);
    if (p == producer.end() ||
        !constOperands().through.count(p->second->op_type()))
      continue;
    for (const auto &in : p->second->input())
      if (!in.empty() && folded.insert(in).second)
        work.push_back(in);
  }
  return folded;
}

/// Reasons a node test whose ops all have importers may still fail to
/// import (see tests/nodetests/expectations.txt).
const char *const kExpectedFailures[] = {
    "element type STRING is not supported",
    "is not a tensor (sequences, maps and optionals are not supported)",
    "training mode",             // BatchNormalization, Dropout: training ops
    "the Indices output of MaxPool is not supported",
    "data-dependent shape: ",        // NonZero, Unique, NonMaxSuppression, ...
    "data-dependent control flow: ", // If, Loop, Scan decided at run time
};

/// Whether every node of `g`, and of the graphs in its nodes' attributes
/// (If branches), has an importer.
bool allKnown(const onnx::GraphProto &g, const std::vector<std::string> &ops) {
  for (const auto &n : g.node()) {
    if (std::find(ops.begin(), ops.end(), n.op_type()) == ops.end())
      return false;
    for (const auto &a : n.attribute())
      if (a.has_g() && !allKnown(a.g(), ops))
        return false;
  }
  return true;
}

/// Every node test whose nodes all have importers imports and verifies,
/// with shape operands folded from test_data_set_0.
TEST(ImportNodeTests, AllSupported) {
  std::string root = std::string(LPX_ONNX_TESTDATA) + "/node";
  if (!llvm::sys::fs::exists(root))
    GTEST_SKIP() << "libonnx-testdata is not installed";
  std::vector<std::string> ops = supportedOnnxOps();
  std::vector<std::string> dirs;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(root, ec), end; it != end && !ec;
       it.increment(ec))
    dirs.push_back(it->path());
  std::sort(dirs.begin(), dirs.end());
  int imported = 0;
  std::string failures;
  for (const std::string &d : dirs) {
    onnx::ModelProto m;
    std::ifstream in(d + "/model.onnx", std::ios::binary);
    if (!m.ParseFromIstream(&in))
      continue;
    bool supported = m.graph().node_size() > 0 && allKnown(m.graph(), ops);
    std::set<std::string> folded = valuesToFold(m.graph());
    // test_X_expanded is test_X's function body over the same graph inputs:
    // it pins what test_X pins (as the node-test driver does).
    llvm::StringRef dir(d);
    if (dir.ends_with("_expanded")) {
      onnx::ModelProto sib;
      std::ifstream sin(dir.drop_back(9).str() + "/model.onnx",
                        std::ios::binary);
      if (sin && sib.ParseFromIstream(&sin))
        for (const std::string &name : valuesToFold(sib.graph()))
          folded.insert(name);
    }
    if (!supported)
      continue;
    ImportOptions opts;
    for (int i = 0; i < m.graph().input_size(); ++i)
      if (folded.count(m.graph().input(i).name()))
        opts.constInputs[m.graph().input(i).name()] =
            d + "/test_data_set_0/input_" + std::to_string(i) + ".pb";
    Imported r = importPath(d + "/model.onnx", opts);
    if (r.ok)
      ++imported;
    else if (llvm::none_of(kExpectedFailures, [&](const char *why) {
               return r.diags.find(why) != std::string::npos;
             }))
      failures += llvm::sys::path::filename(d).str() + ": " + r.diags;
  }
  // The only expected failures are those with a reason listed above.
  EXPECT_EQ(failures, "");
  // 138 with ONNX 1.12's test data.
  EXPECT_GE(imported, 130);
  std::cout << "imported " << imported << " node tests\n";
}

} // namespace

//===----------------------------------------------------------------------===//
// Generic families and compile-time shape folding
//===----------------------------------------------------------------------===//

TEST_F(ImportTest, ShapeArithmeticFoldsToConstants) {
  // Shape -> Slice -> Concat -> Reshape: no instruction for the shape path.
  ModelBuilder b;
  b.input("x", {2, 3, 4});
  b.node("Shape", {"x"}, {"s"}, "shape");
  b.initI64("zero", {0});
  b.initI64("one", {1});
  b.initI64("minus1", {-1});
  b.node("Slice", {"s", "zero", "one"}, {"head"}, "head");
  b.node("Concat", {"head", "minus1"}, {"target"}, "cat").add_attribute();
  auto &cat = *b.g().mutable_node(2);
  cat.mutable_attribute(0)->set_name("axis");
  cat.mutable_attribute(0)->set_type(onnx::AttributeProto::INT);
  cat.mutable_attribute(0)->set_i(0);
  b.node("Reshape", {"x", "target"}, {"y"}, "reshape");
  b.output("y");
  Imported r = import(b);
  ASSERT_TRUE(r.ok) << r.diags;
  EXPECT_HAS(r.ir, "lpx_graph.reshape %arg0 : tensor<2x3x4xf32> to tensor<2x12xf32>");
  EXPECT_HASNT(r.ir, "lpx_graph.concat");
  EXPECT_HASNT(r.ir, "lpx_graph.slice");
}

TEST_F(ImportTest, ExporterShapeSubgraphFoldsToConstants) {
  // What PyTorch exports for x.view(x.size(0), -1) with a float detour:
  // Shape -> Cast(float) -> Gather -> Cast(int64) -> Unsqueeze -> Concat,
  // plus an Equal/Where guard on the dim and an Expand of a
  // ConstantOfShape mask. No instruction remains for any of it.
  ModelBuilder b;
  b.input("x", {2, 3, 4});
  b.node("Shape", {"x"}, {"s"}, "shape");
  attrInt(b.node("Cast", {"s"}, {"sf"}, "to_float"), "to", kF32);
  b.initI64("zero", {0}).clear_dims();
  b.node("Gather", {"sf", "zero"}, {"n_f"}, "gather");
  attrInt(b.node("Cast", {"n_f"}, {"n"}, "to_int"), "to", kI64);
  b.initI64("zero_axes", {0});
  b.node("Unsqueeze", {"n", "zero_axes"}, {"n1"}, "unsqueeze");
  b.initI64("minus1", {-1});
  b.node("Equal", {"n1", "minus1"}, {"is_neg"}, "equal");
  b.node("Where", {"is_neg", "minus1", "n1"}, {"n2"}, "where");
  auto &cat = b.node("Concat", {"n2", "minus1"}, {"target"}, "cat");
  attrInt(cat, "axis", 0);
  b.node("Reshape", {"x", "target"}, {"y"}, "reshape");
  b.initI64("last", {2});
  b.node("Gather", {"s", "last"}, {"inner"}, "inner_dim");
  b.node("ConstantOfShape", {"inner"}, {"ones"}, "mask");
  b.node("Expand", {"ones", "s"}, {"m"}, "expand");
  b.node("Add", {"x", "m"}, {"z"}, "add");
  b.output("y");
  b.output("z");
  Imported r = import(b);
  ASSERT_TRUE(r.ok) << r.diags;
  EXPECT_HAS(r.ir, "lpx_graph.reshape %arg0 : tensor<2x3x4xf32> to tensor<2x12xf32>");
  for (const char *op : {"lpx_graph.cast", "lpx_graph.gather", "lpx_graph.concat",
                         "lpx_graph.binary", "lpx_graph.where", "lpx_graph.broadcast"})
    EXPECT_HASNT(r.ir, op);
  EXPECT_HAS(r.ir, "lpx_graph.constant dense<0.000000e+00> : tensor<2x3x4xf32>");
}

TEST_F(ImportTest, RunTimeShapeNamesItsSource) {
  // The reshape target depends on the value of input 'n': the error names
  // the node computing it, the graph input it reads and how to fold it.
  ModelBuilder b;
  b.input("x", {2, 6});
  b.input("n", {1}, kI64);
  b.initI64("minus1", {-1});
  b.node("Neg", {"n"}, {"negn"}, "neg");
  attrInt(b.node("Concat", {"negn", "minus1"}, {"target"}, "cat"), "axis", 0);
  b.node("Reshape", {"x", "target"}, {"y"}, "reshape");
  b.output("y");
  Imported r = import(b);
  EXPECT_FALSE(r.ok);
  EXPECT_HAS(r.diags, "node 'reshape' (Reshape): input 'target' must be a "
                      "compile-time constant: shape computed at run time from "
                      "node 'neg' (Neg), which reads graph input 'n'; pinning "
                      "its value with --const-input n=file.pb would fold it");
}

//===----------------------------------------------------------------------===//
// Signal processing
//===----------------------------------------------------------------------===//

TEST_F(ImportTest, StftFramesByOneGather) {
  // 10 samples, frames of 4 every 3: 3 frames, 3 onesided bins; the
  // constant Hann window is folded into the matrix (no mul).
  ModelBuilder b(17);
  b.input("s", {2, 10, 1});
  b.initI64("step", {3}).clear_dims();
  b.initF32("win", {4}, {0.0f, 0.5f, 1.0f, 0.5f});
  b.node("STFT", {"s", "step", "win"}, {"y"}, "stft");
  b.output("y");
  Imported r = import(b);
  ASSERT_TRUE(r.ok) << r.diags;
  EXPECT_HAS(r.ir, "lpx_graph.gather");
  EXPECT_HAS(r.ir, "tensor<3x4xi64>) -> tensor<2x3x4x1xf32>");
  EXPECT_HAS(r.ir, "(tensor<2x3x4xf32>, tensor<4x6xf32>) -> tensor<2x3x6xf32>");
  EXPECT_HASNT(r.ir, "lpx_graph.mul");
  EXPECT_HAS(r.ir, "-> tensor<2x3x3x2xf32>");
}

//===----------------------------------------------------------------------===//
// If
//===----------------------------------------------------------------------===//

/// A branch graph computing `op`(x) into `out`.
onnx::AttributeProto branch(const std::string &attrName, const std::string &op,
                            const std::string &out) {
  onnx::AttributeProto a;
  a.set_name(attrName);
  a.set_type(onnx::AttributeProto::GRAPH);
  onnx::GraphProto *g = a.mutable_g();
  g->set_name(attrName);
  auto *n = g->add_node();
  n->set_op_type(op);
  n->add_input("x");
  n->add_output(out);
  auto *vi = g->add_output();
  vi->set_name(out);
  vi->mutable_type()->mutable_tensor_type()->set_elem_type(kF32);
  return a;
}

/// y = If(c) then Relu(x) else Neg(x), with c an initializer or an input.
ModelBuilder ifModel(std::optional<bool> cond) {
  ModelBuilder b(13);
  b.input("x", {2, 3});
  if (cond) {
    auto *t = b.g().add_initializer();
    t->set_name("c");
    t->set_data_type(onnx::TensorProto::BOOL);
    t->add_int32_data(*cond ? 1 : 0);
  } else {
    b.input("c", {}, onnx::TensorProto::BOOL);
  }
  auto &n = b.node("If", {"c"}, {"y"}, "pick");
  *n.add_attribute() = branch("then_branch", "Relu", "t");
  *n.add_attribute() = branch("else_branch", "Neg", "e");
  b.output("y");
  return b;
}

TEST_F(ImportTest, IfWithAKnownConditionInlinesTheTakenBranch) {
  ModelBuilder taken = ifModel(true), other = ifModel(false);
  Imported r = import(taken);
  ASSERT_TRUE(r.ok) << r.diags;
  EXPECT_HAS(r.ir, "lpx_graph.relu");
  EXPECT_EQ(r.ir.find("lpx_graph.neg"), std::string::npos) << r.ir;
  r = import(other);
  ASSERT_TRUE(r.ok) << r.diags;
  EXPECT_HAS(r.ir, "lpx_graph.neg");
  EXPECT_EQ(r.ir.find("lpx_graph.relu"), std::string::npos) << r.ir;
}

TEST_F(ImportTest, IfWithARuntimeConditionIsDataDependentControlFlow) {
  ModelBuilder b = ifModel(std::nullopt);
  Imported r = import(b);
  EXPECT_FALSE(r.ok);
  EXPECT_HAS(r.diags, "node 'pick' (If): data-dependent control flow: the "
                      "condition 'c' is computed at run time");
}

//===----------------------------------------------------------------------===//
// Loop and Scan (unrolled), data-dependent shapes
//===----------------------------------------------------------------------===//

/// A subgraph attribute with `ins` as its inputs, `outs` as its outputs and
/// nodes added by `build`.
onnx::AttributeProto
bodyAttr(const std::vector<std::string> &ins,
         const std::vector<std::string> &outs,
         const std::function<void(onnx::GraphProto &)> &build) {
  onnx::AttributeProto a;
  a.set_name("body");
  a.set_type(onnx::AttributeProto::GRAPH);
  onnx::GraphProto *g = a.mutable_g();
  g->set_name("body");
  for (const auto &i : ins)
    g->add_input()->set_name(i);
  build(*g);
  for (const auto &o : outs)
    g->add_output()->set_name(o);
  return a;
}

onnx::NodeProto &bodyNode(onnx::GraphProto &g, const std::string &op,
                          std::vector<std::string> ins,
                          std::vector<std::string> outs) {
  auto *n = g.add_node();
  n->set_op_type(op);
  for (auto &i : ins)
    n->add_input(i);
  for (auto &o : outs)
    n->add_output(o);
  return *n;
}

/// acc, steps = Loop(M, "", y): acc_out = acc_in + w, step = acc_out; M is
/// ceil((limit - start) / delta) computed from float scalars, as Range's
/// function expansion does: ceil((5 - 1) / 2) = 2 iterations.
ModelBuilder loopModel(bool runtimeTrips, const std::string &condOut = "c") {
  ModelBuilder b(13);
  b.input("y", {2});
  b.initF32("w", {2}, {1, 2});
  if (runtimeTrips) {
    b.input("m", {}, kI64);
  } else {
    b.initF32("start", {}, {1});
    b.initF32("limit", {}, {5});
    b.initF32("delta", {}, {2});
    b.node("Sub", {"limit", "start"}, {"d"});
    b.node("Div", {"d", "delta"}, {"q"});
    b.node("Ceil", {"q"}, {"qc"});
    attrInt(b.node("Cast", {"qc"}, {"m"}), "to", kI64);
  }
  auto &loop = b.node("Loop", {"m", "", "y"}, {"acc", "steps"}, "loop");
  *loop.add_attribute() =
      bodyAttr({"i", "c", "acc_in"}, {condOut, "acc_out", "step"},
               [](onnx::GraphProto &g) {
                 bodyNode(g, "Add", {"acc_in", "w"}, {"acc_out"});
                 bodyNode(g, "Identity", {"acc_out"}, {"step"});
               });
  b.output("acc");
  b.output("steps");
  return b;
}

TEST_F(ImportTest, LoopWithAStaticTripCountIsUnrolled) {
  ModelBuilder b = loopModel(false);
  Imported r = import(b);
  ASSERT_TRUE(r.ok) << r.diags;
  // Two iterations: two adds, each iteration's values renamed.
  EXPECT_HAS(r.irLoc, "loc(\"loop/iter0/Add_0\")");
  EXPECT_HAS(r.irLoc, "loc(\"loop/iter1/Add_0\")");
  EXPECT_HASNT(r.ir, "iter2");
  // The scan output stacks the two steps along a new axis 0.
  EXPECT_HAS(r.ir, "lpx_graph.concat");
  EXPECT_HAS(r.ir, "-> tensor<2x2xf32>");
  // The trip count's float arithmetic was folded, not compiled.
  EXPECT_HASNT(r.ir, "\"ceil\"");
  EXPECT_HASNT(r.ir, "lpx_graph.div");
}

TEST_F(ImportTest, DataDependentShapesAreReportedAsSuch) {
  ModelBuilder b(13);
  b.input("x", {2, 3});
  b.node("NonZero", {"x"}, {"y"}, "nz");
  b.output("y", kI64);
  Imported r = import(b);
  EXPECT_FALSE(r.ok);
  EXPECT_HAS(r.diags, "node 'nz' (NonZero): data-dependent shape: the number "
                      "of nonzero elements");
  // Recognised only to say why: not listed as supported.
  std::vector<std::string> ops = supportedOnnxOps();
  for (const char *op : {"NonZero", "Unique", "NonMaxSuppression", "Compress"})
    EXPECT_EQ(std::find(ops.begin(), ops.end(), op), ops.end()) << op;
  EXPECT_NE(std::find(ops.begin(), ops.end(), "Loop"), ops.end());
  EXPECT_NE(std::find(ops.begin(), ops.end(), "Scan"), ops.end());
}

TEST_F(ImportTest, MaxUnpoolScattersIntoZerosAndZeroExtends) {
  ModelBuilder b(11);
  b.input("x", {1, 1, 2, 2});
  b.input("i", {1, 1, 2, 2}, kI64);
  b.initI64("shape", {1, 1, 5, 5});
  auto &mu = b.node("MaxUnpool", {"x", "i", "shape"}, {"y"}, "unpool");
  attrInts(mu, "kernel_shape", {2, 2});
  attrInts(mu, "strides", {2, 2});
  b.output("y");
  Imported r = import(b);
  ASSERT_TRUE(r.ok) << r.diags;
  // Unpooled shape (2-1)*2 + 2 = 4 per axis: 16 elements, then one row and
  // one column of zeros to reach 5x5.
  EXPECT_HAS(r.ir, "lpx_graph.scatter_elements");
  EXPECT_HAS(r.ir, "-> tensor<16xf32>");
  EXPECT_HAS(r.ir, "-> tensor<1x1x5x4xf32>");
  EXPECT_HAS(r.ir, "-> tensor<1x1x5x5xf32>");
}

//===----------------------------------------------------------------------===//
// TopK and Einsum
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// Recurrent ops (RNN, GRU, LSTM) unrolled over the sequence
//===----------------------------------------------------------------------===//

namespace {

size_t count(const std::string &hay, const std::string &needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos;
       p = hay.find(needle, p + needle.size()))
    ++n;
  return n;
}

void initI32(ModelBuilder &b, const std::string &name,
             std::vector<int32_t> values) {
  auto *t = b.g().add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::INT32);
  t->add_dims(values.size());
  for (int32_t v : values)
    t->add_int32_data(v);
}

void attrStrings(onnx::NodeProto &n, const std::string &name,
                 std::vector<std::string> v) {
  auto *a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::STRINGS);
  for (auto &s : v)
    a->add_strings(s);
}

TEST_F(ImportTest, BidirectionalDefaultsAndInputForget) {
  // No activations: the defaults (Sigmoid, Tanh, Tanh) in both directions.
  ModelBuilder b(14);
  b.input("x", {2, 1, 2});
  b.input("w", {2, 8, 2});
  b.input("r", {2, 8, 2});
  auto &n = b.node("LSTM", {"x", "w", "r"}, {"", "yh", "yc"}, "lstm");
  attrInt(n, "hidden_size", 2);
  attrString(n, "direction", "bidirectional");
  b.output("yh");
  b.output("yc");
  Imported r = import(b);
  ASSERT_TRUE(r.ok) << r.diags;
  EXPECT_EQ(count(r.ir, "lpx_graph.sigmoid"), 2u * 2u * 3u);
  EXPECT_EQ(count(r.ir, "lpx_graph.tanh"), 2u * 2u * 2u);
  EXPECT_HAS(r.ir, "-> tensor<2x1x2xf32>"); // Y_h, Y_c [dirs, batch, hidden]

  // input_forget couples the gates: ft = 1 - it, no forget-gate sigmoid.
  attrInt(n, "input_forget", 1);
  r = import(b);
  ASSERT_TRUE(r.ok) << r.diags;
  EXPECT_EQ(count(r.ir, "lpx_graph.sigmoid"), 2u * 2u * 2u);
}

TEST_F(ImportTest, RecurrentErrorsNameTheNode) {
  auto lstm = [](std::function<void(ModelBuilder &, onnx::NodeProto &)> edit) {
    ModelBuilder b(14);
    b.input("x", {2, 1, 2});
    b.input("w", {1, 8, 2});
    b.input("r", {1, 8, 2});
    auto &n = b.node("LSTM", {"x", "w", "r"}, {"", "yh"}, "cell");
    attrInt(n, "hidden_size", 2);
    edit(b, n);
    b.output("yh");
    return b;
  };
  ModelBuilder act = lstm([](ModelBuilder &, onnx::NodeProto &n) {
    attrStrings(n, "activations", {"Sigmoid", "Gelu", "Tanh"});
  });
  Imported r = import(act);
  EXPECT_FALSE(r.ok);
  EXPECT_HAS(r.diags, "node 'cell' (LSTM): activation 'Gelu' is not supported");

  ModelBuilder count2 = lstm([](ModelBuilder &, onnx::NodeProto &n) {
    attrStrings(n, "activations", {"Sigmoid", "Tanh"});
  });
  r = import(count2);
  EXPECT_FALSE(r.ok);
  EXPECT_HAS(r.diags, "activations lists 2 functions, expected 3");

  ModelBuilder lensInput = lstm([](ModelBuilder &b, onnx::NodeProto &n) {
    b.input("lens", {1}, onnx::TensorProto::INT32);
    n.set_input(0, "x");
    n.add_input("");
    n.add_input("lens");
  });
  r = import(lensInput);
  EXPECT_FALSE(r.ok);
  EXPECT_HAS(r.diags, "node 'cell' (LSTM): input 'lens' must be a "
                      "compile-time constant");

  ModelBuilder lensRange = lstm([](ModelBuilder &b, onnx::NodeProto &n) {
    initI32(b, "lens", {3});
    n.add_input("");
    n.add_input("lens");
  });
  r = import(lensRange);
  EXPECT_FALSE(r.ok);
  EXPECT_HAS(r.diags, "sequence_lens value 3 is outside [0, 2]");
}

} // namespace
