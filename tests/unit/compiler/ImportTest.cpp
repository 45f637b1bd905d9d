//===- ImportTest.cpp - ONNX importer tests -------------------------------===//
//
// What import does to each op, and the errors it reports, are tested by lit
// (tests/lit/Import: ONNX textual models, or backend node tests, through
// lpx-translate --import-onnx). What stays here cannot be said there: files
// that are missing, empty, truncated or not ONNX, and external data beside
// the model (the ONNX text format cannot refer to external data); the op
// list (a C++ API with no command-line form); and every backend node test
// with its shape operands folded, which needs the const-operand table.
// Models are built in memory with the ONNX protobuf API, written to a
// temporary folder and imported.
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

//===----------------------------------------------------------------------===//
// Importing
//===----------------------------------------------------------------------===//

struct Imported {
  bool ok = false;
  std::string ir;    // without locations
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
// Data-dependent shapes
//===----------------------------------------------------------------------===//

// The message is checked in lit (Import/data-dependent-shapes-are-reported-
// as-such.onnxtxt); which ops the importer lists as supported is a C++ API
// (supportedOnnxOps) with no command-line form, so it stays here.
TEST(ImportCoverage, DataDependentShapeOpsAreNotListedAsSupported) {
  // Recognised only to say why: not listed as supported.
  std::vector<std::string> ops = supportedOnnxOps();
  for (const char *op : {"NonZero", "Unique", "NonMaxSuppression", "Compress"})
    EXPECT_EQ(std::find(ops.begin(), ops.end(), op), ops.end()) << op;
  EXPECT_NE(std::find(ops.begin(), ops.end(), "Loop"), ops.end());
  EXPECT_NE(std::find(ops.begin(), ops.end(), "Scan"), ops.end());
}
