//===- PartitionMesh.cpp - lpx-partition-mesh: choose tp x pp -------------===//
//
// The first step of the partition pipeline: how to place (a tensor- and
// pipeline-parallel mesh for a transformer or when --tp/--pp is given, or
// the older spread placement), put on the module as a #lpx_part.mesh with
// the reason the placement remark gives and the stage count that would
// hold the model (for the fit error). See PartitionMesh.h.
//
//===----------------------------------------------------------------------===//
#include "PartitionMesh.h"
#include "PartitionExperts.h"
#include "PartitionPatterns.h"
#include "PartitionStages.h"

#include "lpx/Dialect/Part/IR/PartOps.h"
#include "lpx/Target/ISABridge.h"
#include "lpx/Transforms/Passes.h"
#include "lpx/isa/Topology.h"

namespace lpx {
#define GEN_PASS_DEF_PARTITIONMESH
#include "lpx/Transforms/Passes.h.inc"
} // namespace lpx

using namespace mlir;
using namespace lpx;

FailureOr<part::MeshAttr> lpx::chosenMesh(ModuleOp module, StringRef pass) {
  if (auto a = module->getAttrOfType<part::MeshAttr>(
          part::PartDialect::kMeshAttr))
    return a;
  return module.emitError() << pass << " needs the module's "
                            << part::PartDialect::kMeshAttr
                            << "; run lpx-partition-mesh first";
}

std::optional<Mesh> lpx::meshOf(part::MeshAttr a) {
  if (!a.getTp())
    return std::nullopt;
  Mesh m;
  m.tp = a.getTp();
  m.pp = a.getPp();
  m.cutStages = a.getCut();
  m.temporaries = a.getTemporaries();
  m.replicateBytes = a.getReplicate();
  return m;
}

FailureOr<PartitionInputs> lpx::partitionInputs(ModuleOp module,
                                                StringRef pass) {
  FailureOr<part::MeshAttr> attr = chosenMesh(module, pass);
  if (failed(attr))
    return failure();
  FailureOr<isa::ChipSpec> spec = chipOf(module);
  if (failed(spec))
    return failure();
  return PartitionInputs{*attr, meshOf(*attr), *spec};
}

namespace {

/// The mesh choice for the options of lpx-partition-mesh.
struct MeshChooser {
  MeshChooser(MLIRContext *ctx, const MeshOptions &o)
      : ctx(ctx), numNodes(o.nodes), tp(o.tp), pp(o.pp),
        replicateBytes(o.replicateBytes) {}
  MLIRContext *ctx;
  unsigned numNodes, tp, pp;
  uint64_t replicateBytes;

  LogicalResult run(ModuleOp module) {
    FailureOr<isa::ChipSpec> chipOr = chipOf(module);
    if (failed(chipOr))
      return failure();
    const isa::ChipSpec &spec = *chipOr;
    if (auto why = isa::checkChipCount(spec, numNodes))
      return module.emitError() << *why;
    // One mesh per module: each function's choice, which must agree.
    part::MeshAttr chosen;
    for (auto f : module.getOps<func::FuncOp>()) {
      FailureOr<part::MeshAttr> m = meshFor(f, spec);
      if (failed(m))
        return failure();
      if (chosen && *m != chosen)
        return f.emitError() << "needs another mesh than the module's other "
                                "functions: "
                             << *m << " against " << chosen;
      chosen = *m;
    }
    if (!chosen)
      chosen = part::MeshAttr::get(ctx, numNodes, 0, 0, 0, 0, 0, 0, "");
    module->setAttr(part::PartDialect::kMeshAttr, chosen);
    return success();
  }

  /// The mesh of `f`, tp = pp = 0 for the spread placement.
  FailureOr<part::MeshAttr> meshFor(func::FuncOp f, const isa::ChipSpec &spec) {
    if (f.getBody().getBlocks().size() != 1)
      return f.emitError("expected a function with a single block");
    FailureOr<std::optional<Mesh>> mesh = chooseMesh(f, spec);
    if (failed(mesh))
      return failure();
    if (!*mesh)
      return part::MeshAttr::get(ctx, numNodes, 0, 0, 0, 0, 0, 0, "");
    const Mesh &m = **mesh;
    // Counted before placing, for the error when it does not fit.
    const uint64_t usable = spec.sram.bytes - spec.sram.bytes / 4;
    int64_t most = int64_t(std::min<uint64_t>(isa::maxChips(spec), 1u << 20));
    int64_t needed =
        stagesNeeded(f, m.tp, usable, std::max<int64_t>(1, most / m.tp));
    f->getParentOfType<ModuleOp>()->setAttr(
        part::PartDialect::kPlacementAttr,
        DenseI64ArrayAttr::get(ctx, {m.tp, m.pp}));
    // A replicated value takes its whole size on every chip of its group:
    // kept to a 4096th of a chip's SRAM, so that on a small chip the
    // copies never crowd out the temporaries the fit check counts on.
    const uint64_t replicate =
        std::min<uint64_t>(replicateBytes, spec.sram.bytes / 4096);
    return part::MeshAttr::get(ctx, numNodes, m.tp, m.pp, m.stagesCut(),
                               needed, m.temporaries, replicate, placementWhy);
  }

  /// The tensor- and pipeline-parallel placement; none (the older
  /// placement, every MatMul split over all nodes) for one node, or for a
  /// model that is not a transformer unless --tp or --pp is given.
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
    // Said once placed, with the chips that hold work (the rewrite).
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

  /// The stages the cut of `m` fills (stagesOf, as lpx-partition-stages
  /// cuts).
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
};

struct PartitionMeshPass
    : lpx::impl::PartitionMeshBase<PartitionMeshPass> {
  using PartitionMeshBase::PartitionMeshBase;
  void runOnOperation() override {
    if (failed(choosePartitionMesh(
            getOperation(), {numNodes, tp, pp, replicateBytes})))
      signalPassFailure();
  }
};

} // namespace

LogicalResult lpx::choosePartitionMesh(ModuleOp module,
                                       const MeshOptions &options) {
  return MeshChooser(module.getContext(), options).run(module);
}
