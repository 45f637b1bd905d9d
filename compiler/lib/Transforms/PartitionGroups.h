//===- PartitionGroups.h - Reductions inside and across groups -*- C++ -*-===//
//
// A MatMul with a constant weight whose reduction dimension is the larger
// one is cut by that dimension, and its partial products are summed by a
// reduce-scatter that adds inside each group of chips first. Past one group
// the global links between groups are few (one per pair of tsp-v1 groups),
// so a product whose rows allow it is cut by rows across groups instead:
// each group holds the whole weight (cut by the reduction dimension over
// its chips), computes its rows of the result from its rows of the input,
// and sums them over its own links: no partial sum crosses groups.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_LIB_TRANSFORMS_PARTITIONGROUPS_H
#define LPX_LIB_TRANSFORMS_PARTITIONGROUPS_H

#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "mlir/IR/Builders.h"

namespace lpx {

/// Partial products at least this large are summed by a reduce-scatter
/// rather than a chain of adds on the home node: a chain moves every
/// partial through the home node's links and holds them in its SRAM.
constexpr uint64_t kReduceScatterBytes = 1 << 20;

/// [lo, hi) of block `i` of `parts` nearly equal blocks of `extent`.
std::pair<int64_t, int64_t> blockRange(int64_t extent, int64_t parts,
                                       int64_t i);

/// Part `part` of a 2-D weight: rows [r0, r1) and columns [c0, c1).
mlir::ElementsAttr sliceWeight(mlir::ElementsAttr value, int64_t part,
                               int64_t r0, int64_t r1, int64_t c0, int64_t c1);

/// Sums the partial products of a reduction split over nodes [base, base +
/// blocks.size()), given as blocks[i][j]: node base+i's partial of column
/// block j; node base+j owns block j. Inside each group of `group` chips
/// the block is first summed on the member with j's position in the group,
/// so one sum per group crosses the global links; node base+j adds the
/// group sums, and `home` concatenates the blocks (or they stay where they
/// are as pieces of a program output).
mlir::Value reduceScatter(mlir::OpBuilder &b, mlir::Location loc,
                          llvm::ArrayRef<llvm::SmallVector<mlir::Value>> blocks,
                          mlir::RankedTensorType type, int64_t home,
                          int64_t group, int64_t base);

/// How many groups of `group` chips among `nodes` a reduction-split MatMul
/// `op` with constant weight `w` is cut across by rows: nodes / group when
/// there are several whole groups, its partial products are large enough
/// for a reduce-scatter, its rows number at least the groups, and one
/// group's share of the weight (its chip's slice) fits in half of
/// `capacity`; else 1.
int64_t rowGroupsFor(graph::MatMulOp op, graph::ConstantOp w, int64_t nodes,
                     int64_t group, uint64_t capacity);

/// Rewrites `op` (a MatMul with constant 2-D weight `w`) for `groups` groups
/// of `group` chips: group g computes rows block g of the result, its chip
/// p holds rows block p of the weight (as `group` column blocks, for the
/// reduce-scatter inside the group) and multiplies the matching block of
/// the input's rows and columns; the row blocks are joined on `home`.
mlir::Value splitRowsAcrossGroups(graph::MatMulOp op, mlir::ElementsAttr w,
                                  int64_t group, int64_t groups, int64_t home);

} // namespace lpx

#endif
