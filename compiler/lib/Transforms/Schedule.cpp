//===- Schedule.cpp - Issue cycles for every instruction ------------------===//
//
// IR level 2 to 3. One pass over the ops in program order: each issues at the
// first cycle when its operands are complete and its queue (a unit of its
// node, or an outgoing link) is free. Queues therefore stay in program order
// and no unit or link ever holds two instructions in one cycle.
//
//===----------------------------------------------------------------------===//
#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Dialect/Part/IR/PartOps.h"
#include "lpx/Dialect/Sched/IR/SchedOps.h"
#include "lpx/Target/ISABridge.h"
#include "lpx/Transforms/Passes.h"
#include "lpx/isa/Program.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

namespace lpx {
#define GEN_PASS_DEF_SCHEDULE
#include "lpx/Transforms/Passes.h.inc"
} // namespace lpx

using namespace mlir;
using namespace lpx;

namespace {

struct SchedulePass : lpx::impl::ScheduleBase<SchedulePass> {
  using ScheduleBase::ScheduleBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<isa::ChipSpec> spec = loadChipForPass(chip, module);
    if (failed(spec))
      return signalPassFailure();
    for (auto f : module.getOps<func::FuncOp>())
      if (failed(schedule(f, *spec)))
        return signalPassFailure();
    module->setAttr(sched::SchedDialect::kChipAttr,
                    StringAttr::get(&getContext(), spec->name));
  }

  LogicalResult schedule(func::FuncOp f, const isa::ChipSpec &spec) {
    llvm::DenseMap<Value, uint64_t> ready; // cycle a value is complete
    // Queue = (node, unit) or (node, kNumUnits + link): cycle it is free.
    llvm::DenseMap<std::pair<int64_t, uint64_t>, uint64_t> freeAt;
    for (Operation &op :
         llvm::make_early_inc_range(f.getBody().front().without_terminator())) {
      if (llvm::isa<graph::ConstantOp>(op))
        continue;
      FailureOr<isa::Opcode> code = opcodeOf(&op);
      if (failed(code))
        return op.emitOpError("has no instruction on this chip");
      std::optional<int64_t> node = part::getNode(&op);
      if (!node)
        return op.emitOpError("is not placed on a node; run lpx-partition "
                              "first");
      uint64_t start = 0;
      for (Value v : op.getOperands())
        start = std::max(start, ready.lookup(v));
      isa::Cost cost = costOf(spec, &op);
      auto transfer = dyn_cast<part::TransferOp>(op);
      int64_t queueNode = transfer ? transfer.getFrom() : *node;
      uint64_t link = transfer ? isa::directLink(transfer.getFrom(),
                                                 transfer.getTo())
                               : 0;
      uint64_t queue = transfer ? isa::kNumUnits + link
                                : uint64_t(isa::unitOf(*code));
      uint64_t &free = freeAt[{queueNode, queue}];
      uint64_t issue = std::max(start, free);
      free = issue + cost.busy;
      auto slot = sched::SlotAttr::get(
          &getContext(), isa::unitName(isa::unitOf(*code)), issue, cost.busy,
          cost.latency);
      Operation *scheduled = &op;
      if (transfer) {
        OpBuilder b(transfer);
        auto i64 = [&](uint64_t v) { return b.getI64IntegerAttr(int64_t(v)); };
        auto send = b.create<sched::SendOp>(
            transfer.getLoc(), transfer.getType(), transfer.getInput(),
            transfer.getFromAttr(), transfer.getToAttr(), i64(link),
            i64(issue), i64(cost.done(issue)));
        part::setNode(send, transfer.getTo());
        transfer.replaceAllUsesWith(send.getResult());
        transfer.erase();
        scheduled = send;
      }
      scheduled->setAttr(sched::SchedDialect::kSlotAttr, slot);
      ready[scheduled->getResult(0)] = cost.done(issue);
    }
    return success();
  }
};

} // namespace
