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

/// The blocks of `f`: chains of adds (each add read only by the next)
/// of at least two terms, each an expert, all with the same input. A
/// chain that is not a block (a residual add whose operand is a block's
/// sum) is not one, but its inner adds are tried on their own.
SmallVector<ExpertBlock> findBlocks(func::FuncOp f, uint64_t temporaries) {
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
    if (temporaries && liveBytes(block.experts.front()) > temporaries)
      continue;
    blocks.push_back(std::move(block));
  }
  return blocks;
}

} // namespace

int64_t lpx::mostExperts(func::FuncOp f, uint64_t temporaries) {
  int64_t most = 0;
  for (const ExpertBlock &b : findBlocks(f, temporaries))
    most = std::max<int64_t>(most, int64_t(b.experts.size()));
  return most;
}

ChipRange lpx::expertChips(int64_t e, int64_t experts, int64_t tp) {
  if (tp >= experts)
    return {e * (tp / experts), tp / experts};
  return {e * tp / experts, 1};
}

llvm::DenseMap<Operation *, ChipRange>
lpx::spreadExperts(func::FuncOp f, int64_t tp, uint64_t temporaries) {
  llvm::DenseMap<Operation *, ChipRange> chips;
  for (ExpertBlock &block : findBlocks(f, temporaries)) {
    const int64_t n = int64_t(block.experts.size());
    SmallVector<Value> sums;
    for (auto [e, ops] : llvm::enumerate(block.experts)) {
      for (Operation *op : ops)
        chips[op] = expertChips(int64_t(e), n, tp);
      sums.push_back(ops.back()->getResult(0));
    }
    // The tree, built where the chain ended (after every term).
    AddOp last = block.chain.front();
    OpBuilder b(last);
    for (int64_t step = 1; step < n; step *= 2)
      for (int64_t i = 0; i + step < n; i += 2 * step) {
        auto add = b.create<AddOp>(last.getLoc(), last.getType(), sums[i],
                                   sums[i + step]);
        chips[add] = expertChips(i, n, tp);
        sums[i] = add;
      }
    last.getResult().replaceAllUsesWith(sums.front());
    for (AddOp a : block.chain) // from the last add inwards
      a.erase();
  }
  return chips;
}
