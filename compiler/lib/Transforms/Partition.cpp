//===- Partition.cpp - lpx-partition: the partition pipeline --------------===//
//
// IR level 1 to 2 as one pass, for the callers that ask for a partition:
// the five steps, each a pass whose decisions are attributes in the IR
// (Passes.td), run in order, and the whole weights that slices replaced
// freed at the end.
//
//===----------------------------------------------------------------------===//
#include "lpx/Dialect/Graph/IR/WeightBlobs.h"
#include "lpx/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"

namespace lpx {
#define GEN_PASS_DEF_PARTITION
#include "lpx/Transforms/Passes.h.inc"
} // namespace lpx

using namespace mlir;
using namespace lpx;

namespace {

struct PartitionPass : lpx::impl::PartitionBase<PartitionPass> {
  using PartitionBase::PartitionBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The whole weights that slices replace are freed at the end.
    SmallVector<ElementsAttr> weights = graph::blobWeightsUnder(module);
    OpPassManager steps(ModuleOp::getOperationName());
    steps.addPass(createPartitionMesh(PartitionMeshOptions{numNodes, tp, pp}));
    steps.addPass(createPartitionStages());
    steps.addPass(createPartitionShard());
    steps.addPass(createPartitionRewrite());
    steps.addPass(createPartitionTransfers());
    if (failed(runPipeline(steps, module)))
      return signalPassFailure();
    graph::releaseUnusedWeights(module, weights);
  }
};

} // namespace
