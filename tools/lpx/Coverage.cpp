//===- Coverage.cpp - Can this model run on the chip, and what blocks it? -===//
#include "Coverage.h"

#include "lpx/Driver/Compile.h"
#include "lpx/isa/Program.h"
#include "lpx/isa/Topology.h"
#include "lpx/sim/Simulator.h"

#include "mlir/IR/Diagnostics.h"
#include "onnx/defs/schema.h"
#include "onnx/onnx_pb.h"
#include "llvm/Support/MemoryBuffer.h"
#include <map>
#include <set>

using namespace lpx;
using namespace lpx::cli;

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
    if (c.status == NodeStatus::Unsupported)
      types.insert((c.domain.empty() ? "" : c.domain + ".") + c.opType);
  return {types.begin(), types.end()};
}

bool ModelCoverage::portable() const {
  return modelErrors.empty() && supported() == nodes.size();
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

/// Compiles for the fewest chips that hold the model, then simulates.
void estimateCost(ModelCoverage &cov, const std::string &path,
                  const ImportOptions &import, const std::string &chipName) {
  auto chip = isa::loadChipSpec(chipName);
  if (!chip) {
    cov.costError = llvm::toString(chip.takeError());
    return;
  }
  std::string lastError;
  for (unsigned nodes = 1; nodes <= isa::maxChips(*chip); nodes *= 2) {
    if (isa::checkChipCount(*chip, nodes))
      continue;
    auto ctx = makeCompilerContext();
    Collected diags;
    mlir::ScopedDiagnosticHandler h(
        ctx.get(), [&](mlir::Diagnostic &d) { return collect(diags, d); });
    auto program = compileToProgram(*ctx, path, import,
                                    CompileOptions{chipName, nodes}, *chip);
    if (failed(program)) {
      lastError = !diags.other.empty()          ? diags.other.front()
                  : !diags.byNode.empty() ? diags.byNode.begin()->second
                                          : "compilation failed";
      if (lastError.find("does not fit") == std::string::npos)
        break; // more chips will not help
      continue;
    }
    auto loaded = isa::parseProgram(isa::serializeProgram(*program), path);
    if (!loaded) {
      cov.costError = llvm::toString(loaded.takeError());
      return;
    }
    auto result = sim::simulate(*loaded);
    if (!result) {
      cov.costError = llvm::toString(result.takeError());
      return;
    }
    PortCost cost;
    cost.chip = chip->name;
    cost.nodes = nodes;
    for (const auto &b : program->buffers())
      if (b.kind() == isa::pb::CONSTANT)
        cost.weightBytes += b.bytes();
    cost.cycles = result->totalCycles;
    cost.seconds = result->seconds;
    cost.hostSeconds = (result->hostInputUs + result->hostOutputUs) * 1e-6;
    cov.cost = cost;
    // Nodes that left no instruction were resolved at compile time.
    std::set<std::string> executed;
    for (const auto &inst : program->instructions())
      executed.insert(inst.origin());
    for (NodeCoverage &n : cov.nodes)
      if (n.status == NodeStatus::Supported && !executed.count(n.name))
        n.status = NodeStatus::Folded;
    return;
  }
  cov.costError = lastError.empty() ? "no chip count holds the model"
                                    : lastError;
}

} // namespace

llvm::Expected<ModelCoverage>
lpx::cli::analyzeModel(const std::string &path, const ImportOptions &import,
                       const std::string &chip) {
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file)
    return llvm::createStringError(file.getError(), "cannot read '%s': %s",
                                   path.c_str(),
                                   file.getError().message().c_str());
  onnx::ModelProto model;
  llvm::StringRef bytes = (*file)->getBuffer();
  if (bytes.empty() || !model.ParseFromArray(bytes.data(), int(bytes.size())) ||
      !model.has_graph())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "'%s' is not an ONNX model", path.c_str());

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
