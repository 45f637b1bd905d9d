//===- PartitionStages.cpp - Pipeline stages of consecutive ops -----------===//
//
// See PartitionStages.h. One walk in program order per stage count; the
// fewest stages that fit are found by a binary search over counts.
//
//===----------------------------------------------------------------------===//
#include "PartitionStages.h"
#include "PartitionShard.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Target/ISABridge.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <numeric>

using namespace mlir;
using namespace lpx;
using namespace lpx::graph;

namespace {
uint64_t bytesOf(Value v) { return tensorDescOf(v.getType()).bytes(); }

/// The constant `v` is when it is a weight seen for the first time: i32/i64
/// constants are positions, shapes and mask ranges, which differ between a
/// model's prefill and its step; weights alone decide the stages, so both
/// cut their layers alike and hold the same KV state on the same chips.
ConstantOp newWeight(Value v, llvm::DenseSet<Operation *> &seen) {
  auto c = v.getDefiningOp<ConstantOp>();
  Type element = c ? c.getType().getElementType() : Type();
  if (!c || element.isInteger(64) || element.isInteger(32) ||
      !seen.insert(c).second)
    return nullptr;
  return c;
}
} // namespace

SmallVector<Operation *> lpx::placedOps(func::FuncOp f) {
  SmallVector<Operation *> ops;
  for (Operation &op : f.getBody().front().without_terminator())
    if (!llvm::isa<ConstantOp>(op))
      ops.push_back(&op);
  return ops;
}

bool lpx::isResidualAdd(Operation *op) {
  auto add = dyn_cast<AddOp>(op);
  if (!add || add.getLhs().getType() != add.getType() ||
      add.getRhs().getType() != add.getType() || add.getType().getRank() < 2)
    return false;
  return !add.getResult().hasOneUse();
}

namespace {
/// The weight bytes each op adds, in order (each weight counted at its
/// first reader, as the walk's `account` counts it).
SmallVector<uint64_t> weightAdds(ArrayRef<Operation *> ops) {
  llvm::DenseSet<Operation *> seen;
  SmallVector<uint64_t> adds(ops.size(), 0);
  for (auto [i, op] : llvm::enumerate(ops))
    for (Value v : op->getOperands())
      if (ConstantOp c = newWeight(v, seen))
        adds[i] += bytesOf(c);
  return adds;
}

/// One walk of stagesOf. A stage may end at a residual add (any op
/// without them). `nearest`: it ends at the first at which the weights so
/// far plus half of those up to the next such place reach its share of
/// all weights, so where its weights are nearest its share; otherwise at
/// the first past its share (which can pile a whole layer's MLP onto a
/// stage that met its share with the embedding and attention).
SmallVector<StageSpan> cutStages(ArrayRef<Operation *> ops, int64_t pp,
                                 uint64_t stageBytes,
                                 const ExpertBlocks &blocks,
                                 ArrayRef<uint64_t> adds, bool nearest) {
  llvm::DenseSet<Operation *> seen;
  const uint64_t total =
      std::accumulate(adds.begin(), adds.end(), uint64_t(0));
  uint64_t sofar = 0;
  const bool residuals = llvm::any_of(ops, isResidualAdd);
  const auto mayEnd = [&](Operation *op) {
    return !residuals || isResidualAdd(op);
  };
  // At each place a stage may end, the weight bytes up to the next one.
  SmallVector<uint64_t> nextSpan(ops.size(), 0);
  for (uint64_t ahead = 0, i = ops.size(); i-- > 0;) {
    nextSpan[i] = ahead;
    ahead = mayEnd(ops[i]) ? adds[i] : ahead + adds[i];
  }
  SmallVector<StageSpan> spans;
  int64_t s = 0;
  bool due = false, empty = true; // empty: stage s holds no weight yet
  auto account = [&](Operation *op) {
    for (Value v : op->getOperands())
      if (ConstantOp c = newWeight(v, seen)) {
        sofar += bytesOf(c);
        empty = false;
      }
  };
  // An LM head's spread result, and the pointwise ops between it and the
  // return (the logits' cast), which run on its pieces.
  llvm::DenseMap<Value, StageSpan> spreadResults;
  // A table, or an expert block, that starts a fresh stage and takes as
  // many as hold it; the ops after it start the next one.
  auto spreadOver = [&](uint64_t bytes) {
    if (!empty && s + 1 < pp)
      ++s;
    return StageSpan{s, std::min<int64_t>(
                            int64_t((bytes + stageBytes - 1) / stageBytes),
                            pp - s)};
  };
  auto after = [&](StageSpan span) {
    if (span.first + span.count < pp) {
      s = span.first + span.count;
      empty = true;
    }
    due = false;
  };
  // The expert block being walked (spread over its stages), and the
  // position of its last op.
  std::optional<StageSpan> block;
  size_t blockEnd = 0;
  llvm::DenseMap<int64_t, size_t> lastOfBlock;
  for (auto [i, op] : llvm::enumerate(ops))
    if (auto it = blocks.sites.find(op); it != blocks.sites.end())
      lastOfBlock[it->second.block] = i;
  for (auto [i, op] : llvm::enumerate(ops)) {
    auto site = blocks.sites.find(op);
    if (!block && site != blocks.sites.end() && pp > 1 && stageBytes &&
        blocks.weightBytes[site->second.block] > stageBytes) {
      block = spreadOver(blocks.weightBytes[site->second.block]);
      blockEnd = lastOfBlock.lookup(site->second.block);
    }
    if (block) {
      spans.push_back(site != blocks.sites.end() ? *block
                                                 : StageSpan{block->first, 1});
      account(op);
      if (i == blockEnd) {
        after(*block);
        block.reset();
      }
      continue;
    }
    auto from = llvm::find_if(op->getOperands(), [&](Value v) {
      return spreadResults.count(v);
    });
    if (from != op->operand_end() && op->getNumResults() == 1 &&
        returnedAs(op->getResult(0))) {
      spans.push_back(spreadResults.lookup(*from));
      spreadResults[op->getResult(0)] = spans.back();
      account(op);
      continue;
    }
    ConstantOp table = pp > 1 ? spreadableTable(op) : nullptr;
    // An LM head's logits stay with it (in pieces) as program outputs.
    Value out = table ? returnedAs(op->getResult(0)) : nullptr;
    uint64_t bytes = table ? bytesOf(table) + (out ? bytesOf(out) : 0) : 0;
    if (table && !seen.contains(table) && stageBytes && bytes > stageBytes) {
      // (its readers' other values cross to its fresh stage)
      spans.push_back(spreadOver(bytes));
      if (out)
        spreadResults[op->getResult(0)] = spans.back();
      account(op);
      after(spans.back());
      continue;
    }
    spans.push_back({s, 1});
    account(op);
    if (nearest)
      due = mayEnd(op) && s + 1 < pp && !empty &&
            (2 * sofar + nextSpan[i]) * uint64_t(pp) >=
                2 * total * uint64_t(s + 1);
    else
      due = due ||
            (s + 1 < pp && sofar * uint64_t(pp) >= total * uint64_t(s + 1));
    if (due && mayEnd(op)) {
      ++s;
      due = false;
      empty = true;
    }
  }
  return spans;
}

/// The weight bytes of the fullest stage of `spans` (a spread op's over
/// its stages).
uint64_t fullestStage(ArrayRef<StageSpan> spans, ArrayRef<uint64_t> adds,
                      int64_t pp) {
  SmallVector<uint64_t> bytes(size_t(std::max<int64_t>(pp, 1)), 0);
  for (auto [span, add] : llvm::zip(spans, adds))
    for (int64_t st = span.first; st < span.first + span.count; ++st)
      bytes[size_t(st)] += (add + span.count - 1) / span.count;
  return *llvm::max_element(bytes);
}
} // namespace

SmallVector<StageSpan> lpx::stagesOf(ArrayRef<Operation *> ops, int64_t pp,
                                     uint64_t stageBytes,
                                     const ExpertBlocks &blocks) {
  // Both cuts; the one whose fullest stage holds fewer weight bytes (the
  // first-past-the-share cut on a tie).
  const SmallVector<uint64_t> adds = weightAdds(ops);
  SmallVector<StageSpan> past =
      cutStages(ops, pp, stageBytes, blocks, adds, false);
  SmallVector<StageSpan> nearest =
      cutStages(ops, pp, stageBytes, blocks, adds, true);
  return fullestStage(nearest, adds, pp) < fullestStage(past, adds, pp)
             ? nearest
             : past;
}

int64_t lpx::stagesNeeded(func::FuncOp f, int64_t tp, uint64_t usable,
                          int64_t most) {
  SmallVector<Operation *> ops = placedOps(f);
  Operation *ret = f.getBody().front().getTerminator();
  llvm::DenseSet<Value> outputs(ret->operand_begin(), ret->operand_end());
  const ExpertBlocks blocks = findExpertBlocks(f);
  // The fullest stage's resident bytes, over tp chips: its weights, the
  // inputs it reads first, the outputs it computes; a spread op's over all
  // of its stages.
  auto fullest = [&](int64_t pp) {
    SmallVector<StageSpan> spans =
        stagesOf(ops, pp, usable * uint64_t(tp), blocks);
    SmallVector<uint64_t> bytes(pp, 0);
    llvm::DenseSet<Value> seen;
    for (auto [op, span] : llvm::zip(ops, spans)) {
      uint64_t resident = 0;
      for (Value v : op->getOperands())
        if ((v.getDefiningOp<ConstantOp>() || llvm::isa<BlockArgument>(v)) &&
            seen.insert(v).second)
          resident += bytesOf(v);
      if (outputs.contains(op->getResult(0)))
        resident += bytesOf(op->getResult(0));
      for (int64_t st = span.first; st < span.first + span.count; ++st)
        bytes[st] += (resident + span.count - 1) / span.count;
    }
    return *llvm::max_element(bytes) / uint64_t(tp);
  };
  int64_t lo = 1, hi = most; // the first count that fits is in [lo, hi]
  if (fullest(hi) > usable)
    return 0;
  while (lo < hi) {
    int64_t mid = (lo + hi) / 2;
    if (fullest(mid) <= usable)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}
