//===- PartitionShardPasses.cpp - lpx-partition-shard and -rewrite --------===//
//
// The third and fourth steps of the partition pipeline: each op's sharding
// decided and recorded (PartitionShard.h), then followed; or, without a
// mesh, the older spread placement (PartitionSpread.h). The rewrite says in
// remarks what was placed, and binds program inputs and outputs in pieces
// (PartitionPieces.h).
//
//===----------------------------------------------------------------------===//
#include "PartitionMesh.h"
#include "PartitionPieces.h"
#include "PartitionShard.h"
#include "PartitionSpread.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Dialect/Part/IR/PartOps.h"
#include "lpx/Target/ISABridge.h"
#include "lpx/Transforms/Passes.h"

#include "llvm/ADT/DenseSet.h"

namespace lpx {
#define GEN_PASS_DEF_PARTITIONSHARD
#define GEN_PASS_DEF_PARTITIONREWRITE
#include "lpx/Transforms/Passes.h.inc"
} // namespace lpx

using namespace mlir;
using namespace lpx;

namespace {

struct PartitionShardPass
    : PartitionStep<lpx::impl::PartitionShardBase<PartitionShardPass>,
                    annotatePartitionSharding> {};

/// The placement remark, counting the chips that hold work once placed.
void remarkPlacement(func::FuncOp f, part::MeshAttr m) {
  llvm::DenseSet<int64_t> busy;
  for (Operation &op : f.getBody().front().without_terminator())
    if (!llvm::isa<graph::ConstantOp>(op))
      if (std::optional<int64_t> node = part::getNode(&op))
        busy.insert(*node);
  f.emitRemark() << "placement: tp " << m.getTp() << " x pp " << m.getPp()
                 << " on " << busy.size() << " of " << m.getNodes()
                 << " nodes: " << m.getWhy();
}

/// What became of the mixture-of-experts blocks (lpx_part.experts, which
/// lpx-partition-stages decided), in a remark; the attribute is consumed.
void remarkExperts(func::FuncOp f, int64_t tp, uint64_t stageBytes) {
  auto placed =
      f->getAttrOfType<DictionaryAttr>(part::PartDialect::kExpertsAttr);
  if (!placed)
    return;
  f->removeAttr(part::PartDialect::kExpertsAttr);
  auto get = [&](StringRef key) -> int64_t {
    auto i = placed.getAs<IntegerAttr>(key);
    return i ? i.getInt() : 0;
  };
  if (int64_t experts = get("experts")) {
    const int64_t chips = get("chips"), stages = get("stages"),
                  perExpert = get("chips_per_expert");
    InFlightDiagnostic r = f.emitRemark();
    r << "experts in parallel: " << experts << " per layer";
    if (perExpert > 1)
      r << ", each on its own " << perExpert
        << " chips split by columns then rows";
    else if (chips >= experts)
      r << ", each on its own chip";
    else
      r << ", " << (experts + chips - 1) / chips << " per chip";
    if (stages > 1)
      r << ", on " << chips << " chips over " << stages
        << " stages of their own (the " << uint64_t(get("weight_bytes"))
        << " bytes of a layer's experts pass the " << stageBytes
        << " a stage of " << tp << " keeps for weights)";
    r << ", the token sent to each and the weighted outputs added by a "
         "tree";
  }
  if (int64_t left = get("left_to_tensor_parallel"))
    f.emitRemark() << left
                   << " mixture-of-experts block(s) split like an MLP "
                      "over their chips instead: an expert's values "
                      "live at once on each of its chips ("
                   << uint64_t(get("live_bytes"))
                   << " bytes) would pass the " << uint64_t(get("temporaries"))
                   << " bytes a chip keeps for them";
}

struct PartitionRewritePass
    : PartitionStep<lpx::impl::PartitionRewriteBase<PartitionRewritePass>,
                    rewritePartitionSharding> {};

} // namespace

LogicalResult lpx::annotatePartitionSharding(ModuleOp module,
                                             const PartitionInputs &in) {
  if (in.mesh)
    for (auto f : module.getOps<func::FuncOp>())
      if (failed(annotateSharding(f, *in.mesh)))
        return failure();
  return success();
}

LogicalResult lpx::rewritePartitionSharding(ModuleOp module,
                                            const PartitionInputs &in) {
  const std::optional<Mesh> &mesh = in.mesh;
  const uint64_t usable = in.usable();
  for (auto f : module.getOps<func::FuncOp>()) {
    if (mesh) {
      if (failed(rewriteSharding(f, *mesh)))
        return failure();
      remarkPlacement(f, in.attr);
      remarkExperts(f, mesh->tp, usable * uint64_t(mesh->tp));
    } else if (failed(placeSpread(f, unsigned(in.attr.getNodes()),
                                  in.spec))) {
      return failure();
    }
    scatterInputs(f);
    gatherOutputs(f);
  }
  return success();
}
