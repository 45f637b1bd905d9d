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

/// A pass after lpx-partition-mesh (`Base` its ODS base): its module's
/// mesh and chip read first, then `Step::run`; the pass fails with it.
template <typename Step, typename Base> struct PartitionStep : Base {
  void runOnOperation() override {
    mlir::ModuleOp module = this->getOperation();
    mlir::FailureOr<PartitionInputs> in =
        partitionInputs(module, this->getArgument());
    if (mlir::failed(in) ||
        mlir::failed(static_cast<Step *>(this)->run(module, *in)))
      this->signalPassFailure();
  }
};

} // namespace lpx

#endif
