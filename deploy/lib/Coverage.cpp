//===- Coverage.cpp - Can this model run on the chip, and what blocks it? -===//
#include "lpx/deploy/Coverage.h"
#include "lpx/deploy/ChipSearch.h"
#include "lpx/deploy/Evaluate.h"
#include "lpx/deploy/FitVerdict.h"

#include "lpx/Driver/Compile.h"
#include "lpx/Import/ModelLimits.h"
#include "lpx/Import/OpsetVersions.h"
#include "lpx/Import/ShapeOnlyWeights.h"
#include "lpx/isa/Program.h"
#include "lpx/isa/Topology.h"
#include "lpx/sim/Simulator.h"

#include "mlir/IR/Diagnostics.h"
#include "onnx/checker.h"
#include "onnx/defs/schema.h"
#include "onnx/onnx_pb.h"
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

unsigned ModelCoverage::supported() const {
  unsigned n = 0;
  for (const NodeCoverage &c : nodes)
    n += c.status != NodeStatus::Unsupported;
  return n;
}

unsigned ModelCoverage::folded() const {
  unsigned n = 0;
  for (const NodeCoverage &c : nodes)
    n += c.status == NodeStatus::Folded;
  return n;
}

/// Whether lpx compiles the op type at all (some uses may still fail).
static bool knownOpType(const NodeCoverage &c) {
  static const std::set<std::string> handled = [] {
    std::vector<std::string> ops = supportedOnnxOps();
    return std::set<std::string>(ops.begin(), ops.end());
  }();
  return c.domain.empty() && handled.count(c.opType);
}

std::vector<std::string> ModelCoverage::missingOpTypes() const {
  std::set<std::string> types;
  for (const NodeCoverage &c : nodes)
    if (c.status == NodeStatus::Unsupported && !c.runTimeShape() &&
        !knownOpType(c))
      types.insert((c.domain.empty() ? "" : c.domain + ".") + c.opType);
  return {types.begin(), types.end()};
}

std::vector<std::string> ModelCoverage::unsupportedUses() const {
  std::vector<std::string> uses;
  for (const NodeCoverage &c : nodes) {
    std::string use = c.opType + " (" + c.reason + ")";
    if (c.status == NodeStatus::Unsupported &&
        (knownOpType(c) || c.runTimeShape()) && !llvm::is_contained(uses, use))
      uses.push_back(use);
  }
  return uses;
}

bool ModelCoverage::portable() const {
  return modelErrors.empty() && costError.empty() &&
         supported() == nodes.size();
}

namespace {

/// The importer's name for a node (see ONNXImporter.h).
std::string nodeName(const onnx::NodeProto &n, int index) {
  return n.name().empty() ? n.op_type() + "_" + std::to_string(index)
                          : n.name();
}

/// Diagnostics of one compiler run, split by the node they name.
struct Collected {
  std::map<std::string, std::string> byNode;
  std::vector<std::string> other;
};

mlir::LogicalResult collect(Collected &out, mlir::Diagnostic &d) {
  if (d.getSeverity() != mlir::DiagnosticSeverity::Error)
    return mlir::success();
  std::string msg = d.str();
  if (auto name = llvm::dyn_cast<mlir::NameLoc>(d.getLocation())) {
    std::string node = name.getName().str();
    // The importer's messages already say "node 'N' (Op): "; keep the why.
    size_t colon = msg.find("): ");
    if (llvm::StringRef(msg).starts_with("node '") &&
        colon != std::string::npos)
      msg = msg.substr(colon + 3);
    out.byNode.emplace(node, msg);
  } else {
    out.other.push_back(msg);
  }
  return mlir::success();
}

/// Compiles for the fewest chips that hold the model (1, 2, 4, ...:
/// doublingPolicy), then simulates.
void estimateCost(ModelCoverage &cov, const std::string &path,
                  const ImportOptions &import, const std::string &chipName) {
  // Simulated on the description the program embeds, as `lpx simulate`
  // of its file would.
  auto chip = isa::loadChipSpec(chipName);
  if (chip)
    chip = asEmbedded(*chip);
  if (!chip) {
    cov.costError = llvm::toString(chip.takeError());
    return;
  }
  std::string lastError;
  std::optional<Evaluation> fit;
  std::optional<Collected> blocking; // a compile error more chips won't cure
  auto trial = [&](unsigned nodes) -> llvm::Expected<ChipTrial> {
    EvaluateOptions opts;
    opts.import = import;
    opts.compile = CompileOptions{nodes};
    Collected diags;
    opts.onDiagnostic = [&](mlir::Diagnostic &d) { (void)collect(diags, d); };
    Evaluation e = evaluate(path, *chip, opts);
    if (e.failedAt == EvaluateStage::Compile) {
      lastError = !diags.other.empty()    ? diags.other.front()
                  : !diags.byNode.empty() ? diags.byNode.begin()->second
                                          : "compilation failed";
      // More chips help only a model whose resident data do not fit.
      if (fitVerdict(e.fit, lastError).doesNotFit)
        return ChipTrial{ChipTrial::DoesNotFit};
      blocking = std::move(diags);
      return ChipTrial{ChipTrial::Fails};
    }
    fit.emplace(std::move(e));
    return ChipTrial{ChipTrial::Fits};
  };
  ChipSearchResult search =
      llvm::cantFail(findFewestChips(doublingPolicy(*chip), trial));
  if (blocking) {
    // More chips will not help: the compile's error blocks the model, on
    // the node it names.
    if (blocking->other.empty() && !blocking->byNode.empty()) {
      const auto &[name, why] = *blocking->byNode.begin();
      for (NodeCoverage &n : cov.nodes)
        if (n.importName == name) {
          n.status = NodeStatus::Unsupported;
          n.reason = why;
          return;
        }
      cov.modelErrors.push_back("node '" + name + "': " + why);
    } else {
      cov.modelErrors.push_back(lastError);
    }
    return;
  }
  if (!fit) {
    cov.costError = lastError.empty() ? "no chip count holds the model"
                                      : lastError;
    return;
  }
  if (!fit->ok()) {
    cov.costError = fit->error;
    return;
  }
  const isa::pb::Program &program = fit->program->program();
  PortCost cost;
  cost.chip = chip->name;
  cost.nodes = *search.chips;
  for (const auto &b : program.buffers())
    if (b.kind() == isa::pb::CONSTANT)
      cost.weightBytes += b.bytes();
  cost.cycles = fit->sim->totalCycles;
  cost.seconds = fit->sim->seconds;
  cost.hostSeconds = (fit->sim->hostInputUs + fit->sim->hostOutputUs) * 1e-6;
  cov.cost = cost;
  // Nodes that left no instruction were resolved at compile time.
  std::set<std::string> executed;
  for (const auto &inst : program.instructions())
    executed.insert(inst.origin());
  // A node rewritten into several (opsets 18+) names its parts "name/...".
  auto ran = [&](const std::string &name) {
    auto part = executed.lower_bound(name + "/");
    return executed.count(name) ||
           (part != executed.end() && part->rfind(name + "/", 0) == 0);
  };
  for (NodeCoverage &n : cov.nodes)
    if (n.status == NodeStatus::Supported && !ran(n.importName))
      n.status = NodeStatus::Folded;
}

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

/// Every structural problem is an error naming it; a well-formed model
/// passes, whatever operators it uses.
llvm::Error checkModel(const onnx::ModelProto &model, const std::string &path) {
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

/// Lists the nodes of `g`, subgraphs included (listed as
/// `If_3/then/LSTM_7`), with the status the importer's diagnostics give
/// them. `prefix` is the listed path, `importPrefix` the importer's prefix
/// for unnamed nodes (ControlFlowImporters.cpp: `If_3/then_branch/`, a
/// Loop's or Scan's first iteration `Loop_1/iter0/`, where named nodes are
/// renamed too).
void listNodes(ModelCoverage &cov, const onnx::GraphProto &g,
               const std::string &prefix, const std::string &importPrefix,
               std::map<std::string, int> &opsets, const Collected &diags,
               std::set<std::string> &matched, bool renamed = false) {
  for (int i = 0; i < g.node_size(); ++i) {
    const onnx::NodeProto &n = g.node(i);
    NodeCoverage c;
    c.name = prefix + nodeName(n, i);
    c.importName = n.name().empty() || renamed ? importPrefix + nodeName(n, i)
                                               : n.name();
    c.opType = n.op_type();
    c.domain = n.domain() == "ai.onnx" ? "" : n.domain();
    int opset = opsets.count(c.domain) ? opsets[c.domain] : 0;
    if (const onnx::OpSchema *s = onnx::OpSchemaRegistry::Schema(
            c.opType, opset, c.domain))
      c.opsetVersion = s->since_version();
    if (auto *e = c.domain.empty() ? newerOpVersion(c.opType, opset) : nullptr)
      c.opsetVersion = e->since;
    auto it = diags.byNode.find(c.importName);
    if (it != diags.byNode.end()) {
      c.status = NodeStatus::Unsupported;
      c.reason = it->second;
      matched.insert(it->first);
    }
    cov.nodes.push_back(c);
    for (const auto &a : n.attribute()) {
      if (!a.has_g())
        continue;
      llvm::StringRef attr = a.name();
      std::string shortName = attr.ends_with("_branch")
                                  ? attr.drop_back(7).str()
                                  : attr.str();
      bool loop = n.op_type() == "Loop" || n.op_type() == "Scan";
      listNodes(cov, a.g(), c.name + "/" + shortName + "/",
                c.importName + (loop ? "/iter0/" : "/" + attr.str() + "/"),
                opsets, diags, matched, renamed || loop);
    }
  }
}

} // namespace

llvm::Expected<ModelCoverage>
lpx::deploy::analyzeModel(const std::string &path, const ImportOptions &import,
                       const std::string &chip) {
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file)
    return llvm::createStringError(file.getError(), "cannot read '%s': %s",
                                   path.c_str(),
                                   file.getError().message().c_str());
  onnx::ModelProto model;
  llvm::StringRef bytes = (*file)->getBuffer();
  if (bytes.size() >= size_t(std::numeric_limits<int>::max()))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "'%s' is 2 GiB or more; protobuf cannot parse it (store the weights "
        "as external data)",
        path.c_str());
  // Arbitrary bytes sometimes parse as a message of unknown fields; a model
  // needs at least a graph and an IR version.
  if (bytes.empty() || !model.ParseFromArray(bytes.data(), int(bytes.size())) ||
      !model.has_graph() || model.ir_version() <= 0)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "'%s' is not an ONNX model (empty, truncated, or not a ModelProto)",
        path.c_str());
  // A broken model is bad input, whatever its operators.
  if (llvm::Error e = checkModel(model, path))
    return std::move(e);

  ModelCoverage cov;
  cov.model = path;
  std::map<std::string, int> opsets;
  for (const auto &o : model.opset_import())
    opsets[o.domain() == "ai.onnx" ? "" : o.domain()] = int(o.version());
  cov.opset = opsets.count("") ? opsets[""] : 0;

  // The importer reports every node it cannot handle, with the reason.
  auto ctx = makeCompilerContext();
  Collected diags;
  {
    mlir::ScopedDiagnosticHandler h(
        ctx.get(), [&](mlir::Diagnostic &d) { return collect(diags, d); });
    (void)importOnnxFile(*ctx, path, import);
  }
  // An option that names no input, or does not fit it, is a usage error
  // (exit 2), as in `lpx compile`, not a verdict on the model.
  for (const std::string &e : diags.other)
    if (llvm::StringRef(e).starts_with("--input-shape") ||
        llvm::StringRef(e).starts_with("--const-input"))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "%s: %s", path.c_str(), e.c_str());
  std::set<std::string> matched;
  listNodes(cov, model.graph(), "", "", opsets, diags, matched);
  cov.modelErrors = diags.other;
  // A node the importer named that is not listed (it should be): its
  // problem still blocks the model.
  for (const auto &[name, why] : diags.byNode)
    if (!matched.count(name))
      cov.modelErrors.push_back("node '" + name + "': " + why);
  if (cov.portable())
    estimateCost(cov, path, import, chip);
  return cov;
}
