//===- VerifyLevels.cpp - Level-2 and level-3 invariants ------------------===//
//
// The per-op attribute verifiers of lpx_part and lpx_sched check one op at a
// time; these passes check what holds across a whole module at a level (see
// docs/architecture.md, "Levels of IR"). The pipeline runs them after
// partitioning and after allocation, so emission only ever sees a module
// that satisfies them.
//
//===----------------------------------------------------------------------===//
#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Dialect/Part/IR/PartOps.h"
#include "lpx/Dialect/Sched/IR/SchedOps.h"
#include "lpx/Transforms/Passes.h"

namespace lpx {
#define GEN_PASS_DEF_VERIFYPARTITIONED
#define GEN_PASS_DEF_VERIFYSCHEDULED
#include "lpx/Transforms/Passes.h.inc"
} // namespace lpx

using namespace mlir;
using namespace lpx;

namespace {

/// Node a value is on: its defining op's node; program inputs are on node 0.
/// A send's result is on its destination node.
std::optional<int64_t> nodeOfValue(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def) // a program input: where the partitioner put it
    return part::getNodeOfValue(v);
  if (auto send = dyn_cast<sched::SendOp>(def))
    return int64_t(send.getTo());
  return part::getNode(def);
}

/// Node an op reads its operands on: a transfer or send reads on `from`.
std::optional<int64_t> readNode(Operation *op) {
  if (auto t = dyn_cast<part::TransferOp>(op))
    return int64_t(t.getFrom());
  if (auto s = dyn_cast<sched::SendOp>(op))
    return int64_t(s.getFrom());
  return part::getNode(op);
}

LogicalResult verifyPartitioned(ModuleOp module) {
  auto numNodes =
      module->getAttrOfType<IntegerAttr>(part::PartDialect::kNumNodesAttr);
  if (!numNodes)
    return module.emitError("not partitioned: the module has no ")
           << part::PartDialect::kNumNodesAttr;
  bool ok = true;
  module.walk([&](Operation *op) {
    if (llvm::isa<ModuleOp, func::FuncOp, func::ReturnOp>(op))
      return;
    if (!llvm::isa<sched::SendOp>(op)) {
      std::optional<int64_t> node = part::getNode(op);
      if (!node || *node >= numNodes.getInt()) {
        op->emitOpError("is not placed on a node below ")
            << numNodes.getInt();
        ok = false;
        return;
      }
    }
    std::optional<int64_t> reads = readNode(op);
    for (OpOperand &use : op->getOpOperands()) {
      std::optional<int64_t> from = nodeOfValue(use.get());
      if (from && reads && *from != *reads) {
        op->emitOpError("reads operand ")
            << use.getOperandNumber() << " on node " << *reads
            << " but it is on node " << *from
            << " (a cross-node use needs a transfer)";
        ok = false;
      }
    }
  });
  return success(ok);
}

LogicalResult verifyScheduled(ModuleOp module) {
  if (failed(verifyPartitioned(module)))
    return failure();
  bool ok = true;
  auto fail = [&](Operation *op, const Twine &what) {
    op->emitOpError(what);
    ok = false;
  };
  module.walk([&](func::FuncOp f) {
    for (BlockArgument arg : f.getArguments())
      if (!f.getArgAttr(arg.getArgNumber(), sched::SchedDialect::kAddrAttr))
        fail(f, "argument " + Twine(arg.getArgNumber()) +
                    " has no SRAM address (" + sched::SchedDialect::kAddrAttr +
                    ")");
  });
  module.walk([&](Operation *op) {
    if (llvm::isa<ModuleOp, func::FuncOp, func::ReturnOp>(op))
      return;
    if (llvm::isa<part::TransferOp>(op))
      return fail(op, "is left unscheduled (a transfer becomes sends)");
    if (!llvm::isa<graph::ConstantOp>(op) &&
        !op->hasAttr(sched::SchedDialect::kSlotAttr))
      return fail(op, "has no issue slot (" +
                          Twine(sched::SchedDialect::kSlotAttr) + ")");
    if (op->getNumResults() && !op->hasAttr(sched::SchedDialect::kAddrAttr))
      fail(op, "has no SRAM address (" + Twine(sched::SchedDialect::kAddrAttr) +
                   ")");
  });
  return success(ok);
}

struct VerifyPartitionedPass
    : lpx::impl::VerifyPartitionedBase<VerifyPartitionedPass> {
  void runOnOperation() override {
    if (failed(verifyPartitioned(getOperation())))
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};

struct VerifyScheduledPass
    : lpx::impl::VerifyScheduledBase<VerifyScheduledPass> {
  void runOnOperation() override {
    if (failed(verifyScheduled(getOperation())))
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace
