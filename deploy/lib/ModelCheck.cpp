//===- ModelCheck.cpp - Is the file a well-formed ONNX model at all? -----===//
//
// What `lpx coverage` checks before any support analysis: a broken model is
// bad input (exit 2), not a model with unsupported operators.
//
//===----------------------------------------------------------------------===//
#include "ModelCheck.h"

#include "lpx/Import/ModelLimits.h"
#include "lpx/Import/OpsetVersions.h"
#include "lpx/Import/ShapeOnlyWeights.h"
#include "onnx/checker.h"
#include "onnx/defs/schema.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <limits>
#include <map>
#include <set>
#include <unordered_map>

using namespace lpx;
using namespace lpx::deploy;

namespace {
//===----------------------------------------------------------------------===//
// Is the file a well-formed model at all? These problems make `lpx coverage`
// fail with exit 2 before any support analysis: a broken model is bad input,
// not a model with unsupported operators.
//===----------------------------------------------------------------------===//

/// One line: the ONNX checker's messages embed multi-line node dumps.
std::string oneLine(llvm::StringRef s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
      space = !out.empty();
      continue;
    }
    if (space)
      out += ' ';
    space = false;
    out += c;
  }
  return out;
}

/// Bytes per element; 0 for STRING and unknown types (not size-checked).
unsigned elementBytes(int32_t type) {
  switch (type) {
  case onnx::TensorProto::BOOL:
  case onnx::TensorProto::INT8:
  case onnx::TensorProto::UINT8: return 1;
  case onnx::TensorProto::FLOAT16:
  case onnx::TensorProto::BFLOAT16:
  case onnx::TensorProto::INT16:
  case onnx::TensorProto::UINT16: return 2;
  case onnx::TensorProto::FLOAT:
  case onnx::TensorProto::INT32:
  case onnx::TensorProto::UINT32: return 4;
  case onnx::TensorProto::DOUBLE:
  case onnx::TensorProto::INT64:
  case onnx::TensorProto::UINT64:
  case onnx::TensorProto::COMPLEX64: return 8;
  case onnx::TensorProto::COMPLEX128: return 16;
  default: return 0;
  }
}

std::string dimsString(llvm::ArrayRef<int64_t> dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    s += (i ? "," : "") + std::to_string(dims[i]);
  return s + "]";
}

/// Checks known dims: none negative, and the element count times the element
/// size fits in int64. `elements` gets the element count (known dims only).
std::string checkDims(llvm::ArrayRef<int64_t> dims, unsigned width,
                      const std::string &what, int64_t &elements) {
  elements = 1;
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i] < 0)
      return what + " has negative dim " + std::to_string(dims[i]) +
             " (dimension " + std::to_string(i) + " of " + dimsString(dims) +
             ")";
  for (int64_t d : dims)
    if (__builtin_mul_overflow(elements, d, &elements))
      return what + " has dims " + dimsString(dims) +
             " whose element count overflows int64";
  int64_t bytes;
  if (__builtin_mul_overflow(elements, int64_t(std::max(width, 1u)), &bytes))
    return what + " has dims " + dimsString(dims) +
           " whose size in bytes overflows int64";
  return "";
}

/// A graph input, output or value_info: dims of tensor types.
std::string checkValueInfo(const onnx::ValueInfoProto &v,
                           const std::string &what) {
  if (!v.type().has_tensor_type() || !v.type().tensor_type().has_shape())
    return "";
  std::vector<int64_t> dims;
  for (const auto &d : v.type().tensor_type().shape().dim())
    if (d.has_dim_value())
      dims.push_back(d.dim_value());
  int64_t elements;
  return checkDims(dims, elementBytes(v.type().tensor_type().elem_type()),
                   what + " '" + v.name() + "'", elements);
}

/// Where an external tensor's bytes are, without reading them: the location
/// must stay inside the model's folder (checked on the text first, so a path
/// that leaves the folder is never touched), and offset/length must lie in
/// the file. Returns the tensor's byte count in `bytes`.
std::string checkExternal(const onnx::TensorProto &t, const std::string &what,
                          llvm::StringRef modelDir, uint64_t &bytes) {
  namespace fs = llvm::sys::fs;
  namespace path = llvm::sys::path;
  std::string location;
  int64_t offset = 0, length = -1;
  for (const auto &kv : t.external_data()) {
    int64_t *slot = kv.key() == "offset"   ? &offset
                    : kv.key() == "length" ? &length
                                           : nullptr;
    if (kv.key() == "location")
      location = kv.value();
    else if (slot && (llvm::StringRef(kv.value()).getAsInteger(10, *slot) ||
                      *slot < 0))
      return what + ": external data " + kv.key() + " '" + kv.value() +
             "' is not a non-negative integer";
  }
  if (location.empty())
    return what + " has external data without a location";
  std::string where = what + ": external data '" + location + "'";
  if (path::is_absolute(location, path::Style::posix) ||
      path::is_absolute(location, path::Style::windows) ||
      llvm::StringRef(location).starts_with("\\"))
    return where + " is an absolute path; external data must be inside the "
                   "model's folder";
  for (llvm::StringRef part : llvm::split(location, '/'))
    for (llvm::StringRef piece : llvm::split(part, '\\'))
      if (piece == "..")
        return where + " leaves the model's folder ('..')";
  // A symlink inside the folder may still point outside: resolve it (this
  // stats, it does not open).
  llvm::SmallString<256> realDir, realFile, joined(modelDir);
  path::append(joined, location);
  if (fs::real_path(modelDir, realDir))
    return "cannot resolve the model's folder '" + modelDir.str() + "'";
  if (std::error_code ec = fs::real_path(joined, realFile))
    return where + " cannot be found: " + ec.message();
  llvm::StringRef prefix = realDir;
  if (!llvm::StringRef(realFile).starts_with(prefix) ||
      realFile.size() <= prefix.size() ||
      !path::is_separator(realFile[prefix.size()]))
    return where + " resolves to '" + realFile.str().str() +
           "', outside the model's folder";
  fs::file_status st;
  if (fs::status(realFile, st) || !fs::is_regular_file(st))
    return where + " is not a regular file";
  uint64_t size = st.getSize();
  if (uint64_t(offset) > size)
    return where + ": offset " + std::to_string(offset) +
           " is past the end of the file (" + std::to_string(size) +
           " bytes)";
  if (length < 0)
    length = int64_t(size - uint64_t(offset));
  if (uint64_t(offset) + uint64_t(length) > size)
    return where + ": offset " + std::to_string(offset) + " + length " +
           std::to_string(length) + " exceeds the file (" +
           std::to_string(size) + " bytes)";
  bytes = uint64_t(length);
  return "";
}

/// An initializer or Constant value: dims, and the stored data against them.
std::string checkTensor(const onnx::TensorProto &t, const std::string &what,
                        llvm::StringRef modelDir) {
  using TP = onnx::TensorProto;
  unsigned width = elementBytes(t.data_type());
  int64_t n;
  std::vector<int64_t> dims(t.dims().begin(), t.dims().end());
  if (std::string e = checkDims(dims, width, what, n); !e.empty())
    return e;
  auto mismatch = [&](const std::string &field, uint64_t have,
                      uint64_t want, const char *unit) {
    return what + ": " + field + " holds " + std::to_string(have) + " " +
           unit + " but dims " + dimsString(dims) + " of " +
           TP::DataType_Name(TP::DataType(t.data_type())) + " need " +
           std::to_string(want);
  };
  if (isShapeOnlyTensor(t))
    return ""; // dims only, by design: nothing to read or compare
  if (t.data_location() == TP::EXTERNAL) {
    uint64_t bytes = 0;
    if (std::string e = checkExternal(t, what, modelDir, bytes); !e.empty())
      return e;
    if (width && bytes != uint64_t(n) * width)
      return mismatch("external data", bytes, uint64_t(n) * width, "bytes");
    return "";
  }
  if (!TP::DataType_IsValid(t.data_type()) ||
      t.data_type() == TP::UNDEFINED)
    return ""; // the ONNX checker names it
  if (t.has_raw_data()) {
    if (width && t.raw_data().size() != uint64_t(n) * width)
      return mismatch("raw_data", t.raw_data().size(), uint64_t(n) * width,
                      "bytes");
    return "";
  }
  // Typed fields; complex numbers take two values each.
  int have = -1;
  uint64_t want = uint64_t(n);
  switch (t.data_type()) {
  case TP::FLOAT: have = t.float_data_size(); break;
  case TP::COMPLEX64: have = t.float_data_size(); want *= 2; break;
  case TP::DOUBLE: have = t.double_data_size(); break;
  case TP::COMPLEX128: have = t.double_data_size(); want *= 2; break;
  case TP::INT64: have = t.int64_data_size(); break;
  case TP::UINT32:
  case TP::UINT64: have = t.uint64_data_size(); break;
  case TP::STRING: have = t.string_data_size(); break;
  default: have = t.int32_data_size(); break;
  }
  if (uint64_t(have) != want)
    return mismatch("the typed data field", uint64_t(have), want, "values");
  return "";
}

/// The graph as a dependency graph: every node input defined, no cycle,
/// every graph output produced.
std::string checkGraphStructure(const onnx::GraphProto &g) {
  std::set<std::string> defined;
  for (const auto &v : g.input())
    defined.insert(v.name());
  for (const auto &t : g.initializer())
    defined.insert(t.name());
  std::map<std::string, int> producer;
  for (int i = 0; i < g.node_size(); ++i)
    for (const std::string &out : g.node(i).output())
      if (!out.empty() && !defined.count(out))
        producer.emplace(out, i);
  auto label = [&](int i) {
    return "'" + nodeName(g.node(i), i) + "' (" + g.node(i).op_type() + ")";
  };
  // Edges producer -> consumer, for Kahn's algorithm.
  std::vector<std::vector<int>> users(g.node_size());
  std::vector<int> pending(g.node_size(), 0);
  for (int i = 0; i < g.node_size(); ++i)
    for (const std::string &in : g.node(i).input()) {
      if (in.empty() || defined.count(in))
        continue;
      auto p = producer.find(in);
      if (p == producer.end())
        return "node " + label(i) + " reads '" + in +
               "', which is never produced (no node, graph input or "
               "initializer defines it)";
      users[p->second].push_back(i);
      ++pending[i];
    }
  for (const auto &out : g.output())
    if (!defined.count(out.name()) && !producer.count(out.name()))
      return "graph output '" + out.name() + "' is never produced";
  std::vector<int> ready;
  for (int i = 0; i < g.node_size(); ++i)
    if (pending[i] == 0)
      ready.push_back(i);
  int done = 0;
  while (!ready.empty()) {
    int i = ready.back();
    ready.pop_back();
    ++done;
    for (int u : users[i])
      if (--pending[u] == 0)
        ready.push_back(u);
  }
  if (done == g.node_size())
    return "";
  // Every node left waits on a producer that is left too: walk from consumer
  // to producer until a node repeats; the repeat closes a cycle.
  auto waitsOn = [&](int i) {
    for (const std::string &in : g.node(i).input()) {
      auto p = in.empty() || defined.count(in) ? producer.end()
                                               : producer.find(in);
      if (p != producer.end() && pending[p->second] > 0)
        return p->second;
    }
    return i; // unreachable: node i is left, so it waits on something
  };
  int start = 0;
  while (pending[start] == 0)
    ++start;
  std::vector<int> walk;
  std::map<int, size_t> seen;
  int i = start;
  while (!seen.count(i)) {
    seen[i] = walk.size();
    walk.push_back(i);
    i = waitsOn(i);
  }
  // Data flows from i to walk.back() and back along the walk to i.
  std::string cycle = label(i);
  for (size_t k = walk.size(); k-- > seen[i];)
    cycle += " -> " + label(walk[k]);
  return "the graph has a cycle: " + cycle + " (ONNX graphs must be acyclic)";
}

} // namespace

/// Every structural problem is an error naming it; a well-formed model
/// passes, whatever operators it uses.
llvm::Error lpx::deploy::checkModel(const onnx::ModelProto &model,
                                    const std::string &path) {
  auto bad = [&](const std::string &msg) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "'" + path + "' is not a valid model: " +
                                       oneLine(msg));
  };
  const onnx::GraphProto &g = model.graph();
  llvm::SmallString<256> dir(path);
  llvm::sys::path::remove_filename(dir);
  if (dir.empty())
    dir = ".";

  for (const auto &v : g.input())
    if (std::string e = checkValueInfo(v, "graph input"); !e.empty())
      return bad(e);
  for (const auto &v : g.output())
    if (std::string e = checkValueInfo(v, "graph output"); !e.empty())
      return bad(e);
  for (const auto &v : g.value_info())
    if (std::string e = checkValueInfo(v, "value_info"); !e.empty())
      return bad(e);
  for (const auto &t : g.initializer())
    if (std::string e = checkTensor(t, "initializer '" + t.name() + "'", dir);
        !e.empty())
      return bad(e);
  for (int i = 0; i < g.node_size(); ++i)
    for (const auto &a : g.node(i).attribute())
      if (a.has_t())
        if (std::string e = checkTensor(
                a.t(), "tensor attribute '" + a.name() + "' of node '" +
                           nodeName(g.node(i), i) + "'", dir);
            !e.empty())
          return bad(e);
  // The importer's bounds (node count, subgraph depth, tensor sizes) before
  // the graph walks below, so a hostile model costs no more than this.
  if (llvm::Error e = onnximport::checkModelLimits(model))
    return bad(llvm::toString(std::move(e)));
  if (std::string e = checkGraphStructure(g); !e.empty())
    return bad(e);

  // ONNX's own checker for the rest (names, SSA form, node arity and
  // attributes against the schemas). Our ONNX library may be older than the
  // model: where it does not know an operator at the model's opset, or only
  // knows it as experimental, the checker is skipped; the importer reports
  // those nodes as unsupported.
  std::unordered_map<std::string, int> opsets;
  for (const auto &o : model.opset_import())
    opsets[o.domain()] = int(o.version());
  if (model.ir_version() >= 3 && opsets.empty())
    return bad("the model imports no opset (IR version >= 3 needs one)");
  for (const char *alias : {"", "ai.onnx"})
    if (!opsets.count(alias) && opsets.count(alias[0] ? "" : "ai.onnx"))
      opsets[alias] = opsets[alias[0] ? "" : "ai.onnx"];
  // Past opset 17 the importer checks the nodes (ONNX 1.12 has older schemas).
  if (opsets.count("") && opsets[""] > kCheckedOpset)
    return llvm::Error::success();
  for (const auto &n : g.node()) {
    llvm::StringRef domain = n.domain();
    bool builtin = domain.empty() || domain == "ai.onnx" ||
                   domain == "ai.onnx.ml" || domain == "ai.onnx.training";
    auto v = opsets.find(n.domain());
    if (onnx::checker::check_is_experimental_op(n.op_type()) ||
        (builtin && v != opsets.end() &&
         !onnx::OpSchemaRegistry::Schema(n.op_type(), v->second,
                                         n.domain())))
      return llvm::Error::success();
  }
  // Element types newer than our ONNX library (float8, int4, ...) likewise.
  auto known = [](int32_t type) {
    return onnx::TensorProto::DataType_IsValid(type);
  };
  for (const auto &t : g.initializer())
    if (!known(t.data_type()))
      return llvm::Error::success();
  for (const auto *list : {&g.input(), &g.output(), &g.value_info()})
    for (const auto &v : *list)
      if (v.type().has_tensor_type() &&
          !known(v.type().tensor_type().elem_type()))
        return llvm::Error::success();
  try {
    onnx::checker::CheckerContext ctx;
    ctx.set_ir_version(int(model.ir_version()));
    ctx.set_opset_imports(opsets);
    ctx.set_model_dir(std::string(dir) + "/");
    onnx::checker::LexicalScopeContext lex;
    onnx::checker::check_graph(g, ctx, lex);
  } catch (const std::exception &e) {
    return bad(std::string("ONNX checker: ") + e.what());
  }
  return llvm::Error::success();
}
