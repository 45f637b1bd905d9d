//===- Schedule.cpp - Issue cycles for every instruction ------------------===//
//
// IR level 2 to 3. A list scheduler: an op becomes ready when its operands'
// producers are scheduled; of the ready ops, the one with the longest chain
// of work still behind it (busy + latency down to the end of the program)
// goes first, and issues at the first cycle when its operands are ready
// and one of its unit's queues (or its outgoing link) has a gap long enough
// for it. An operand is ready when it is complete, or, with
// stream.chaining, early enough that an elementwise consumer reading a
// streaming producer's vectors as they come never overtakes them
// (isa::chainEarliest; docs/simulator.md, "Chaining"). Filling gaps lets an urgent op run ahead of earlier, less urgent
// ones on the same queue; no queue or link ever holds two instructions in
// one cycle. A transfer becomes one send per hop of its route (store and
// forward through the intermediate chips). Multi-chip programs start after
// the counters' deskew. Ties are broken by program order, so the schedule is
// deterministic.
//
//===----------------------------------------------------------------------===//
#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Dialect/Part/IR/PartOps.h"
#include "lpx/Dialect/Sched/IR/SchedOps.h"
#include "lpx/Target/ISABridge.h"
#include "lpx/Transforms/Passes.h"
#include "lpx/Support/StageWork.h"
#include "lpx/isa/Chaining.h"
#include "lpx/isa/Topology.h"
#include "lpx/isa/UnitOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

#include <map>
#include <optional>
#include <queue>

namespace lpx {
#define GEN_PASS_DEF_SCHEDULE
#include "lpx/Transforms/Passes.h.inc"
} // namespace lpx

using namespace mlir;
using namespace lpx;

namespace {

/// The busy intervals of one queue, [start, end), kept merged so a queue
/// that is never idle is a single interval.
class QueueTimeline {
public:
  explicit QueueTimeline(uint64_t start0) : start0(start0) {}

  /// First cycle >= `ready` with `busy` free cycles.
  uint64_t earliest(uint64_t ready, uint64_t busy) const {
    uint64_t t = std::max(ready, start0);
    auto it = busyAt.upper_bound(t);
    if (it != busyAt.begin() && std::prev(it)->second > t)
      t = std::prev(it)->second;
    for (; it != busyAt.end() && it->first < t + busy; ++it)
      t = std::max(t, it->second);
    return t;
  }

  void occupy(uint64_t start, uint64_t busy) {
    uint64_t end = start + busy;
    auto next = busyAt.lower_bound(start);
    if (next != busyAt.end() && next->first == end) { // touches the next one
      end = next->second;
      next = busyAt.erase(next);
    }
    if (next != busyAt.begin() && std::prev(next)->second == start) {
      std::prev(next)->second = end; // extends the previous one
      return;
    }
    busyAt.emplace(start, end);
  }

private:
  uint64_t start0;
  std::map<uint64_t, uint64_t> busyAt; // start -> end
};

struct SchedulePass : lpx::impl::ScheduleBase<SchedulePass> {
  using ScheduleBase::ScheduleBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<isa::ChipSpec> spec = chipOf(module);
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
  }

  /// One op to schedule: a unit instruction or a transfer (one send per hop).
  struct Task {
    Operation *op;
    isa::Unit unit = isa::Unit::MEM;
    isa::Opcode opcode = isa::Opcode::Copy; // unit instructions
    int64_t node = 0;
    isa::Cost cost;               // unit instructions
    std::vector<isa::Hop> hops;   // transfers
    std::vector<isa::Cost> hopCosts;
    uint64_t own = 0;             // busy + latency of the whole task
    uint64_t tail = 0;            // own + the longest tail of a reader
    unsigned waiting = 0;         // producers not scheduled yet
    std::vector<size_t> readers;
    /// Tasks to be complete before it issues beyond its operands: for a
    /// state_write into an earlier write's result, that result's other
    /// readers (done before it is written over in place); for a chunk's
    /// copy of an op, the chunk before's. Indices, not values: a transfer
    /// is erased once scheduled, and its result with it.
    std::vector<size_t> after;
    /// Which prefill chunk of lpx-unroll-chunks the op is a copy of (0
    /// outside a chunked program).
    uint32_t chunk = 0;
  };

  LogicalResult collect(func::FuncOp f, const isa::ChipSpec &spec,
                        uint32_t numNodes, std::vector<Task> &tasks) {
    llvm::DenseMap<Operation *, size_t> index;
    for (Operation &op : f.getBody().front().without_terminator()) {
      if (llvm::isa<graph::ConstantOp>(op))
        continue;
      Task t{&op};
      if (auto transfer = dyn_cast<part::TransferOp>(op)) {
        uint64_t bytes = tensorDescOf(transfer.getType()).bytes();
        t.hops = isa::route(spec, numNodes, uint32_t(transfer.getFrom()),
                            uint32_t(transfer.getTo()));
        if (t.hops.empty())
          return transfer.emitOpError("has no route from node ")
                 << transfer.getFrom() << " to node " << transfer.getTo();
        // On idle links: each hop as early as forwarding allows.
        uint64_t issue = 0;
        for (const isa::Hop &hop : t.hops) {
          isa::Cost cost = isa::sendCost(spec, bytes, hop.rate);
          if (!t.hopCosts.empty())
            issue = isa::forwardEarliest(spec, bytes, issue, t.hopCosts.back(),
                                         cost);
          t.hopCosts.push_back(cost);
          t.own = cost.done(issue);
        }
      } else {
        auto inst = dyn_cast<InstructionOpInterface>(op);
        if (!inst)
          return op.emitOpError("has no instruction on this chip");
        std::optional<int64_t> node = part::getNode(&op);
        if (!node)
          return op.emitOpError("is not placed on a node; run lpx-partition "
                                "first");
        t.opcode = inst.getOpcode();
        t.unit = isa::unitOf(t.opcode);
        t.node = *node;
        t.cost = costOf(spec, inst);
        t.own = t.cost.busy + t.cost.latency;
      }
      index[&op] = tasks.size();
      tasks.push_back(std::move(t));
    }
    for (size_t i = 0; i < tasks.size(); ++i)
      for (Value v : tasks[i].op->getOperands())
        if (auto it = index.find(v.getDefiningOp()); it != index.end()) {
          tasks[it->second].readers.push_back(i);
          ++tasks[i].waiting;
        }
    // A chunked prefill (lpx-unroll-chunks): each op's copy waits for the
    // copy of the chunk before, so chunks pass every unit in order.
    llvm::DenseMap<int64_t, size_t> lastCopy;
    for (size_t i = 0; i < tasks.size(); ++i) {
      auto step = tasks[i].op->getAttrOfType<IntegerAttr>(
          part::PartDialect::kChunkOpAttr);
      if (!step)
        continue;
      auto [it, first] = lastCopy.try_emplace(step.getInt(), i);
      if (first)
        continue;
      tasks[i].chunk = tasks[it->second].chunk + 1;
      tasks[it->second].readers.push_back(i);
      ++tasks[i].waiting;
      tasks[i].after.push_back(it->second);
      it->second = i;
    }
    // A chunk's state_write waits for the reads of the state as the chunk
    // before left it (a write after read in the same buffer).
    for (size_t i = 0; i < tasks.size(); ++i) {
      auto write = dyn_cast<graph::StateWriteOp>(tasks[i].op);
      if (!write || !write.getState().getDefiningOp<graph::StateWriteOp>())
        continue;
      for (Operation *user : write.getState().getUsers())
        if (auto it = index.find(user);
            user != write && it != index.end()) {
          tasks[it->second].readers.push_back(i);
          ++tasks[i].waiting;
          tasks[i].after.push_back(it->second);
        }
    }
    // Readers come after their producers in the block: one backward pass.
    // The tail follows the data only: an order edge (the next chunk's copy,
    // a later write of the state) would make every chunk's first layers
    // outrank the first chunk's later ones, running the prompt layer by
    // layer across all chunks instead of through the stages chunk by chunk.
    for (size_t i = tasks.size(); i-- > 0;) {
      uint64_t after = 0;
      for (size_t r : tasks[i].readers)
        if (!llvm::is_contained(tasks[r].after, i))
          after = std::max(after, tasks[r].tail);
      tasks[i].tail = tasks[i].own + after;
    }
    return success();
  }

  LogicalResult schedule(func::FuncOp f, const isa::ChipSpec &spec,
                         uint32_t numNodes) {
    std::vector<Task> tasks;
    if (failed(collect(f, spec, numNodes, tasks)))
      return failure();
    const uint64_t start0 = numNodes > 1 ? spec.topology.deskewCycles : 0;
    // Queue = (node, unit queue id) or (node, link id): its timeline.
    std::map<std::pair<int64_t, uint64_t>, QueueTimeline> queues;
    auto timeline = [&](int64_t node, uint64_t id) -> QueueTimeline & {
      return queues.try_emplace({node, id}, start0).first->second;
    };
    llvm::DenseMap<Value, uint64_t> ready; // cycle a value is complete
    // Values whose producer streams its result: issue and cost.
    llvm::DenseMap<Value, isa::Emission> streaming;
    // Values made by vector operations: where, for isa::fusesInMesh.
    llvm::DenseMap<Value, Placed> meshHolders;

    // Earlier chunk first (a chunked prefill is a pipeline: chunk k + 1
    // fills the gaps chunk k leaves on a stage), then longest tail, then
    // program order.
    auto later = [&](size_t a, size_t b) {
      if (tasks[a].chunk != tasks[b].chunk)
        return tasks[a].chunk > tasks[b].chunk;
      return tasks[a].tail != tasks[b].tail ? tasks[a].tail < tasks[b].tail
                                            : a > b;
    };
    std::priority_queue<size_t, std::vector<size_t>, decltype(later)> open(
        later);
    for (size_t i = 0; i < tasks.size(); ++i)
      if (tasks[i].waiting == 0)
        open.push(i);
    lpx::StageWork work(tasks.size());
    std::vector<uint64_t> doneAt(tasks.size(), 0); // a scheduled task's end
    auto afterDone = [&](const Task &t) {
      uint64_t at = 0;
      for (size_t k : t.after)
        at = std::max(at, doneAt[k]);
      return at;
    };
    while (!open.empty()) {
      const size_t i = open.top();
      Task &t = tasks[i];
      open.pop();
      work.step();
      if (auto transfer = dyn_cast<part::TransferOp>(t.op)) {
        uint64_t start = afterDone(t);
        for (Value v : t.op->getOperands())
          start = std::max(start, ready.lookup(v));
        doneAt[i] = scheduleTransfer(transfer, t, spec, start, timeline, ready);
        t.op = nullptr; // erased
      } else {
        Placed at = scheduleInstruction(
            t, spec,
            std::max(operandsReady(t, spec, ready, streaming), afterDone(t)),
            timeline, ready, meshHolders);
        doneAt[i] = ready.lookup(t.op->getResult(0));
        if (isa::streamsResult(spec, t.opcode))
          streaming[t.op->getResult(0)] =
              isa::Emission{at.issue, t.cost, true};
        if (t.cost.passes > 0)
          meshHolders[t.op->getResult(0)] = at;
      }
      for (size_t r : t.readers)
        if (--tasks[r].waiting == 0)
          open.push(r);
    }
    return success();
  }

  /// The first cycle at which instruction `t` may read all its operands:
  /// each complete, or chained behind its streaming producer.
  static uint64_t
  operandsReady(const Task &t, const isa::ChipSpec &spec,
                const llvm::DenseMap<Value, uint64_t> &ready,
                const llvm::DenseMap<Value, isa::Emission> &streaming) {
    const uint64_t resultElements =
        tensorDescOf(t.op->getResult(0).getType()).elements();
    uint64_t start = 0;
    for (Value v : t.op->getOperands()) {
      uint64_t at = ready.lookup(v);
      auto producer = streaming.find(v);
      if (producer != streaming.end()) {
        isa::TensorDesc d = tensorDescOf(v.getType());
        if (isa::streamsOperand(spec, t.opcode, d.elements(), resultElements))
          at = isa::chainEarliest(spec.vectorsFor(d.bytes()), producer->second,
                                  t.cost, /*streamed=*/true);
      }
      start = std::max(start, at);
    }
    return start;
  }

  /// Key of queue `k` of `unit`; links use (kNumUnits + link), so the other
  /// queues of a unit start far above any link id.
  static uint64_t unitQueueId(isa::Unit unit, uint32_t k) {
    return k == 0 ? uint64_t(unit)
                  : (uint64_t(1) << 32) + uint64_t(k) * isa::kNumUnits +
                        uint64_t(unit);
  }

  /// Where and when an instruction went.
  struct Placed {
    uint64_t issue = 0;
    uint32_t queue = 0;
    isa::Cost cost;
    bool fused = false; // shares the ALU mesh with its producer
  };

  /// A vector operation may join the one holding its queue when that one
  /// produces an operand it streams (docs/simulator.md, "Chaining", item 6):
  /// issued at `start` (chained, so at or after the holder's issue), it
  /// needs the queue only from the holder's end on.
  template <typename Timeline>
  std::optional<Placed>
  fuseInMesh(const Task &t, const isa::ChipSpec &spec, uint64_t start,
             Timeline &timeline, const llvm::DenseMap<Value, Placed> &holders) {
    const uint64_t resultElements =
        tensorDescOf(t.op->getResult(0).getType()).elements();
    for (Value v : t.op->getOperands()) {
      auto h = holders.find(v);
      if (h == holders.end() || h->second.fused ||
          part::getNode(v.getDefiningOp()) != t.node ||
          !isa::fusesInMesh(spec, h->second.cost, t.cost) ||
          !isa::streamsOperand(spec, t.opcode,
                               tensorDescOf(v.getType()).elements(),
                               resultElements))
        continue;
      const uint64_t holderEnd = h->second.issue + h->second.cost.busy;
      if (start >= holderEnd || start < h->second.issue)
        continue;
      auto &queue = timeline(t.node, unitQueueId(t.unit, h->second.queue));
      const uint64_t end = start + t.cost.busy;
      if (end > holderEnd &&
          queue.earliest(holderEnd, end - holderEnd) != holderEnd)
        continue;
      if (end > holderEnd)
        queue.occupy(holderEnd, end - holderEnd);
      return Placed{start, h->second.queue, t.cost, true};
    }
    return std::nullopt;
  }

  /// Issues at the earliest gap of any of the unit's queues (the lowest
  /// queue on a tie), or joining the holder of the ALU mesh (fuseInMesh).
  template <typename Timeline>
  Placed scheduleInstruction(Task &t, const isa::ChipSpec &spec,
                             uint64_t start, Timeline &timeline,
                             llvm::DenseMap<Value, uint64_t> &ready,
                             const llvm::DenseMap<Value, Placed> &holders) {
    std::optional<Placed> fused =
        fuseInMesh(t, spec, start, timeline, holders);
    const uint32_t count = isa::queueCount(spec, t.unit);
    uint64_t queue = fused ? fused->queue : 0;
    uint64_t issue = fused ? fused->issue : UINT64_MAX;
    for (uint32_t k = 0; k < count && !fused; ++k) {
      uint64_t at =
          timeline(t.node, unitQueueId(t.unit, k)).earliest(start, t.cost.busy);
      if (at < issue) {
        issue = at;
        queue = k;
      }
    }
    if (!fused)
      timeline(t.node, unitQueueId(t.unit, uint32_t(queue)))
          .occupy(issue, t.cost.busy);
    t.op->setAttr(sched::SchedDialect::kSlotAttr,
                  sched::SlotAttr::get(&getContext(), isa::unitName(t.unit),
                                       issue, t.cost.busy, t.cost.latency,
                                       queue));
    ready[t.op->getResult(0)] = t.cost.done(issue);
    return Placed{issue, uint32_t(queue), t.cost, bool(fused)};
  }

  /// One send per hop; each hop leaves when its link has a gap and the
  /// previous hop's flits can be forwarded (isa::forwardEarliest: as they
  /// arrive with link.cut_through, else once all have arrived). Returns
  /// the cycle the last hop's value is complete.
  template <typename Timeline>
  uint64_t scheduleTransfer(part::TransferOp transfer, const Task &t,
                        const isa::ChipSpec &spec,
                        uint64_t start, Timeline &timeline,
                        llvm::DenseMap<Value, uint64_t> &ready) {
    OpBuilder b(transfer);
    auto i64 = [&](uint64_t v) { return b.getI64IntegerAttr(int64_t(v)); };
    Value value = transfer.getInput();
    const uint64_t bytes = tensorDescOf(transfer.getType()).bytes();
    std::optional<std::pair<uint64_t, isa::Cost>> previous; // issue, cost
    for (auto [hop, cost] : llvm::zip(t.hops, t.hopCosts)) {
      QueueTimeline &link = timeline(hop.from, isa::kNumUnits + hop.link);
      if (previous)
        start = isa::forwardEarliest(spec, bytes, previous->first,
                                     previous->second, cost);
      uint64_t issue = link.earliest(start, cost.busy);
      previous = {issue, cost};
      link.occupy(issue, cost.busy);
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
    transfer.replaceAllUsesWith(value);
    transfer.erase();
    return start;
  }
};

} // namespace
