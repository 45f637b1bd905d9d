//===- PartitionTransfers.cpp - Values that cross nodes -------------------===//
#include "PartitionTransfers.h"
#include "PartitionFit.h"
#include "PartitionMesh.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Dialect/Graph/IR/WeightBlobs.h"
#include "lpx/Dialect/Part/IR/PartOps.h"
#include "lpx/Target/ISABridge.h"
#include "lpx/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace lpx;
using namespace lpx::graph;

void lpx::materializeOutputs(func::FuncOp f) {
  auto ret = cast<func::ReturnOp>(f.getBody().front().getTerminator());
  llvm::DenseSet<Value> seen;
  OpBuilder b(ret);
  for (OpOperand &use : ret->getOpOperands()) {
    Value v = use.get();
    Operation *def = v.getDefiningOp();
    if (def && !llvm::isa<ConstantOp>(def) && seen.insert(v).second)
      continue;
    auto copy = b.create<ReshapeOp>(ret.getLoc(), v.getType(), v);
    part::setNode(copy, def && !llvm::isa<ConstantOp>(def) ? part::getNodeOfValue(v)
                                                     : 0);
    use.set(copy);
  }
}

void lpx::insertTransfers(func::FuncOp f) {
  llvm::DenseMap<std::pair<Value, int64_t>, Value> transfers;
  llvm::DenseMap<std::pair<Operation *, int64_t>, Value> clones;
  SmallVector<Operation *> ops;
  for (Operation &op : f.getBody().front())
    if (!llvm::isa<ConstantOp, func::ReturnOp>(op))
      ops.push_back(&op);
  for (Operation *op : ops) {
    int64_t node = *part::getNode(op);
    for (OpOperand &use : op->getOpOperands()) {
      Value v = use.get();
      if (auto c = v.getDefiningOp<ConstantOp>()) {
        std::optional<int64_t> at = part::getNode(c);
        if (!at) {
          part::setNode(c, node);
          continue;
        }
        if (*at == node)
          continue;
        Value &clone = clones[{c, node}];
        if (!clone) {
          OpBuilder b(c);
          Operation *copy = b.clone(*c);
          part::setNode(copy, node);
          clone = copy->getResult(0);
        }
        use.set(clone);
        continue;
      }
      int64_t from = part::getNodeOfValue(v);
      if (from == node)
        continue;
      Value &t = transfers[{v, node}];
      if (!t) {
        OpBuilder b(f.getContext());
        if (Operation *def = v.getDefiningOp())
          b.setInsertionPointAfter(def);
        else
          b.setInsertionPointToStart(&f.getBody().front());
        auto tr = b.create<part::TransferOp>(v.getLoc(), v.getType(), v,
                                             b.getI64IntegerAttr(from),
                                             b.getI64IntegerAttr(node));
        part::setNode(tr, node);
        t = tr;
      }
      use.set(t);
    }
  }
  // Constants nobody reads any more (the whole weights of split MatMuls).
  for (Operation &op : llvm::make_early_inc_range(f.getBody().front()))
    if (auto c = dyn_cast<ConstantOp>(op); c && c->use_empty())
      c.erase();
}

namespace lpx {
#define GEN_PASS_DEF_PARTITIONTRANSFERS
#include "lpx/Transforms/Passes.h.inc"
} // namespace lpx

namespace {

struct PartitionTransfersPass
    : PartitionStep<lpx::impl::PartitionTransfersBase<PartitionTransfersPass>,
                    insertPartitionTransfers> {};

} // namespace

LogicalResult lpx::insertPartitionTransfers(ModuleOp module,
                                            const PartitionInputs &in) {
  const std::optional<Mesh> &mesh = in.mesh;
  const unsigned nodes = unsigned(in.attr.getNodes());
  // The whole weights whose slices replaced them go with their constants.
  SmallVector<ElementsAttr> weights = graph::blobWeightsUnder(module);
  for (auto f : module.getOps<func::FuncOp>()) {
    materializeOutputs(f);
    insertTransfers(f);
    if (mesh && failed(checkMeshFits(f, *mesh, in.spec, nodes,
                                     in.attr.getNeeded())))
      return failure();
  }
  graph::releaseUnusedWeights(module, weights);
  module->setAttr(part::PartDialect::kNumNodesAttr,
                  IntegerAttr::get(IntegerType::get(module.getContext(), 64),
                                   nodes));
  return success();
}
