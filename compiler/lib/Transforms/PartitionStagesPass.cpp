//===- PartitionStagesPass.cpp - lpx-partition-stages ---------------------===//
//
// The second step of the partition pipeline, on a mesh: each op's stages
// (stagesOf, PartitionStages.h) as `lpx_part.stage`, and the chips of the
// experts of each mixture-of-experts block placed expert-parallel as
// `lpx_part.chips`, with what the remark says of them on the function.
//
//===----------------------------------------------------------------------===//
#include "PartitionExperts.h"
#include "PartitionMesh.h"
#include "PartitionStages.h"

#include "lpx/Dialect/Part/IR/PartOps.h"
#include "lpx/Target/ISABridge.h"
#include "lpx/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace lpx {
#define GEN_PASS_DEF_PARTITIONSTAGES
#include "lpx/Transforms/Passes.h.inc"
} // namespace lpx

using namespace mlir;
using namespace lpx;

namespace {

/// Each expert's chips among its block's (its stage's, or all those of
/// the stages it spans), unless one chip would keep more values live than
/// `mesh.temporaries` (a prefill of many tokens on too few chips): such a
/// block is left to the tensor-parallel placement, which gives each of its
/// chips a share of every expert. Returns what the remark says.
MeshReport placeExperts(const ExpertBlocks &blocks, const Mesh &mesh,
                        const llvm::DenseMap<Operation *, int64_t> &spread,
                        llvm::DenseMap<Operation *, ChipRange> &experts) {
  MeshReport report;
  const size_t n = blocks.weightBytes.size();
  SmallVector<int64_t> stages(n, 1), count(n, 0); // experts per block
  for (const auto &[op, site] : blocks.sites) {
    stages[site.block] = std::max<int64_t>(1, spread.lookup(op));
    count[site.block] = site.experts;
  }
  // Each block either placed expert-parallel or left whole, in order.
  SmallVector<bool> parallel(n, false);
  for (size_t b = 0; b < n; ++b) {
    const int64_t chips = mesh.tp * stages[b];
    if (chips < 2)
      continue;
    const uint64_t live =
        liveBytesPerChip(blocks.liveBytes[b], count[b], chips);
    if (mesh.temporaries && live > mesh.temporaries) {
      ++report.leftToTensorParallel;
      report.liveBytes = live;
      report.temporaries = mesh.temporaries;
      continue;
    }
    parallel[b] = true;
    if (stages[b] > report.stages)
      std::tie(report.experts, report.chips, report.stages,
               report.chipsPerExpert, report.weightBytes) =
          std::make_tuple(count[b], chips, stages[b],
                          expertChips(0, count[b], chips).count,
                          blocks.weightBytes[b]);
  }
  for (const auto &[op, site] : blocks.sites)
    if (parallel[site.block])
      experts[op] = expertChips(site.expert, site.experts,
                                mesh.tp * stages[site.block]);
  return report;
}

/// Stages (and experts' chips) for the ops of `f` on `mesh`.
void cut(func::FuncOp f, const Mesh &mesh, uint64_t stageBytes) {
  ExpertBlocks blocks;
  if (mesh.tp > 1 || mesh.pp > 1)
    blocks = spreadExperts(f);
  SmallVector<Operation *> ops = placedOps(f);
  SmallVector<StageSpan> spans =
      stagesOf(ops, mesh.stagesCut(), stageBytes, blocks);
  MLIRContext *ctx = f.getContext();
  llvm::DenseMap<Operation *, int64_t> spread; // stages of a spread op
  for (auto [op, span] : llvm::zip(ops, spans)) {
    op->setAttr(part::PartDialect::kStageAttr,
                DenseI64ArrayAttr::get(ctx, {span.first, span.count}));
    if (span.count > 1)
      spread[op] = span.count;
  }
  llvm::DenseMap<Operation *, ChipRange> experts;
  MeshReport r = placeExperts(blocks, mesh, spread, experts);
  for (const auto &[op, chips] : experts)
    op->setAttr(part::PartDialect::kExpertChipsAttr,
                DenseI64ArrayAttr::get(ctx, {chips.first, chips.count}));
  if (!r.experts && !r.leftToTensorParallel)
    return;
  Builder b(ctx);
  auto i64 = [&](uint64_t v) { return b.getI64IntegerAttr(int64_t(v)); };
  f->setAttr(part::PartDialect::kExpertsAttr,
             b.getDictionaryAttr({
                 b.getNamedAttr("experts", i64(r.experts)),
                 b.getNamedAttr("chips", i64(r.chips)),
                 b.getNamedAttr("stages", i64(r.stages)),
                 b.getNamedAttr("chips_per_expert", i64(r.chipsPerExpert)),
                 b.getNamedAttr("weight_bytes", i64(r.weightBytes)),
                 b.getNamedAttr("left_to_tensor_parallel",
                                i64(r.leftToTensorParallel)),
                 b.getNamedAttr("live_bytes", i64(r.liveBytes)),
                 b.getNamedAttr("temporaries", i64(r.temporaries)),
             }));
}

struct PartitionStagesPass
    : PartitionStep<lpx::impl::PartitionStagesBase<PartitionStagesPass>,
                    cutPartitionStages> {};

} // namespace

LogicalResult lpx::cutPartitionStages(ModuleOp module,
                                      const PartitionInputs &in) {
  const std::optional<Mesh> &mesh = in.mesh;
  if (!mesh)
    return success(); // the spread placement has no stages
  for (auto f : module.getOps<func::FuncOp>())
    cut(f, *mesh, in.usable() * uint64_t(mesh->tp));
  return success();
}
