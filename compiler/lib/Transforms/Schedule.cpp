//===- Schedule.cpp - Issue cycles for every instruction ------------------===//
//
// IR level 2 to 3. One pass over the ops in program order: each issues at the
// first cycle when its operands are complete and a queue of its unit (or its
// outgoing link) is free; of a unit's queues it takes the one free first
// (the lowest-numbered on a tie). Queues therefore stay in program order and
// no queue or link ever holds two instructions in one cycle. A transfer
// becomes one send per hop of its route (store and forward through the
// intermediate chips). Multi-chip programs start after the counters' deskew.
//
//===----------------------------------------------------------------------===//
#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Dialect/Part/IR/PartOps.h"
#include "lpx/Dialect/Sched/IR/SchedOps.h"
#include "lpx/Target/ISABridge.h"
#include "lpx/Transforms/Passes.h"
#include "lpx/isa/Topology.h"
#include "lpx/isa/UnitOps.h"

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
    auto nodes = module->getAttrOfType<IntegerAttr>(
        part::PartDialect::kNumNodesAttr);
    if (!nodes) {
      module.emitError("module is not partitioned; run lpx-partition first");
      return signalPassFailure();
    }
    for (auto f : module.getOps<func::FuncOp>())
      if (failed(schedule(f, *spec, uint32_t(nodes.getInt()))))
        return signalPassFailure();
    module->setAttr(sched::SchedDialect::kChipAttr,
                    StringAttr::get(&getContext(), spec->name));
  }

  /// Key of queue `k` of `unit` in the free-cycle map; links use
  /// kNumUnits + link, so unit queues start far above any link id.
  static uint64_t unitQueueId(isa::Unit unit, uint32_t k) {
    return k == 0 ? uint64_t(unit)
                  : (uint64_t(1) << 32) + uint64_t(k) * isa::kNumUnits +
                        uint64_t(unit);
  }

  LogicalResult schedule(func::FuncOp f, const isa::ChipSpec &spec,
                         uint32_t numNodes) {
    llvm::DenseMap<Value, uint64_t> ready; // cycle a value is complete
    // Queue = (node, unit) or (node, kNumUnits + link): cycle it is free.
    llvm::DenseMap<std::pair<int64_t, uint64_t>, uint64_t> freeAt;
    const uint64_t start0 = numNodes > 1 ? spec.topology.deskewCycles : 0;
    auto queueFree = [&](int64_t node, uint64_t queue) -> uint64_t & {
      auto [it, inserted] = freeAt.try_emplace({node, queue}, start0);
      return it->second;
    };
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
      if (auto transfer = dyn_cast<part::TransferOp>(op)) {
        if (failed(scheduleTransfer(transfer, spec, numNodes, start,
                                    queueFree, ready)))
          return failure();
        continue;
      }
      isa::Cost cost = costOf(spec, &op);
      isa::Unit unit = isa::unitOf(*code);
      const uint32_t queues = isa::queueCount(spec, unit);
      uint64_t queue = 0;
      uint64_t issue = std::max(start, queueFree(*node, unitQueueId(unit, 0)));
      for (uint32_t k = 1; k < queues; ++k) {
        uint64_t at = std::max(start, queueFree(*node, unitQueueId(unit, k)));
        if (at < issue) {
          issue = at;
          queue = k;
        }
      }
      queueFree(*node, unitQueueId(unit, queue)) = issue + cost.busy;
      op.setAttr(sched::SchedDialect::kSlotAttr,
                 sched::SlotAttr::get(&getContext(), isa::unitName(unit),
                                      issue, cost.busy, cost.latency, queue));
      ready[op.getResult(0)] = cost.done(issue);
    }
    return success();
  }

  /// One send per hop; each hop leaves when the previous one has fully
  /// arrived and its link is free.
  template <typename QueueFree>
  LogicalResult scheduleTransfer(part::TransferOp transfer,
                                 const isa::ChipSpec &spec, uint32_t numNodes,
                                 uint64_t start, QueueFree &queueFree,
                                 llvm::DenseMap<Value, uint64_t> &ready) {
    uint64_t bytes = tensorDescOf(transfer.getType()).bytes();
    OpBuilder b(transfer);
    auto i64 = [&](uint64_t v) { return b.getI64IntegerAttr(int64_t(v)); };
    Value value = transfer.getInput();
    for (const isa::Hop &hop :
         isa::route(spec, numNodes, uint32_t(transfer.getFrom()),
                    uint32_t(transfer.getTo()))) {
      isa::Cost cost = isa::sendCost(spec, bytes, hop.global);
      uint64_t &free = queueFree(hop.from, isa::kNumUnits + hop.link);
      uint64_t issue = std::max(start, free);
      free = issue + cost.busy;
      auto send = b.create<sched::SendOp>(
          transfer.getLoc(), transfer.getType(), value, i64(hop.from),
          i64(hop.to), i64(hop.link), i64(issue), i64(cost.done(issue)));
      part::setNode(send, hop.to);
      send->setAttr(sched::SchedDialect::kSlotAttr,
                    sched::SlotAttr::get(&getContext(), "c2c", issue,
                                         cost.busy, cost.latency, 0));
      value = send.getResult();
      start = cost.done(issue);
      ready[value] = start;
    }
    if (value == transfer.getInput())
      return transfer.emitOpError("has no route from node ")
             << transfer.getFrom() << " to node " << transfer.getTo();
    transfer.replaceAllUsesWith(value);
    transfer.erase();
    return success();
  }
};

} // namespace
