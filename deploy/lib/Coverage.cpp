//===- Coverage.cpp - Can this model run on the chip, and what blocks it? -===//
#include "lpx/deploy/Coverage.h"
#include "lpx/deploy/ChipSearch.h"
#include "lpx/deploy/Evaluate.h"
#include "lpx/deploy/FitFailure.h"
#include "ModelCheck.h"

#include "lpx/Driver/Compile.h"
#include "lpx/isa/Program.h"
#include "lpx/sim/Simulator.h"

#include "mlir/IR/Diagnostics.h"
#include "onnx/defs/schema.h"
#include "onnx/onnx_pb.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include <limits>
#include <map>
#include <set>

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

std::vector<std::string> ModelCoverage::missingOpTypes() const {
  std::set<std::string> types;
  for (const NodeCoverage &c : nodes)
    if (c.status == NodeStatus::Unsupported && !c.runTimeShape())
      types.insert((c.domain.empty() ? "" : c.domain + ".") + c.opType);
  return {types.begin(), types.end()};
}

bool ModelCoverage::portable() const {
  return modelErrors.empty() && supported() == nodes.size();
}

namespace {

/// Diagnostics of one compiler run, split by the node they name.
struct Collected {
  std::map<std::string, std::string> byNode;
  std::vector<std::string> other;
};

/// One error diagnostic: `node` is the node it is located at, if any.
void add(Collected &out, const std::optional<std::string> &node,
         std::string msg) {
  if (!node) {
    out.other.push_back(std::move(msg));
    return;
  }
  // The importer's messages already say "node 'N' (Op): "; keep the why.
  size_t colon = msg.find("): ");
  if (llvm::StringRef(msg).starts_with("node '") && colon != std::string::npos)
    msg = msg.substr(colon + 3);
  out.byNode.emplace(*node, std::move(msg));
}

mlir::LogicalResult collect(Collected &out, mlir::Diagnostic &d) {
  if (d.getSeverity() != mlir::DiagnosticSeverity::Error)
    return mlir::success();
  std::optional<std::string> node;
  if (auto name = llvm::dyn_cast<mlir::NameLoc>(d.getLocation()))
    node = name.getName().str();
  add(out, node, d.str());
  return mlir::success();
}

/// The first error of a compile as coverage reports it: one not tied to a
/// node first, else the first node's reason.
std::string firstError(const Evaluation &e) {
  Collected diags;
  for (const CompileDiagnostic &d : e.diagnostics)
    add(diags, d.node, d.message);
  return !diags.other.empty()    ? diags.other.front()
         : !diags.byNode.empty() ? diags.byNode.begin()->second
                                 : "compilation failed";
}

/// Compiles for the fewest chips that hold the model (1, 2, 4, ...:
/// doublingPolicy), then simulates.
void estimateCost(ModelCoverage &cov, const std::string &path,
                  const ImportOptions &import, const std::string &chipName) {
  auto loaded = isa::loadChipSpec(chipName);
  if (!loaded) {
    cov.costError = llvm::toString(loaded.takeError());
    return;
  }
  // Simulated on the description the program embeds, as `lpx simulate`
  // of its file would.
  auto chip = asEmbedded(*loaded);
  if (!chip) {
    cov.costError = llvm::toString(chip.takeError());
    return;
  }
  std::string lastError;
  std::optional<Evaluation> fit;
  auto search = findFewestChips(
      doublingPolicy(*chip), [&](unsigned nodes) -> llvm::Expected<ChipTrial> {
        EvaluateOptions opts;
        opts.import = import;
        opts.compile = CompileOptions{nodes};
        Evaluation e = evaluate(path, *chip, opts);
        if (e.failedAt == EvaluateStage::Compile) {
          lastError = firstError(e);
          // More chips help only a model whose weights do not fit.
          return ChipTrial{classifyCompileFailure(lastError).doesNotFit
                               ? ChipTrial::DoesNotFit
                               : ChipTrial::Fails};
        }
        fit.emplace(std::move(e));
        return ChipTrial{ChipTrial::Fits};
      });
  if (!search || !fit) {
    if (!search)
      llvm::consumeError(search.takeError()); // the trial makes none
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
  cost.nodes = *search->chips;
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
  for (NodeCoverage &n : cov.nodes)
    if (n.status == NodeStatus::Supported && !executed.count(n.name))
      n.status = NodeStatus::Folded;
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
  const auto &graph = model.graph();
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto &n = graph.node(i);
    NodeCoverage c;
    c.name = nodeName(n, i);
    c.opType = n.op_type();
    c.domain = n.domain() == "ai.onnx" ? "" : n.domain();
    int opset = opsets.count(c.domain) ? opsets[c.domain] : 0;
    if (const onnx::OpSchema *s = onnx::OpSchemaRegistry::Schema(
            c.opType, opset, c.domain))
      c.opsetVersion = s->since_version();
    auto it = diags.byNode.find(c.name);
    if (it != diags.byNode.end()) {
      c.status = NodeStatus::Unsupported;
      c.reason = it->second;
    }
    cov.nodes.push_back(c);
  }
  cov.modelErrors = diags.other;
  if (cov.portable())
    estimateCost(cov, path, import, chip);
  return cov;
}
