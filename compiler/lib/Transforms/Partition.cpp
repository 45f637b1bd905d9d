//===- Partition.cpp - lpx-partition: the partition pipeline --------------===//
//
// IR level 1 to 2 as one pass, for the callers that ask for a partition:
// the five steps, each also a pass whose decisions are attributes in the
// IR (Passes.td), run in order inside this one (so a pipeline's
// instrumentation sees one partition), and the whole weights that slices
// replaced freed at the end.
//
//===----------------------------------------------------------------------===//
#include "PartitionMesh.h"

#include "lpx/Dialect/Graph/IR/WeightBlobs.h"
#include "lpx/Transforms/Passes.h"

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
    if (failed(
            choosePartitionMesh(module, {numNodes, tp, pp, replicateBytes})))
      return signalPassFailure();
    for (PartitionStepFn step :
         {cutPartitionStages, annotatePartitionSharding,
          rewritePartitionSharding, insertPartitionTransfers}) {
      FailureOr<PartitionInputs> in = partitionInputs(module, getArgument());
      if (failed(in) || failed(step(module, *in)))
        return signalPassFailure();
    }
    graph::releaseUnusedWeights(module, weights);
  }
};

} // namespace
