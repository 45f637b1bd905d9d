//===- GroupedAttention.cpp - Attention reads shared KV heads once --------===//
//
// Exporters write grouped-query attention with repeat_kv: the cache's KV
// heads [B, kv, L, d] are unsqueezed, broadcast to [B, kv, g, L, d] and
// reshaped to one copy per query head [B, kv * g, L, d] before the batched
// MatMuls. On the chip that copy is g times the cache, streamed and written
// every step. Query head h uses KV head h / g, so the same products are a
// MatMul of the g query heads that share a KV head, stacked as rows, by that
// KV head: [B, kv, g * S, d] x [B, kv, d, L]. This pass rewrites each such
// MatMul that way (see Passes.td) and drops the copies.
//
//===----------------------------------------------------------------------===//
#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

namespace lpx {
#define GEN_PASS_DEF_GROUPEDATTENTION
#include "lpx/Transforms/Passes.h.inc"
} // namespace lpx

using namespace mlir;
using namespace lpx;
using namespace lpx::graph;

namespace {

RankedTensorType rankedOf(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// The permutation that swaps the last two of `rank` dims.
SmallVector<int64_t> swapLastTwo(int64_t rank) {
  SmallVector<int64_t> perm;
  for (int64_t i = 0; i < rank; ++i)
    perm.push_back(i);
  std::swap(perm[rank - 2], perm[rank - 1]);
  return perm;
}

/// repeat_kv behind a MatMul's right operand: x [B, kv, m, n] reshaped to
/// [B, kv, 1, m, n], broadcast to [B, kv, g, m, n] and reshaped to
/// [B, kv * g, m, n], optionally followed by a transpose of the last two
/// dims (K^T of a cache that is not kept transposed).
struct Repeat {
  Value kv;                // x
  int64_t groups = 0;      // g
  bool transposed = false; // the MatMul reads the copies' transpose
};

std::optional<Repeat> repeatBehind(Value r) {
  Repeat rep;
  if (auto t = r.getDefiningOp<TransposeOp>()) {
    if (rankedOf(r).getRank() != 4 || t.getPerm() != ArrayRef(swapLastTwo(4)))
      return std::nullopt;
    rep.transposed = true;
    r = t.getInput();
  }
  auto merge = r.getDefiningOp<ReshapeOp>();
  auto bcast = merge ? merge.getInput().getDefiningOp<BroadcastOp>() : nullptr;
  auto unsq = bcast ? bcast.getInput().getDefiningOp<ReshapeOp>() : nullptr;
  if (!unsq)
    return std::nullopt;
  auto x = rankedOf(unsq.getInput()), one = rankedOf(unsq),
       many = rankedOf(bcast), out = rankedOf(merge);
  if (x.getRank() != 4 || one.getRank() != 5 || out.getRank() != 4)
    return std::nullopt;
  auto xs = x.getShape();
  const int64_t g = many.getDimSize(2);
  SmallVector<int64_t> wantOne{xs[0], xs[1], 1, xs[2], xs[3]};
  SmallVector<int64_t> wantMany{xs[0], xs[1], g, xs[2], xs[3]};
  SmallVector<int64_t> wantOut{xs[0], xs[1] * g, xs[2], xs[3]};
  if (one.getShape() != ArrayRef(wantOne) ||
      many.getShape() != ArrayRef(wantMany) ||
      out.getShape() != ArrayRef(wantOut) || g < 2)
    return std::nullopt;
  rep.kv = unsq.getInput();
  rep.groups = g;
  return rep;
}

/// Rewrites `m` = A [B, kv * g, s, p] x repeat_kv(x) into
/// reshape(reshape(A -> [B, kv, g * s, p]) x x -> [B, kv * g, s, q]).
bool regroup(MatMulOp m) {
  std::optional<Repeat> rep = repeatBehind(m.getRhs());
  auto a = rankedOf(m.getLhs());
  if (!rep || a.getRank() != 4)
    return false;
  auto xs = rankedOf(rep->kv).getShape();
  const int64_t kv = xs[1], g = rep->groups, s = a.getDimSize(2);
  if (a.getDimSize(0) != xs[0] || a.getDimSize(1) != kv * g)
    return false;
  OpBuilder b(m);
  Location loc = m.getLoc();
  Value x = rep->kv;
  if (rep->transposed) {
    auto t = rankedOf(x);
    x = b.create<TransposeOp>(
        loc, t.clone({xs[0], kv, xs[3], xs[2]}), x,
        b.getDenseI64ArrayAttr(swapLastTwo(4)));
  }
  const int64_t p = a.getDimSize(3), q = rankedOf(x).getDimSize(3);
  if (rankedOf(x).getDimSize(2) != p)
    return false; // (the verifier checked the original; cannot differ)
  Value rows = b.create<ReshapeOp>(loc, a.clone({xs[0], kv, g * s, p}),
                                   m.getLhs());
  auto type = m.getType();
  Value prod = b.create<MatMulOp>(loc, type.clone({xs[0], kv, g * s, q}),
                                  rows, x);
  m.getResult().replaceAllUsesWith(
      b.create<ReshapeOp>(loc, type, prod).getResult());
  return true;
}

/// Erases `op` and the ops behind it that nothing else reads.
void eraseDead(Operation *op) {
  SmallVector<Operation *> work{op};
  llvm::DenseSet<Operation *> erased;
  while (!work.empty()) {
    Operation *o = work.pop_back_val();
    if (erased.contains(o) || !o->use_empty())
      continue;
    for (Value v : o->getOperands())
      if (Operation *d = v.getDefiningOp())
        work.push_back(d);
    o->dropAllReferences();
    erased.insert(o);
    o->erase();
  }
}

struct GroupedAttentionPass
    : lpx::impl::GroupedAttentionBase<GroupedAttentionPass> {
  void runOnOperation() override {
    SmallVector<MatMulOp> matmuls;
    getOperation().walk([&](MatMulOp m) { matmuls.push_back(m); });
    for (MatMulOp m : matmuls)
      if (regroup(m))
        eraseDead(m);
  }
};

} // namespace
