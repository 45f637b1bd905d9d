//===- Coverage.cpp - Can this model run on the chip, and what blocks it? -===//
#include "lpx/deploy/Coverage.h"
#include "lpx/deploy/ChipSearch.h"
#include "lpx/deploy/Evaluate.h"
#include "lpx/deploy/FitVerdict.h"
#include "ModelCheck.h"

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
    const OpVersionEntry *e = c.domain.empty() ? newerOpVersion(c.opType, opset)
                              : c.domain == "ai.onnx.ml"
                                  ? newerMlOpVersion(c.opType, opset)
                                  : nullptr;
    if (e)
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

llvm::Expected<std::vector<ModelCoverage>>
lpx::deploy::analyzeModels(const std::vector<std::string> &paths,
                           const ImportOptions &import,
                           const std::string &chip) {
  if (auto spec = isa::loadChipSpec(chip); !spec)
    return spec.takeError();
  std::vector<ModelCoverage> reports;
  for (const std::string &model : paths) {
    auto cov = analyzeModel(model, import, chip);
    if (!cov)
      return cov.takeError();
    reports.push_back(std::move(*cov));
  }
  return reports;
}
