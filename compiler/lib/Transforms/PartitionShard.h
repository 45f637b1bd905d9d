//===- PartitionShard.h - Tensor and pipeline parallel placement -*- C++ -*-===//
//
// Placement as deployments run a transformer (Megatron-style tensor
// parallelism inside a group of chips, consecutive layers per pipeline
// stage), found by sharding propagation: every value is either whole on
// one node or split along one axis into pieces on the nodes of a stage.
// MatMuls with a constant weight and a whole activation start a split (by
// columns, on head boundaries when the result is reshaped into heads); one
// rule per op family says whether an op whose operand is split can run
// piecewise and along which axis its result is split; a MatMul whose
// activation is split along its reduction axis either joins the
// activation on every node (an all-gather) and is cut by columns, or
// computes partial sums that a reduce-scatter adds, each node its own
// columns: one exchange over the group's links either way, whichever
// sends fewer bytes. Resident state (a KV cache) is split like the entry
// written into it, one state argument per piece, so each chip keeps and
// appends to its own heads' cache. Anything else gathers its split
// operands on its node (the stage's first) and runs there.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_LIB_TRANSFORMS_PARTITIONSHARD_H
#define LPX_LIB_TRANSFORMS_PARTITIONSHARD_H

#include "PartitionPatterns.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace lpx {

/// Chips per tensor-parallel group and pipeline stages: stage s runs on
/// nodes [s * tp, (s + 1) * tp).
struct Mesh {
  int64_t tp = 1, pp = 1;
  /// The stage count whose shares of the weights the stage cut uses (0:
  /// pp). A cut for more stages than its layers fill keeps its cut and
  /// drops the stages left empty (pp < cutStages): a cut for fewer stages
  /// would move its boundaries, and may fill fewer still.
  int64_t cutStages = 0;
  int64_t stagesCut() const { return cutStages ? cutStages : pp; }
  /// Bytes a chip keeps for values live at once; a mixture-of-experts
  /// block whose experts would need more on one of their chips is not
  /// placed expert-parallel (0: any).
  uint64_t temporaries = 0;
  /// Values of at most these bytes are replicated on every chip of their
  /// group rather than joined on one (0: none; see #lpx_part.shard's
  /// all_reduce).
  uint64_t replicateBytes = 0;
};

/// What lpx-partition-stages did with the mixture-of-experts blocks, which the mesh
/// does not say: of the block placed expert-parallel over the most stages,
/// its experts, the chips they share, the stages those span, each
/// expert's chips and the block's weight bytes; and how many blocks were
/// split like an MLP instead, with the bytes an expert would keep live on
/// each of its chips and the bytes a chip keeps for them.
struct MeshReport {
  int64_t experts = 0, chips = 0, stages = 0, chipsPerExpert = 0;
  uint64_t weightBytes = 0;
  int64_t leftToTensorParallel = 0;
  uint64_t liveBytes = 0, temporaries = 0;
};

/// lpx-partition-shard: every op of `f` but constants and the return gets
/// its lpx_part.shard (its split, by its stage's lpx_part.stage and the
/// splits of its operands); fails on an op without a stage.
mlir::LogicalResult annotateSharding(mlir::func::FuncOp f, const Mesh &mesh);

/// lpx-partition-rewrite: every op gets its node and split ops become one
/// op per piece, as their lpx_part.shard say (the decision attributes are
/// dropped); fails on an op whose attribute cannot be followed. Values that
/// cross nodes are left for lpx-partition-transfers.
mlir::LogicalResult rewriteSharding(mlir::func::FuncOp f, const Mesh &mesh);

} // namespace lpx

#endif
