//===- PartitionPieces.h - Program inputs and outputs in pieces -*- C++ -*-===//
//
// After the partitioner splits ops, a program input that is read only
// through slices, each feeding one node, is bound in pieces that the host
// writes straight into those nodes; a program output that is a concat of
// per-node blocks is bound in pieces that stay where they were computed.
// Neither tensor then has to fit on, or pass through, one node.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_LIB_TRANSFORMS_PARTITIONPIECES_H
#define LPX_LIB_TRANSFORMS_PARTITIONPIECES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace lpx {
/// Appends to `f` the argument for one piece of argument `whole`: of type
/// `type`, at `offsets` in `whole`, on `node`, with `whole`'s name and,
/// for resident state, its state mark (a KV cache split by head).
mlir::BlockArgument addPieceArgument(mlir::func::FuncOp f,
                                     mlir::BlockArgument whole,
                                     mlir::Type type, int64_t node,
                                     llvm::ArrayRef<int64_t> offsets);
void scatterInputs(mlir::func::FuncOp f);
void gatherOutputs(mlir::func::FuncOp f);
} // namespace lpx

#endif
