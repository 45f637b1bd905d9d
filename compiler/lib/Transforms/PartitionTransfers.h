//===- PartitionTransfers.h - Values that cross nodes -----------*- C++ -*-===//
//
// The last steps of partitioning, whatever the placement: every program
// output in a buffer of its own, and a transfer for every value read on
// another node than its own (constants are cloned instead: weights never
// travel at run time).
//
//===----------------------------------------------------------------------===//
#ifndef LPX_LIB_TRANSFORMS_PARTITIONTRANSFERS_H
#define LPX_LIB_TRANSFORMS_PARTITIONTRANSFERS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace lpx {

/// Program outputs must be values the program computes into buffers of
/// their own: an input or constant returned directly, or a value returned
/// twice, gets a copy.
void materializeOutputs(mlir::func::FuncOp f);

/// A transfer for every operand that lives on another node than its
/// reader (one per value and node), a clone for a constant; constants
/// nobody reads any more (whole weights replaced by slices) go.
void insertTransfers(mlir::func::FuncOp f);

} // namespace lpx

#endif
