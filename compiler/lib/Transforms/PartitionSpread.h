//===- PartitionSpread.h - The older placement: split and spill -*- C++ -*-===//
//
// How a model that is not a transformer (and given neither --tp nor --pp)
// is placed on more than one node: every MatMul with a constant weight, and
// every embedding table, split tensor-parallel over all nodes; the other
// ops in program order on a home node that moves to the next node when the
// current one is full. Three steps, each linear in the number of ops:
//  1. plan: give each op a home node and account the weight bytes every
//     node must hold (tensor-parallel slices on all nodes, other constants
//     on the home node);
//  2. check: every node's resident data within its SRAM (PartitionFit.h),
//     else the error names the fullest node and the chip count that would
//     hold them;
//  3. rewrite: split the tensor-parallel ops and mark every op's node.
// Transfers come after (PartitionTransfers.h), as for the mesh placement.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_LIB_TRANSFORMS_PARTITIONSPREAD_H
#define LPX_LIB_TRANSFORMS_PARTITIONSPREAD_H

#include "lpx/isa/ChipSpec.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace lpx {

/// Places every op of `f` on one of `numNodes` nodes (steps 1 to 3 above);
/// fails with the fit error when the plan does not fit.
mlir::LogicalResult placeSpread(mlir::func::FuncOp f, unsigned numNodes,
                                const isa::ChipSpec &spec);

} // namespace lpx

#endif
