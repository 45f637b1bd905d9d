//===- PartitionFit.cpp - Whether a placement fits, and what does not -----===//
#include "PartitionFit.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Dialect/Part/IR/PartOps.h"
#include "lpx/Target/ISABridge.h"
#include "lpx/isa/Topology.h"

using namespace mlir;
using namespace lpx;
using namespace lpx::graph;

namespace {
uint64_t bytesOf(Type t) { return tensorDescOf(t).bytes(); }
} // namespace

bool lpx::isStateArg(BlockArgument arg) {
  auto f = cast<func::FuncOp>(arg.getOwner()->getParentOp());
  return bool(f.getArgAttr(arg.getArgNumber(), kStateAttr));
}

void lpx::reportPartitionFit(InFlightDiagnostic &d, FitFailure why,
                             const isa::ChipSpec &spec, unsigned nodes,
                             ArrayRef<FitBytes> perNode, size_t worst,
                             unsigned chipsNeeded) {
  FitReport *r = fitReportSink();
  if (!r)
    return;
  r->failure = chipsNeeded ? why : FitFailure::NoChipCountHolds;
  if (Diagnostic *diag = d.getUnderlyingDiagnostic())
    r->message = diag->str();
  r->chip = spec.name;
  r->nodes = nodes;
  r->sramBytes = spec.sram.bytes;
  r->fullestChip = unsigned(worst);
  r->fullest = perNode[worst];
  r->all = {};
  for (const FitBytes &b : perNode) {
    r->all.weights += b.weights;
    r->all.state += b.state;
    r->all.activations += b.activations;
    r->all.temporaries += b.temporaries;
  }
  r->chipsNeeded = chipsNeeded;
}

/// Every node's weights, inputs and outputs within its SRAM; else the
/// error names the fullest node and a chip count that would hold them
/// (a quarter of each node kept for temporaries).
LogicalResult lpx::checkMeshFits(func::FuncOp f, const Mesh &mesh,
                                 const isa::ChipSpec &spec, unsigned numNodes,
                                 int64_t needed) {
  SmallVector<uint64_t> weights(numNodes, 0), acts(numNodes, 0);
  SmallVector<uint64_t> states(numNodes, 0); // of acts, for the report
  for (Operation &op : f.getBody().front())
    if (auto c = dyn_cast<ConstantOp>(op))
      weights[*part::getNode(c)] += bytesOf(c.getType());
  for (BlockArgument arg : f.getArguments()) {
    acts[part::getNodeOfValue(arg)] += bytesOf(arg.getType());
    if (isStateArg(arg))
      states[part::getNodeOfValue(arg)] += bytesOf(arg.getType());
  }
  for (Value v : f.getBody().front().getTerminator()->getOperands())
    acts[part::getNodeOfValue(v)] += bytesOf(v.getType());
  size_t worst = 0;
  uint64_t total = 0;
  for (size_t i = 0; i < weights.size(); ++i) {
    total += weights[i] + acts[i];
    if (weights[i] + acts[i] > weights[worst] + acts[worst])
      worst = i;
  }
  const uint64_t capacity = spec.sram.bytes;
  if (weights[worst] + acts[worst] <= capacity)
    return success();
  // `needed`: the stages (cut at layer boundaries, as placed) whose
  // fullest keeps a quarter of each node free for temporaries; at least
  // one more than now when resident data alone overflows this count.
  uint64_t stages = std::max<int64_t>(needed, mesh.stagesCut() + 1);
  InFlightDiagnostic d = f.emitError();
  d << "model does not fit on " << unsigned(numNodes)
                << " nodes of '" << spec.name << "' as tp " << mesh.tp
                << " x pp " << mesh.pp << ": node " << worst
                << " would hold " << weights[worst]
                << " bytes of weights and " << acts[worst]
                << " bytes of program inputs and outputs in " << capacity
                << " bytes of SRAM (in all " << total << " bytes); ";
  if (needed)
    d << stages * mesh.tp << " nodes would hold them (tp " << mesh.tp
      << " x pp " << stages << ")";
  else
    d << "no count of stages of " << mesh.tp
      << " chips up to the topology's maximum of " << isa::maxChips(spec)
      << " chips holds them";
  SmallVector<FitBytes> perNode(numNodes);
  for (size_t i = 0; i < perNode.size(); ++i)
    perNode[i] = {weights[i], states[i], acts[i] - states[i], 0};
  reportPartitionFit(d, FitFailure::ResidentData, spec, numNodes, perNode,
                     worst, needed ? unsigned(stages * mesh.tp) : 0);
  if (FitReport *r = fitReportSink()) {
    r->tp = mesh.tp;
    r->pp = mesh.pp;
    r->ppNeeded = needed ? int64_t(stages) : 0;
  }
  return failure();
}
