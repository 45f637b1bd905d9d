//===- PartitionExperts.h - Expert parallelism for MoE blocks ---*- C++ -*-===//
//
// A mixture-of-experts block as exporters write Mixtral's for static
// shapes: every expert evaluated on the token and weighted by its routing
// weight (zero for the experts not chosen), the weighted outputs summed.
// In the graph that is a sum of terms expert_i(x) * w_i, where each expert
// is a branch of ops (with at least one constant-weight MatMul) that reads
// only x and constants and whose values nothing outside the branch reads.
//
// Expert parallelism places the experts on different chips of a pipeline
// stage: x is sent to every expert's chips, each chip computes its experts
// and weights their outputs, and the weighted outputs are added by a tree
// over those chips (log2(experts) rounds) instead of one after another.
// A block whose experts hold more than one stage's chips keep is given
// stages of its own (PartitionStages.h), its experts spread over all of
// their chips, across groups.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_LIB_TRANSFORMS_PARTITIONEXPERTS_H
#define LPX_LIB_TRANSFORMS_PARTITIONEXPERTS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"

namespace lpx {

/// Chips [first, first + count) of a stage, as offsets from its first chip.
struct ChipRange {
  int64_t first = 0, count = 1;
};

/// Where an op of a mixture-of-experts block belongs: its block and the
/// expert it computes (a tree add: the expert of its left operand) of the
/// block's `experts`.
struct ExpertSite {
  int64_t block = 0, expert = 0, experts = 1;
};

/// The blocks of a function: the site of each of their ops (the experts'
/// ops with their weighting, and the adds of the sum) and, per block, the
/// bytes of its experts' weights and of the values one expert keeps live
/// at once (three of its widest: gate, up and their product).
struct ExpertBlocks {
  llvm::DenseMap<mlir::Operation *, ExpertSite> sites;
  llvm::SmallVector<uint64_t> weightBytes, liveBytes;
  /// The most experts of any block; 0 if none.
  int64_t mostExperts() const;
};

/// The blocks of `f`, found by their shape. Changes nothing.
ExpertBlocks findExpertBlocks(mlir::func::FuncOp f);

/// Expert `e` of `experts` on `chips` chips (a stage's, or those of the
/// several stages a block spans): chips / experts chips each when there
/// are at least as many chips as experts (the expert is then split
/// tensor-parallel over them), else one chip shared by consecutive experts.
ChipRange expertChips(int64_t e, int64_t experts, int64_t chips);

/// Bytes one chip keeps live for a block whose expert keeps `live` bytes
/// live, when its `experts` experts are placed on `chips` chips.
uint64_t liveBytesPerChip(uint64_t live, int64_t experts, int64_t chips);

/// Rewrites each block's sum of weighted expert outputs into a tree of
/// adds, pairing neighbouring experts first (an add runs with its left
/// operand's expert), and returns the blocks with the tree's adds as
/// sites in place of the chain's.
ExpertBlocks spreadExperts(mlir::func::FuncOp f);

} // namespace lpx

#endif
