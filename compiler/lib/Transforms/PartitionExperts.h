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

/// The most experts of any mixture-of-experts block of `f` that
/// spreadExperts places in parallel; 0 if none. Changes nothing.
int64_t mostExperts(mlir::func::FuncOp f, uint64_t temporaries);

/// Expert `e` of `experts` on a stage of `tp` chips: tp / experts chips
/// each when there are at least as many chips as experts (the expert is
/// then split tensor-parallel over them), else one chip shared by
/// consecutive experts.
ChipRange expertChips(int64_t e, int64_t experts, int64_t tp);

/// Rewrites each block's sum of weighted expert outputs into a tree of
/// adds, pairing neighbouring experts first, and returns the chips of the
/// stage on which every op of each expert (its weighting included) and
/// every add of the tree runs: an add on its left operand's expert. A
/// block whose expert holds more than `temporaries` bytes of values live
/// at once on one chip (three of its widest: gate, up and their product;
/// a prefill of many tokens) is left to the tensor-parallel placement,
/// which gives each chip a tp-th of them; 0: no limit.
llvm::DenseMap<mlir::Operation *, ChipRange>
spreadExperts(mlir::func::FuncOp f, int64_t tp, uint64_t temporaries);

} // namespace lpx

#endif
