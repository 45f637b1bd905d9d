//===- AllocateSram.cpp - SRAM addresses for every value ------------------===//
//
// Linear-scan allocation per node over scheduled cycles. A value occupies its
// range from the cycle its producer issues until its last reader finishes
// (inputs, constants and outputs: the whole program), so a range is handed to
// a new value only when no instruction can still touch the old one.
//
// Placement also avoids SRAM bank conflicts: while an instruction writes its
// result, no instruction may read or write the same bank (isa/Banks.h). The
// result therefore goes to banks that no instruction running at the same
// time touches, its own operands included.
//
//===----------------------------------------------------------------------===//
#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Dialect/Part/IR/PartOps.h"
#include "lpx/Dialect/Sched/IR/SchedOps.h"
#include "lpx/Target/ISABridge.h"
#include "lpx/isa/Banks.h"
#include "lpx/Transforms/Passes.h"
#include "lpx/Transforms/FitReport.h"
#include "lpx/Support/StageWork.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include <map>
#include <queue>

namespace lpx {
#define GEN_PASS_DEF_ALLOCATESRAM
#include "lpx/Transforms/Passes.h.inc"
} // namespace lpx

using namespace mlir;
using namespace lpx;

namespace {

constexpr uint64_t kForever = UINT64_MAX;
constexpr uint64_t kAlign = 64;

struct Tenant {
  Value value;
  int64_t node;
  uint64_t bytes;
  uint64_t start, end; // cycles [start, end)
  uint64_t addr = 0;
};

/// Adds `t`'s bytes to what it holds: a weight, a state, an input or
/// output of the program (`ret` its return), or a temporary.
void addByKind(FitBytes &b, const Tenant &t, bool isState, Operation *ret) {
  if (isState)
    b.state += t.bytes;
  else if (llvm::isa<BlockArgument>(t.value) ||
           llvm::is_contained(t.value.getUsers(), ret))
    b.activations += t.bytes;
  else if (llvm::isa<graph::ConstantOp>(t.value.getDefiningOp()))
    b.weights += t.bytes;
  else
    b.temporaries += t.bytes;
}

/// First-fit free list of one node's SRAM with coalescing.
class FreeList {
public:
  explicit FreeList(uint64_t capacity) { free_[0] = capacity; }
  /// First fit whose banks avoid every range in `forbidden` (sorted by
  /// first bank, non-overlapping).
  std::optional<uint64_t> allocate(uint64_t bytes,
                                   llvm::ArrayRef<lpx::isa::BankRange> forbidden,
                                   uint64_t bankBytes) {
    bytes = std::max<uint64_t>(kAlign, (bytes + kAlign - 1) / kAlign * kAlign);
    for (auto it = free_.begin(); it != free_.end(); ++it) {
      uint64_t addr = it->first, end = it->first + it->second;
      for (const lpx::isa::BankRange &f : forbidden) {
        if (addr + bytes > end)
          break;
        lpx::isa::BankRange want{addr / bankBytes,
                                 (addr + bytes - 1) / bankBytes};
        if (!want.overlaps(f))
          continue;
        // Skip past the forbidden banks, keeping the alignment.
        uint64_t next = (f.last + 1) * bankBytes;
        addr = (next + kAlign - 1) / kAlign * kAlign;
      }
      if (addr + bytes > end)
        continue;
      take(it, addr, bytes);
      return addr;
    }
    return std::nullopt;
  }
  void release(uint64_t addr) {
    uint64_t size = used_[addr];
    used_.erase(addr);
    auto next = free_.lower_bound(addr);
    if (next != free_.end() && addr + size == next->first) {
      size += next->second;
      next = free_.erase(next);
    }
    if (next != free_.begin()) {
      auto prev = std::prev(next);
      if (prev->first + prev->second == addr) {
        prev->second += size;
        return;
      }
    }
    free_[addr] = size;
  }
  uint64_t highWater() const { return high_; }
  uint64_t inUse() const {
    uint64_t n = 0;
    for (auto &[a, s] : used_)
      n += s;
    return n;
  }

private:
  /// Carves [addr, addr + bytes) out of the free block `it`.
  void take(std::map<uint64_t, uint64_t>::iterator it, uint64_t addr,
            uint64_t bytes) {
    uint64_t start = it->first, size = it->second;
    free_.erase(it);
    if (addr > start)
      free_[start] = addr - start;
    if (start + size > addr + bytes)
      free_[addr + bytes] = start + size - (addr + bytes);
    used_[addr] = bytes;
    high_ = std::max(high_, addr + bytes);
  }

  std::map<uint64_t, uint64_t> free_, used_;
  uint64_t high_ = 0;
};

sched::SlotAttr slotOf(Operation *op) {
  return op->getAttrOfType<sched::SlotAttr>(sched::SchedDialect::kSlotAttr);
}

/// Which values are read or written on a node while another is written.
/// Every instruction is an access window [issue, done) on a node, reading
/// its operands and writing its result; a send reads on its source node and
/// writes on its destination. Windows are few at any cycle (one per unit and
/// link), so a scan around a window's position in issue order is short.
class BankConflicts {
public:
  BankConflicts(Block &body, const llvm::DenseMap<Value, size_t> &tenantOf) {
    for (Operation &op : body.without_terminator()) {
      sched::SlotAttr s = slotOf(&op);
      if (!s)
        continue;
      size_t result = tenantOf.lookup(op.getResult(0));
      SmallVector<size_t> reads;
      for (Value v : op.getOperands())
        reads.push_back(tenantOf.lookup(v));
      if (auto send = dyn_cast<sched::SendOp>(op)) {
        add(send.getFrom(), s, reads, std::nullopt);
        add(send.getTo(), s, {}, result);
      } else {
        add(*part::getNode(&op), s, reads, result);
      }
    }
    for (auto &[node, list] : windows)
      llvm::stable_sort(list, [](const Window &a, const Window &b) {
        return a.start < b.start;
      });
    for (auto &[node, list] : windows)
      for (size_t i = 0; i < list.size(); ++i)
        if (list[i].write)
          writerAt[*list[i].write].push_back({node, i});
  }

  /// Tenants read or written by any window that overlaps the window writing
  /// `tenant` (its own operands included). Empty for inputs and constants.
  SmallVector<size_t> touchedWhileWriting(size_t tenant) const {
    SmallVector<size_t> out;
    auto it = writerAt.find(tenant);
    if (it == writerAt.end())
      return out;
    // A state is written once per chunk of a chunked prefill: every write.
    for (auto [node, k] : it->second) {
      const std::vector<Window> &list = windows.find(node)->second;
      const Window &w = list[k];
      uint64_t longest = longestWindow.lookup(node);
      auto collect = [&](const Window &x) {
        if (x.start >= w.end || x.end <= w.start)
          return;
        llvm::append_range(out, x.reads);
        if (x.write)
          out.push_back(*x.write);
      };
      for (size_t j = k + 1; j-- > 0;) {
        if (list[j].start + longest <= w.start)
          break;
        collect(list[j]);
      }
      for (size_t j = k + 1; j < list.size() && list[j].start < w.end; ++j)
        collect(list[j]);
    }
    return out;
  }

private:
  struct Window {
    uint64_t start, end;
    SmallVector<size_t, 3> reads;
    std::optional<size_t> write;
  };
  void add(int64_t node, sched::SlotAttr s, ArrayRef<size_t> reads,
           std::optional<size_t> write) {
    windows[node].push_back({s.getIssue(), s.getDone(),
                             SmallVector<size_t, 3>(reads), write});
    uint64_t &l = longestWindow[node];
    l = std::max(l, s.getDone() - s.getIssue());
  }

  std::map<int64_t, std::vector<Window>> windows;
  llvm::DenseMap<int64_t, uint64_t> longestWindow;
  llvm::DenseMap<size_t, SmallVector<std::pair<int64_t, size_t>, 1>> writerAt;
};

struct AllocateSramPass : lpx::impl::AllocateSramBase<AllocateSramPass> {
  using AllocateSramBase::AllocateSramBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<isa::ChipSpec> spec = chipOf(module);
    if (failed(spec))
      return signalPassFailure();
    for (auto f : module.getOps<func::FuncOp>())
      if (failed(allocate(f, *spec)))
        return signalPassFailure();
  }

  LogicalResult allocate(func::FuncOp f, const isa::ChipSpec &spec) {
    Block &body = f.getBody().front();
    Operation *ret = body.getTerminator();
    std::vector<Tenant> tenants;
    llvm::DenseMap<Value, size_t> tenantOf;
    auto lastRead = [&](Value v) {
      uint64_t end = 0;
      for (Operation *user : v.getUsers()) {
        if (user == ret)
          return kForever;
        if (auto s = slotOf(user))
          end = std::max(end, s.getIssue() + s.getBusy());
      }
      return end;
    };
    auto addTenant = [&](Tenant t) {
      tenantOf[t.value] = tenants.size();
      tenants.push_back(t);
    };
    for (BlockArgument arg : body.getArguments())
      addTenant({arg, part::getNodeOfValue(arg),
                 tensorDescOf(arg.getType()).bytes(), 0, kForever});
    for (Operation &op : body.without_terminator()) {
      Value v = op.getResult(0);
      uint64_t bytes = tensorDescOf(v.getType()).bytes();
      std::optional<int64_t> node = part::getNode(&op);
      if (!node)
        return op.emitOpError("is not placed on a node");
      if (llvm::isa<graph::ConstantOp>(op)) {
        addTenant({v, *node, bytes, 0, kForever});
        continue;
      }
      // A state write's result is its state's buffer (written in place).
      if (auto write = dyn_cast<graph::StateWriteOp>(op)) {
        tenantOf[v] = tenantOf.lookup(write.getState());
        continue;
      }
      sched::SlotAttr s = slotOf(&op);
      if (!s)
        return op.emitOpError("is not scheduled; run lpx-schedule first");
      addTenant({v, *node, bytes, s.getIssue(),
                 std::max(s.getDone(), lastRead(v))});
    }
    BankConflicts banks(body, tenantOf);
    // A state is placed first (it is there from cycle 0), before the values
    // its write runs beside: those keep off its banks instead.
    llvm::DenseMap<size_t, SmallVector<size_t>> statesBeside;
    for (auto write : body.getOps<graph::StateWriteOp>()) {
      size_t state = tenantOf.lookup(write.getState());
      for (size_t other : banks.touchedWhileWriting(state))
        if (other != state)
          statesBeside[other].push_back(state);
    }

    // Per node, in order of start cycle (stable: program order breaks ties),
    // resident states first, each from the first bank after the states
    // before it (so no two states share a bank, whatever the program does
    // with them): they then lie at the same addresses in every program that
    // holds the same states on the node (a model's prefill and its decode
    // step), so one program's state is the next one's.
    std::vector<size_t> order(tenants.size());
    std::vector<bool> isState(tenants.size(), false);
    for (size_t i = 0; i < order.size(); ++i) {
      order[i] = i;
      if (auto arg = dyn_cast<BlockArgument>(tenants[i].value))
        isState[i] = bool(f.getArgAttr(arg.getArgNumber(), graph::kStateAttr));
    }
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return std::make_tuple(tenants[a].node, !isState[a], tenants[a].start) <
             std::make_tuple(tenants[b].node, !isState[b], tenants[b].start);
    });
    const uint64_t bankBytes = isa::bankBytes(spec);
    std::vector<bool> placed(tenants.size(), false);
    int64_t node = -1;
    std::optional<FreeList> freeList;
    using Active = std::pair<uint64_t, size_t>; // (end, tenant)
    std::priority_queue<Active, std::vector<Active>, std::greater<>> active;
    lpx::StageWork work(order.size());
    SmallVector<size_t> statesOfNode; // placed on the current node
    for (size_t idx : order) {
      work.step();
      Tenant &t = tenants[idx];
      if (t.node != node) {
        node = t.node;
        freeList.emplace(spec.sram.bytes);
        active = {};
        statesOfNode.clear();
      }
      while (!active.empty() && active.top().first <= t.start) {
        freeList->release(tenants[active.top().second].addr);
        active.pop();
      }
      SmallVector<isa::BankRange> forbidden;
      auto forbid = [&](size_t other) {
        if (placed[other] && other != idx && tenants[other].bytes)
          forbidden.push_back(
              isa::banksOf(spec, tenants[other].addr, tenants[other].bytes));
      };
      if (isState[idx]) {
        for (size_t other : statesOfNode)
          forbid(other);
        statesOfNode.push_back(idx);
      } else {
        for (size_t other : banks.touchedWhileWriting(idx))
          forbid(other);
        for (size_t state : statesBeside.lookup(idx))
          forbid(state);
      }
      llvm::sort(forbidden, [](auto &a, auto &b) { return a.first < b.first; });
      std::optional<uint64_t> addr =
          freeList->allocate(t.bytes, forbidden, bankBytes);
      if (!addr) {
        InFlightDiagnostic d =
            t.value.getDefiningOp()
                ? t.value.getDefiningOp()->emitError()
                : f.emitError();
        d << "node " << node << " is out of SRAM: " << t.bytes
          << " more bytes needed with " << freeList->inUse() << " of "
          << spec.sram.bytes << " in use";
        if (!forbidden.empty())
          d << " and " << forbidden.size()
            << " bank ranges busy while it is written";
        d << ", at cycle " << t.start
          << " of the schedule (inputs, outputs and weights stay for the "
             "whole program; temporaries until their last reader)";
        if (FitReport *r = fitReportSink()) {
          r->failure = FitFailure::ScheduleOutOfSram;
          if (Diagnostic *diag = d.getUnderlyingDiagnostic())
            r->message = diag->str();
          r->chip = spec.name;
          ModuleOp module = f->getParentOfType<ModuleOp>();
          if (auto n = module->getAttrOfType<IntegerAttr>(
                  part::PartDialect::kNumNodesAttr))
            r->nodes = unsigned(n.getInt());
          r->sramBytes = spec.sram.bytes;
          r->fullestChip = unsigned(node);
          // What is live on the node at this cycle, and the value itself.
          for (size_t i = 0; i < tenants.size(); ++i)
            if (i == idx || (placed[i] && tenants[i].node == node &&
                             tenants[i].end > t.start))
              addByKind(r->fullest, tenants[i], isState[i], ret);
          r->all = r->fullest;
        }
        return failure();
      }
      t.addr = *addr;
      placed[idx] = true;
      active.push({t.end, idx});
    }
    OpBuilder b(f.getContext());
    for (Tenant &t : tenants) {
      auto attr = b.getI64IntegerAttr(int64_t(t.addr));
      if (auto arg = dyn_cast<BlockArgument>(t.value))
        f.setArgAttr(arg.getArgNumber(), sched::SchedDialect::kAddrAttr, attr);
      else
        t.value.getDefiningOp()->setAttr(sched::SchedDialect::kAddrAttr, attr);
    }
    for (auto write : body.getOps<graph::StateWriteOp>())
      write->setAttr(sched::SchedDialect::kAddrAttr,
                     b.getI64IntegerAttr(int64_t(
                         tenants[tenantOf.lookup(write.getState())].addr)));
    return success();
  }
};

} // namespace
