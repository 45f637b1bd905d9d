//===- PartitionFit.h - Whether a placement fits ----------------*- C++ -*-===//
//
// The partitioner's fit checks: every node's resident data (weights, state,
// program inputs and outputs) within its SRAM, else an error that names
// the fullest node and the chips that would hold them, with its typed twin
// for the caller that asked (FitReport.h).
//
//===----------------------------------------------------------------------===//
#ifndef LPX_LIB_TRANSFORMS_PARTITIONFIT_H
#define LPX_LIB_TRANSFORMS_PARTITIONFIT_H

#include "PartitionShard.h"

#include "lpx/Transforms/FitReport.h"
#include "lpx/isa/ChipSpec.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"

namespace lpx {

/// Whether a function argument is resident state rather than an input.
bool isStateArg(mlir::BlockArgument arg);

/// Fills this compile's FitReport, if one was asked for, from the error `d`
/// and each node's bytes (`worst` the fullest); `chipsNeeded` 0 reports
/// NoChipCountHolds.
void reportPartitionFit(mlir::InFlightDiagnostic &d, FitFailure why,
                        const isa::ChipSpec &spec, unsigned nodes,
                        llvm::ArrayRef<FitBytes> perNode, size_t worst,
                        unsigned chipsNeeded);

/// The mesh placement's check, after placing on `numNodes` nodes: every
/// node's weights, inputs and outputs within its SRAM; else the error names
/// the fullest node and `needed` stages (0: none) of `mesh.tp` chips.
mlir::LogicalResult checkMeshFits(mlir::func::FuncOp f, const Mesh &mesh,
                                  const isa::ChipSpec &spec, unsigned numNodes,
                                  int64_t needed);

} // namespace lpx

#endif
