//===- PartitionExperts.cpp - Expert parallelism for MoE blocks -----------===//
//
// Finds mixture-of-experts blocks by their shape in the graph (see
// PartitionExperts.h), turns each block's chain of adds into a tree and
// tells the sharder which chips of the stage each expert's ops run on.
//
//===----------------------------------------------------------------------===//
#include "PartitionExperts.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Target/ISABridge.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#include <functional>

using namespace mlir;
using namespace lpx;
using namespace lpx::graph;

namespace {

/// One block: each expert's ops (its weighting Mul last) and the adds
/// that sum the weighted outputs, the last of them the block's result.
struct ExpertBlock {
  SmallVector<SmallVector<Operation *>> experts;
  SmallVector<AddOp> chain;
};

/// The ops computing `y` that nothing else reads, up to values read
/// elsewhere too (the block's input) and constants: an op joins once all
/// its readers are in (the last reader to join brings it in).
llvm::SetVector<Operation *> branchOf(Operation *term, Value y) {
  llvm::SetVector<Operation *> in;
  in.insert(term);
  Operation *def = y.getDefiningOp();
  if (!def || !y.hasOneUse())
    return {};
  SmallVector<Operation *> work{def};
  in.insert(def);
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    for (Value v : op->getOperands()) {
      Operation *d = v.getDefiningOp();
      if (!d || llvm::isa<ConstantOp>(d) || in.contains(d))
        continue;
      if (llvm::all_of(d->getUsers(),
                       [&](Operation *u) { return in.contains(u); })) {
        in.insert(d);
        work.push_back(d);
      }
    }
  }
  return in;
}

/// The one value other than constants that the branch reads from outside
/// (besides the weight `w` of its term), or null when it reads several or
/// has no MatMul with a constant weight (no expert).
Value inputOf(const llvm::SetVector<Operation *> &ops, Operation *term,
              Value w) {
  Value input;
  bool weighted = false;
  for (Operation *op : ops) {
    if (auto m = dyn_cast<MatMulOp>(op))
      weighted = weighted || m.getRhs().getDefiningOp<ConstantOp>();
    for (Value v : op->getOperands()) {
      Operation *d = v.getDefiningOp();
      if ((op == term && v == w) || (d && (ops.contains(d) ||
                                           llvm::isa<ConstantOp>(d))))
        continue;
      if (input && input != v)
        return nullptr;
      input = v;
    }
  }
  return weighted ? input : nullptr;
}

/// The expert of a term of the sum: a Mul of an expert's output by a
/// smaller weight that broadcasts to it, and the expert's input.
std::pair<SmallVector<Operation *>, Value> expertOf(Value term) {
  auto mul = term.getDefiningOp<MulOp>();
  if (!mul)
    return {};
  for (auto [y, w] : {std::pair(mul.getLhs(), mul.getRhs()),
                      std::pair(mul.getRhs(), mul.getLhs())}) {
    auto yt = cast<RankedTensorType>(y.getType());
    if (yt != mul.getType() ||
        cast<RankedTensorType>(w.getType()).getNumElements() >=
            yt.getNumElements())
      continue;
    llvm::SetVector<Operation *> ops = branchOf(mul, y);
    if (Value x = ops.empty() ? Value() : inputOf(ops, mul, w))
      return {SmallVector<Operation *>(ops.rbegin(), ops.rend()), x};
  }
  return {};
}

/// Bytes of an expert's values live at once on its chip: its widest
/// result three times (two projections and their product).
uint64_t liveBytes(ArrayRef<Operation *> ops) {
  uint64_t widest = 0;
  for (Operation *op : ops)
    for (Value r : op->getResults())
      widest = std::max(widest, tensorDescOf(r.getType()).bytes());
  return 3 * widest;
}

/// Bytes of the constant weights an expert's ops read.
uint64_t weightBytes(ArrayRef<Operation *> ops) {
  uint64_t bytes = 0;
  llvm::DenseSet<Operation *> seen;
  for (Operation *op : ops)
    for (Value v : op->getOperands())
      if (auto c = v.getDefiningOp<ConstantOp>(); c && seen.insert(c).second)
        bytes += tensorDescOf(c.getType()).bytes();
  return bytes;
}

/// The blocks of `f`: chains of adds (each add read only by the next)
/// of at least two terms, each an expert, all with the same input. A
/// chain that is not a block (a residual add whose operand is a block's
/// sum) is not one, but its inner adds are tried on their own.
SmallVector<ExpertBlock> findBlocks(func::FuncOp f) {
  SmallVector<ExpertBlock> blocks;
  llvm::DenseSet<Operation *> taken;
  SmallVector<AddOp> adds;
  f.walk([&](AddOp a) { adds.push_back(a); });
  for (AddOp root : llvm::reverse(adds)) {
    if (taken.contains(root))
      continue;
    ExpertBlock block;
    SmallVector<Value> terms; // in the order the chain adds them
    std::function<void(AddOp)> collect = [&](AddOp a) {
      block.chain.push_back(a);
      for (Value v : {a.getLhs(), a.getRhs()}) {
        auto inner = v.getDefiningOp<AddOp>();
        if (inner && v.hasOneUse() && inner.getType() == root.getType())
          collect(inner);
        else
          terms.push_back(v);
      }
    };
    collect(root);
    if (terms.size() < 2)
      continue;
    Value input;
    bool ok = true;
    for (Value t : terms) {
      auto [ops, x] = expertOf(t);
      ok = x && (!input || x == input) && t.getType() == root.getType();
      if (!ok)
        break;
      input = x;
      block.experts.push_back(std::move(ops));
    }
    if (!ok)
      continue;
    for (AddOp a : block.chain) // a block either way: no inner add is one
      taken.insert(a);
    blocks.push_back(std::move(block));
  }
  return blocks;
}

/// The sites of a block's experts' ops, and its sizes, added to `out`.
void addBlock(const ExpertBlock &block, ExpertBlocks &out) {
  const int64_t id = int64_t(out.weightBytes.size()), n = block.experts.size();
  uint64_t weights = 0;
  for (auto [e, ops] : llvm::enumerate(block.experts)) {
    for (Operation *op : ops)
      out.sites[op] = {id, int64_t(e), n};
    weights += weightBytes(ops);
  }
  out.weightBytes.push_back(weights);
  out.liveBytes.push_back(liveBytes(block.experts.front()));
}

} // namespace

int64_t ExpertBlocks::mostExperts() const {
  int64_t most = 0;
  for (const auto &[op, site] : sites)
    most = std::max(most, site.experts);
  return most;
}

ExpertBlocks lpx::findExpertBlocks(func::FuncOp f) {
  ExpertBlocks out;
  for (const ExpertBlock &block : findBlocks(f)) {
    addBlock(block, out);
    for (AddOp a : block.chain) // the sum, with the first expert
      out.sites[a] = {int64_t(out.weightBytes.size()) - 1, 0,
                      int64_t(block.experts.size())};
  }
  return out;
}

ChipRange lpx::expertChips(int64_t e, int64_t experts, int64_t chips) {
  if (chips >= experts)
    return {e * (chips / experts), chips / experts};
  return {e * chips / experts, 1};
}

uint64_t lpx::liveBytesPerChip(uint64_t live, int64_t experts, int64_t chips) {
  // Split over its chips when it has several; else one expert at a time.
  return chips >= experts ? live / uint64_t(chips / experts) : live;
}

ExpertBlocks lpx::spreadExperts(func::FuncOp f) {
  ExpertBlocks out;
  for (ExpertBlock &block : findBlocks(f)) {
    addBlock(block, out);
    const int64_t id = int64_t(out.weightBytes.size()) - 1;
    const int64_t n = int64_t(block.experts.size());
    SmallVector<Value> sums;
    for (const auto &ops : block.experts)
      sums.push_back(ops.back()->getResult(0));
    // The tree, built where the chain ended (after every term).
    AddOp last = block.chain.front();
    OpBuilder b(last);
    for (int64_t step = 1; step < n; step *= 2)
      for (int64_t i = 0; i + step < n; i += 2 * step) {
        auto add = b.create<AddOp>(last.getLoc(), last.getType(), sums[i],
                                   sums[i + step]);
        out.sites[add] = {id, i, n};
        sums[i] = add;
      }
    last.getResult().replaceAllUsesWith(sums.front());
    for (AddOp a : block.chain) // from the last add inwards
      a.erase();
  }
  return out;
}
