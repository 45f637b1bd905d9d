//===- PartitionShardRules.h - How a split carries through an op -*- C++ -*-===//
//
// The sharding propagation of the mesh placement (PartitionShard.h), one
// rule per op family: given an op and the split of one of its operands,
// how each operand is read (its own piece, whole, or sliced) and along
// which axis the result is split. Pointwise ops (numpy broadcasting),
// transpose, reshape, broadcast, concat and slice along other axes,
// softmax and reductions along other axes, batched MatMuls along a batch
// axis.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_LIB_TRANSFORMS_PARTITIONSHARDRULES_H
#define LPX_LIB_TRANSFORMS_PARTITIONSHARDRULES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace lpx::shard {

/// A value split along `axis`: piece i holds [lo[i], hi[i]) on nodes[i];
/// or replicated (axis kReplicated): piece i is a whole copy on nodes[i].
struct Layout {
  static constexpr int64_t kReplicated = -2;
  bool replicated() const { return axis == kReplicated; }
  int64_t axis = -1;
  llvm::SmallVector<int64_t> lo, hi, nodes;
  llvm::SmallVector<mlir::Value> pieces;
  bool sameSplit(const Layout &o) const {
    return lo == o.lo && hi == o.hi && nodes == o.nodes;
  }
};

/// How each operand of a piecewise op is read: its own piece, whole, or
/// sliced along an axis.
struct Operand {
  enum Kind { Piece, Whole, Slice } kind = Whole;
  int64_t axis = -1;
};

mlir::RankedTensorType rankedOf(mlir::Value v);

/// The axis of `to` along which the pieces of `from` split along `axis`
/// (ranges lo, hi) hold the same elements, and the ranges there; -1 when
/// the reshape mixes the split axis with others.
int64_t reshapedAxis(llvm::ArrayRef<int64_t> from, int64_t axis,
                     llvm::ArrayRef<int64_t> to, llvm::SmallVector<int64_t> &lo,
                     llvm::SmallVector<int64_t> &hi);

/// How operand `v` of an op split like `l` is read, its own axis for the
/// split being `axis` (-1: broadcast); none when it cannot be (the caller
/// knows which values are split, and which are resident state).
using OperandReader = llvm::function_ref<std::optional<Operand>(
    mlir::Value v, int64_t axis, const Layout &l)>;

/// The rule of `op`'s family, given the split operand `which` with layout
/// `l`: the operands' reads and the result's split axis and ranges; false
/// when the op cannot run piecewise on that split.
bool shardRule(mlir::Operation *op, unsigned which, const Layout &l,
               OperandReader operandFor, llvm::SmallVector<Operand> &reads,
               int64_t &outAxis, llvm::SmallVector<int64_t> &lo,
               llvm::SmallVector<int64_t> &hi);

} // namespace lpx::shard

#endif
