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
void scatterInputs(mlir::func::FuncOp f);
void gatherOutputs(mlir::func::FuncOp f);
} // namespace lpx

#endif
