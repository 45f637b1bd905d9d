//===- PartitionStages.h - Pipeline stages of consecutive ops ---*- C++ -*-===//
//
// Which pipeline stage each op of a transformer runs on. Stages take
// consecutive ops by weight bytes and end after a residual add, so only the
// residual stream (and values computed once) crosses stages. A table too
// large for one stage's share of the weights (a 128,256-token embedding or
// LM head on 220 MiB chips) is spread by columns over stages of its own,
// and so is a mixture-of-experts block whose experts are (Mixtral's 1.4 GB
// of experts per layer on tsp-v1): its experts placed over all their chips.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_LIB_TRANSFORMS_PARTITIONSTAGES_H
#define LPX_LIB_TRANSFORMS_PARTITIONSTAGES_H

#include "PartitionExperts.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace lpx {

/// The stages an op runs on: [first, first + count). count > 1 only for a
/// table or an expert block spread over several stages.
struct StageSpan {
  int64_t first = 0, count = 1;
};

/// The ops of `f` that get a stage: all but constants and the return.
llvm::SmallVector<mlir::Operation *> placedOps(mlir::func::FuncOp f);

/// A residual add: both operands have the result's shape and the result
/// feeds several ops (the next norm and the next residual add).
bool isResidualAdd(mlir::Operation *op);

/// Stage of each op of `ops` under `pp` stages, cut two ways and the cut
/// whose fullest stage holds fewer weight bytes kept: stage s ends at the
/// first residual add after the weights read so far pass (s + 1) / pp of
/// all weights, or at the first where those plus half of the ones up to the
/// next residual add reach it (nearest its share). An op whose table
/// (`spreadableTable`) is larger than `stageBytes` (what one stage's chips
/// hold; 0: no limit) starts a fresh stage and gets as many of its own as
/// hold it (fewer when the stages run out: the fit check then asks for
/// more); the pointwise
/// ops between an LM head so spread and the return (the logits' cast) get
/// its stages too, so they run on its pieces. A block of `blocks` whose
/// experts' weights pass `stageBytes` is spread alike: all its ops get its
/// stages, and the ops among them that are not the block's (the routing
/// weights' slices) its first.
llvm::SmallVector<StageSpan> stagesOf(llvm::ArrayRef<mlir::Operation *> ops,
                                      int64_t pp, uint64_t stageBytes,
                                      const ExpertBlocks &blocks);

/// The fewest pipeline stages (up to `most`; 0 if none) whose fullest
/// stage keeps at most `usable` bytes on each of its `tp` chips (weights,
/// inputs and outputs, spread evenly; a spread table's over its stages),
/// stages being cut as stagesOf cuts them. Read before placing.
int64_t stagesNeeded(mlir::func::FuncOp f, int64_t tp, uint64_t usable,
                     int64_t most);

} // namespace lpx

#endif
