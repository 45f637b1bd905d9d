//===- Pipeline.cpp - The compile pipeline from level 1 to level 3 --------===//
#include "lpx/Pipeline/Pipeline.h"
#include "lpx/Transforms/Passes.h"

#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

unsigned lpx::buildPipeline(OpPassManager &pm, const CompileOptions &opts,
                            StopAfter stop) {
  unsigned passes = 1;
  pm.addNestedPass<func::FuncOp>(createGraphDecompose());
  pm.addNestedPass<func::FuncOp>(createFuseRescale());
  ++passes;
  if (!opts.weights.empty() || !opts.activations.empty()) {
    pm.addNestedPass<func::FuncOp>(
        createConvertTypes(ConvertTypesOptions{opts.weights, opts.activations}));
    ++passes;
  }
  if (opts.residentKV) {
    ResidentKVOptions kv;
    kv.context = opts.kvContext;
    pm.addNestedPass<func::FuncOp>(createResidentKV(kv));
    ++passes;
  }
  pm.addNestedPass<func::FuncOp>(createGroupedAttention());
  ++passes;
  if (stop == StopAfter::Graph)
    return passes;
  pm.addPass(createPartition(
      PartitionOptions{opts.nodes, opts.tp, opts.pp, opts.replicateBytes}));
  if (opts.chunks > 1) {
    pm.addPass(createUnrollChunks(UnrollChunksOptions{opts.chunks}));
    pm.addPass(createShareTransfers());
    passes += 2;
  }
  pm.addPass(createVerifyPartitioned());
  if (stop == StopAfter::Partitioned)
    return passes + 2;
  pm.addPass(createSchedule());
  pm.addPass(createAllocateSram());
  pm.addPass(createVerifyScheduled());
  return passes + 5;
}

namespace {
struct PipelineOptions : PassPipelineOptions<PipelineOptions> {
  Option<unsigned> nodes{*this, "nodes", llvm::cl::desc("Number of nodes"),
                         llvm::cl::init(1)};
  Option<unsigned> tp{*this, "tp",
                      llvm::cl::desc("Chips per tensor-parallel group"),
                      llvm::cl::init(0)};
  Option<unsigned> pp{*this, "pp", llvm::cl::desc("Pipeline stages"),
                      llvm::cl::init(0)};
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("Chip preset or description file"),
                           llvm::cl::init("")};
  Option<std::string> weights{*this, "weights",
                              llvm::cl::desc("Number format of MatMul weights"),
                              llvm::cl::init("")};
  Option<std::string> activations{
      *this, "activations",
      llvm::cl::desc("Number format of the other values"), llvm::cl::init("")};
  Option<bool> residentKV{*this, "resident-kv",
                          llvm::cl::desc("Keep the KV cache resident in SRAM"),
                          llvm::cl::init(false)};
};
} // namespace

void lpx::registerPipelines() {
  PassPipelineRegistration<PipelineOptions>(
      "lpx-compile", "Graph (level 1) to scheduled, allocated IR (level 3)",
      [](OpPassManager &pm, const PipelineOptions &o) {
        pm.addPass(createAttachChip(AttachChipOptions{o.chip}));
        buildPipeline(pm, CompileOptions{o.nodes, o.weights, o.activations,
                                         o.residentKV, o.tp, o.pp});
      });
}
