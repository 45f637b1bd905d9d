//===- Partition.cpp - Place ops on nodes, split MatMuls, add transfers ---===//
//
// IR level 1 to 2. The pass chooses how to place (a tensor- and pipeline-
// parallel mesh for a transformer or when --tp/--pp is given, said in a
// remark; else the older spread placement, PartitionSpread.h), places,
// binds inputs and outputs in pieces (PartitionPieces.h), inserts the
// transfers (PartitionTransfers.h) and checks the fit (PartitionFit.h).
//
//===----------------------------------------------------------------------===//
#include "PartitionExperts.h"
#include "PartitionFit.h"
#include "PartitionPieces.h"
#include "PartitionShard.h"
#include "PartitionSpread.h"
#include "PartitionStages.h"
#include "PartitionTransfers.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Dialect/Graph/IR/ShapeOnly.h"
#include "lpx/Dialect/Graph/IR/WeightBlobs.h"
#include "lpx/Dialect/Part/IR/PartOps.h"
#include "lpx/Target/ISABridge.h"
#include "lpx/isa/Topology.h"
#include "lpx/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace lpx {
#define GEN_PASS_DEF_PARTITION
#include "lpx/Transforms/Passes.h.inc"
} // namespace lpx

using namespace mlir;
using namespace lpx;
using namespace lpx::graph;

namespace {

struct PartitionPass : lpx::impl::PartitionBase<PartitionPass> {
  using PartitionBase::PartitionBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<isa::ChipSpec> chipOr = chipOf(module);
    if (failed(chipOr))
      return signalPassFailure();
    const isa::ChipSpec &spec = *chipOr;
    if (auto why = isa::checkChipCount(spec, numNodes)) {
      module.emitError() << *why;
      return signalPassFailure();
    }
    // The whole weights that slices replace are freed at the end.
    SmallVector<ElementsAttr> weights = blobWeightsUnder(module);
    for (auto f : module.getOps<func::FuncOp>())
      if (failed(partition(f, spec)))
        return signalPassFailure();
    releaseUnusedWeights(module, weights);
    module->setAttr(part::PartDialect::kNumNodesAttr,
                    IntegerAttr::get(IntegerType::get(&getContext(), 64),
                                     numNodes));
  }

  LogicalResult partition(func::FuncOp f, const isa::ChipSpec &spec) {
    if (f.getBody().getBlocks().size() != 1)
      return f.emitError("expected a function with a single block");
    FailureOr<std::optional<Mesh>> mesh = chooseMesh(f, spec);
    if (failed(mesh))
      return failure();
    if (*mesh) {
      // Counted before placing, for the error when it does not fit.
      const uint64_t usable = spec.sram.bytes - spec.sram.bytes / 4;
      int64_t most = int64_t(std::min<uint64_t>(isa::maxChips(spec), 1u << 20));
      int64_t stages =
          stagesNeeded(f, (*mesh)->tp, usable, std::max<int64_t>(1, most / (*mesh)->tp));
      f->getParentOfType<ModuleOp>()->setAttr(
          part::PartDialect::kPlacementAttr,
          DenseI64ArrayAttr::get(&getContext(), {(*mesh)->tp, (*mesh)->pp}));
      MeshReport placed =
          placeOnMesh(f, **mesh, usable * uint64_t((*mesh)->tp));
      emitPlacement(f, **mesh);
      remarkExperts(f, placed, (*mesh)->tp, usable * uint64_t((*mesh)->tp));
      scatterInputs(f);
      gatherOutputs(f);
      materializeOutputs(f);
      insertTransfers(f);
      return checkMeshFits(f, **mesh, spec, numNodes, stages);
    }
    if (failed(placeSpread(f, numNodes, spec)))
      return failure();
    scatterInputs(f);
    gatherOutputs(f);
    materializeOutputs(f);
    insertTransfers(f);
    return success();
  }

  /// The tensor- and pipeline-parallel placement, said in a remark; none
  /// (the older placement, every MatMul split over all nodes) for one node,
  /// or for a model that is not a transformer unless --tp or --pp is given.
  FailureOr<std::optional<Mesh>> chooseMesh(func::FuncOp f,
                                            const isa::ChipSpec &spec) {
    const int64_t nodes = numNodes, tp = this->tp, pp = this->pp;
    if ((!tp && !pp && nodes < 2) || nodes < 1)
      return std::optional<Mesh>();
    unfuseProjections(f);
    const int64_t heads = projectionHeads(f);
    if (!tp && !pp && !heads)
      return std::optional<Mesh>();
    if (std::max<int64_t>(tp, 1) * std::max<int64_t>(pp, 1) > nodes) {
      f.emitError() << "--tp " << tp << " --pp " << pp << " needs "
                    << std::max<int64_t>(tp, 1) * std::max<int64_t>(pp, 1)
                    << " nodes; compiling for " << nodes;
      return failure();
    }
    int64_t group = spec.topology.groupSize ? spec.topology.groupSize : nodes;
    int64_t wanted = tp   ? int64_t(tp)
                     : pp ? nodes / pp
                          : std::min(group, nodes);
    // A mixture-of-experts model may use more chips per stage than it has
    // KV heads: its experts spread over them (attention over the first).
    // Values live at once get the quarter of a chip the fit check keeps.
    const uint64_t temporaries = spec.sram.bytes / 4;
    const int64_t experts = findExpertBlocks(f).mostExperts();
    Mesh m;
    m.temporaries = temporaries;
    m.tp = std::max(headDivisor(heads, std::max<int64_t>(wanted, 1)),
                    experts ? headDivisor(experts, std::max<int64_t>(wanted, 1))
                            : 1);
    m.pp = pp ? pp : std::max<int64_t>(1, nodes / m.tp);
    // No stage without layers: as many stages as the cut fills (a model
    // of one layer on two stages' chips fills one), cut as for all of
    // them (cutting for fewer moves the boundaries and may fill fewer).
    const int64_t asked = m.pp;
    m.cutStages = asked;
    m.pp = std::min(asked, stagesUsed(f, m, spec));
    // Said once placed, with the chips that hold work (emitPlacement).
    placementWhy.clear();
    llvm::raw_string_ostream r(placementWhy);
    const int64_t attention = headDivisor(heads, m.tp);
    if (heads)
      r << "attention split by KV head over " << attention << " chip"
        << (attention == 1 ? "" : "s") << " ("
        << (tp   ? "--tp " + std::to_string(tp)
            : pp ? std::to_string(nodes) + " nodes over --pp " +
                       std::to_string(pp)
            : nodes < group ? std::to_string(nodes) + " nodes"
                            : std::to_string(group) + " chips per group")
        << (m.tp < wanted ? ", lowered to divide the model's "
                          : "; the model has ")
        << heads << " KV heads"
        << (!experts ? "" : m.tp < wanted ? " or " : " and ")
        << (experts ? std::to_string(experts) + " experts" : "") << "), "
        << (experts ? "" : "MLP by columns then rows, ");
    else
      r << "MatMuls split over " << m.tp << " chips, ";
    r << m.pp << " pipeline stage" << (m.pp == 1 ? "" : "s")
      << " of consecutive layers";
    if (m.pp < asked)
      r << " (of " << asked << ": the layers fill " << m.pp << ")";
    return std::optional<Mesh>(m);
  }

  /// Why the mesh was chosen (chooseMesh), for the placement remark.
  std::string placementWhy;

  /// The stages the cut of `m` fills (stagesOf, as placeOnMesh cuts).
  static int64_t stagesUsed(func::FuncOp f, const Mesh &m,
                            const isa::ChipSpec &spec) {
    const uint64_t usable = spec.sram.bytes - spec.sram.bytes / 4;
    int64_t used = 1;
    for (const StageSpan &span :
         stagesOf(placedOps(f), m.stagesCut(), usable * uint64_t(m.tp),
                  findExpertBlocks(f)))
      used = std::max(used, span.first + span.count);
    return used;
  }

  /// The placement remark, counting the chips that hold work once placed.
  void emitPlacement(func::FuncOp f, const Mesh &m) {
    llvm::DenseSet<int64_t> busy;
    for (Operation &op : f.getBody().front().without_terminator())
      if (!llvm::isa<ConstantOp>(op))
        if (std::optional<int64_t> node = part::getNode(&op))
          busy.insert(*node);
    f.emitRemark() << "placement: tp " << m.tp << " x pp " << m.pp << " on "
                   << busy.size() << " of " << unsigned(numNodes)
                   << " nodes: " << placementWhy;
  }

  /// What became of the mixture-of-experts blocks, in a remark.
  static void remarkExperts(func::FuncOp f, const MeshReport &placed,
                            int64_t tp, uint64_t stageBytes) {
    if (placed.experts) {
      InFlightDiagnostic r = f.emitRemark();
      r << "experts in parallel: " << placed.experts << " per layer";
      if (placed.chipsPerExpert > 1)
        r << ", each on its own " << placed.chipsPerExpert
          << " chips split by columns then rows";
      else if (placed.chips >= placed.experts)
        r << ", each on its own chip";
      else
        r << ", " << (placed.experts + placed.chips - 1) / placed.chips
          << " per chip";
      if (placed.stages > 1)
        r << ", on " << placed.chips << " chips over " << placed.stages
          << " stages of their own (the " << placed.weightBytes
          << " bytes of a layer's experts pass the " << stageBytes
          << " a stage of " << tp << " keeps for weights)";
      r << ", the token sent to each and the weighted outputs added by a "
           "tree";
    }
    if (placed.leftToTensorParallel)
      f.emitRemark() << placed.leftToTensorParallel
                     << " mixture-of-experts block(s) split like an MLP "
                        "over their chips instead: an expert's values "
                        "live at once on each of its chips ("
                     << placed.liveBytes << " bytes) would pass the "
                     << placed.temporaries
                     << " bytes a chip keeps for them";
  }


};

} // namespace
