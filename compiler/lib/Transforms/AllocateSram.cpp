//===- AllocateSram.cpp - SRAM addresses for every value ------------------===//
//
// Linear-scan allocation per node over scheduled cycles. A value occupies its
// range from the cycle its producer issues until its last reader finishes
// (inputs, constants and outputs: the whole program), so a range is handed to
// a new value only when no instruction can still touch the old one.
//
//===----------------------------------------------------------------------===//
#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Dialect/Part/IR/PartOps.h"
#include "lpx/Dialect/Sched/IR/SchedOps.h"
#include "lpx/Target/ISABridge.h"
#include "lpx/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
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

/// First-fit free list of one node's SRAM with coalescing.
class FreeList {
public:
  explicit FreeList(uint64_t capacity) { free_[0] = capacity; }
  std::optional<uint64_t> allocate(uint64_t bytes) {
    bytes = std::max<uint64_t>(kAlign, (bytes + kAlign - 1) / kAlign * kAlign);
    for (auto it = free_.begin(); it != free_.end(); ++it) {
      if (it->second < bytes)
        continue;
      uint64_t addr = it->first, size = it->second;
      free_.erase(it);
      if (size > bytes)
        free_[addr + bytes] = size - bytes;
      used_[addr] = bytes;
      high_ = std::max(high_, addr + bytes);
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
  std::map<uint64_t, uint64_t> free_, used_;
  uint64_t high_ = 0;
};

sched::SlotAttr slotOf(Operation *op) {
  return op->getAttrOfType<sched::SlotAttr>(sched::SchedDialect::kSlotAttr);
}

struct AllocateSramPass : lpx::impl::AllocateSramBase<AllocateSramPass> {
  using AllocateSramBase::AllocateSramBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<isa::ChipSpec> spec = loadChipForPass(chip, module);
    if (failed(spec))
      return signalPassFailure();
    if (auto scheduledFor = module->getAttrOfType<StringAttr>(
            sched::SchedDialect::kChipAttr);
        !scheduledFor || scheduledFor.getValue() != spec->name) {
      module.emitError() << "allocating for chip '" << spec->name
                         << "' a module not scheduled for it; run "
                            "lpx-schedule with the same chip first";
      return signalPassFailure();
    }
    for (auto f : module.getOps<func::FuncOp>())
      if (failed(allocate(f, *spec)))
        return signalPassFailure();
  }

  LogicalResult allocate(func::FuncOp f, const isa::ChipSpec &spec) {
    Block &body = f.getBody().front();
    Operation *ret = body.getTerminator();
    std::vector<Tenant> tenants;
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
    for (BlockArgument arg : body.getArguments())
      tenants.push_back({arg, 0, tensorDescOf(arg.getType()).bytes(), 0,
                         kForever});
    for (Operation &op : body.without_terminator()) {
      Value v = op.getResult(0);
      uint64_t bytes = tensorDescOf(v.getType()).bytes();
      std::optional<int64_t> node = part::getNode(&op);
      if (!node)
        return op.emitOpError("is not placed on a node");
      if (llvm::isa<graph::ConstantOp>(op)) {
        tenants.push_back({v, *node, bytes, 0, kForever});
        continue;
      }
      sched::SlotAttr s = slotOf(&op);
      if (!s)
        return op.emitOpError("is not scheduled; run lpx-schedule first");
      tenants.push_back({v, *node, bytes, s.getIssue(),
                         std::max(s.getDone(), lastRead(v))});
    }
    // Per node, in order of start cycle (stable: program order breaks ties).
    std::vector<size_t> order(tenants.size());
    for (size_t i = 0; i < order.size(); ++i)
      order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return std::tie(tenants[a].node, tenants[a].start) <
             std::tie(tenants[b].node, tenants[b].start);
    });
    int64_t node = -1;
    std::optional<FreeList> freeList;
    using Active = std::pair<uint64_t, size_t>; // (end, tenant)
    std::priority_queue<Active, std::vector<Active>, std::greater<>> active;
    for (size_t idx : order) {
      Tenant &t = tenants[idx];
      if (t.node != node) {
        node = t.node;
        freeList.emplace(spec.sram.bytes);
        active = {};
      }
      while (!active.empty() && active.top().first <= t.start) {
        freeList->release(tenants[active.top().second].addr);
        active.pop();
      }
      std::optional<uint64_t> addr = freeList->allocate(t.bytes);
      if (!addr) {
        InFlightDiagnostic d =
            t.value.getDefiningOp()
                ? t.value.getDefiningOp()->emitError()
                : f.emitError();
        d << "node " << node << " is out of SRAM: " << t.bytes
          << " more bytes needed with " << freeList->inUse() << " of "
          << spec.sram.bytes << " in use; compile for more nodes";
        return failure();
      }
      t.addr = *addr;
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
    return success();
  }
};

} // namespace
