//===- PartitionMesh.h - The mesh a partition places on ---------*- C++ -*-===//
//
// lpx-partition-mesh chooses the mesh and puts it on the module as a
// #lpx_part.mesh; the passes after it read it back here.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_LIB_TRANSFORMS_PARTITIONMESH_H
#define LPX_LIB_TRANSFORMS_PARTITIONMESH_H

#include "PartitionShard.h"

#include "lpx/Dialect/Part/IR/PartDialect.h"
#include "lpx/isa/ChipSpec.h"
#include "mlir/IR/BuiltinOps.h"

namespace lpx {

/// The module's #lpx_part.mesh; an error naming `pass` (which needs it)
/// when lpx-partition-mesh has not run.
mlir::FailureOr<part::MeshAttr> chosenMesh(mlir::ModuleOp module,
                                           llvm::StringRef pass);

/// The mesh `a` places on; none for the spread placement (tp = pp = 0).
std::optional<Mesh> meshOf(part::MeshAttr a);

/// What each pass after lpx-partition-mesh reads from the module first.
struct PartitionInputs {
  part::MeshAttr attr;
  std::optional<Mesh> mesh; // none: the spread placement
  isa::ChipSpec spec;
  /// Bytes a chip keeps for resident data (a quarter kept for temporaries).
  uint64_t usable() const { return spec.sram.bytes - spec.sram.bytes / 4; }
};

/// The module's mesh and chip, or an error naming `pass`.
mlir::FailureOr<PartitionInputs> partitionInputs(mlir::ModuleOp module,
                                                 llvm::StringRef pass);

/// lpx-partition-mesh's options.
struct MeshOptions {
  unsigned nodes = 1, tp = 0, pp = 0;
  uint64_t replicateBytes = 0;
};

/// The steps of the partition pipeline, each the body of its pass (and
/// run one after another by lpx-partition, in one pass): the mesh chosen
/// and put on the module, then, reading it, the stages cut, the sharding
/// recorded, the ops rewritten and the transfers inserted.
mlir::LogicalResult choosePartitionMesh(mlir::ModuleOp module,
                                        const MeshOptions &options);
mlir::LogicalResult cutPartitionStages(mlir::ModuleOp module,
                                       const PartitionInputs &in);
mlir::LogicalResult annotatePartitionSharding(mlir::ModuleOp module,
                                              const PartitionInputs &in);
mlir::LogicalResult rewritePartitionSharding(mlir::ModuleOp module,
                                             const PartitionInputs &in);
mlir::LogicalResult insertPartitionTransfers(mlir::ModuleOp module,
                                             const PartitionInputs &in);

/// A step after lpx-partition-mesh as a pass (`Base` its ODS base): its
/// module's mesh and chip read first, then `step`; the pass fails with it.
using PartitionStepFn = mlir::LogicalResult (*)(mlir::ModuleOp,
                                                const PartitionInputs &);
template <typename Base, PartitionStepFn step> struct PartitionStep : Base {
  void runOnOperation() override {
    mlir::ModuleOp module = this->getOperation();
    mlir::FailureOr<PartitionInputs> in =
        partitionInputs(module, this->getArgument());
    if (mlir::failed(in) || mlir::failed(step(module, *in)))
      this->signalPassFailure();
  }
};

} // namespace lpx

#endif
