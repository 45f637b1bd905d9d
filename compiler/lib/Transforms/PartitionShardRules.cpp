//===- PartitionShardRules.cpp - How a split carries through an op --------===//
#include "PartitionShardRules.h"
#include "PartitionPatterns.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"

using namespace mlir;
using namespace lpx;
using namespace lpx::graph;
using namespace lpx::shard;

RankedTensorType lpx::shard::rankedOf(Value v) {
  return cast<RankedTensorType>(v.getType());
}

static int64_t product(ArrayRef<int64_t> dims) {
  int64_t p = 1;
  for (int64_t d : dims)
    p *= d;
  return p;
}

int64_t lpx::shard::reshapedAxis(ArrayRef<int64_t> from, int64_t axis,
                                 ArrayRef<int64_t> to, SmallVector<int64_t> &lo,
                                 SmallVector<int64_t> &hi) {
  int64_t outer = product(from.take_front(axis));
  int64_t inner = product(from.drop_front(axis + 1));
  int64_t span = from[axis] * inner;
  for (int64_t b = 0; b < int64_t(to.size()); ++b) {
    int64_t j = product(to.drop_front(b + 1));
    if (product(to.take_front(b)) != outer || to[b] * j != span || to[b] < 2)
      continue;
    bool ok = true;
    for (size_t i = 0; i < lo.size(); ++i)
      ok = ok && (lo[i] * inner) % j == 0 && (hi[i] * inner) % j == 0;
    if (!ok)
      continue;
    for (size_t i = 0; i < lo.size(); ++i) {
      lo[i] = lo[i] * inner / j;
      hi[i] = hi[i] * inner / j;
    }
    return b;
  }
  return -1;
}

bool lpx::shard::shardRule(Operation *op, unsigned which, const Layout &l,
                           OperandReader operandFor,
                           SmallVector<Operand> &reads, int64_t &outAxis,
                           SmallVector<int64_t> &lo, SmallVector<int64_t> &hi) {
  if (op->getNumResults() != 1)
    return false;
  auto out = rankedOf(op->getResult(0));
  auto in = rankedOf(op->getOperand(which));
  int64_t a = l.axis, rank = out.getRank();
  lo = l.lo;
  hi = l.hi;
  reads.assign(op->getNumOperands(), Operand{});
  auto alignedReads = [&] { // operands right-aligned with the result
    for (auto [i, v] : llvm::enumerate(op->getOperands())) {
      int64_t axis = outAxis - (rank - rankedOf(v).getRank());
      auto r = operandFor(v, axis, l);
      if (!r)
        return false;
      reads[i] = *r;
    }
    return true;
  };
  if (isPointwise(op)) {
    outAxis = a + (rank - in.getRank());
    return out.getDimSize(outAxis) == in.getDimSize(a) && alignedReads();
  }
  if (auto t = dyn_cast<TransposeOp>(op)) {
    outAxis = llvm::find(t.getPerm(), a) - t.getPerm().begin();
    reads[0] = {Operand::Piece, a};
    return true;
  }
  if (llvm::isa<ReshapeOp>(op)) {
    outAxis = reshapedAxis(in.getShape(), a, out.getShape(), lo, hi);
    reads[0] = {Operand::Piece, a};
    return outAxis >= 0;
  }
  if (llvm::isa<BroadcastOp>(op)) {
    outAxis = a + (rank - in.getRank());
    reads[0] = {Operand::Piece, a};
    return out.getDimSize(outAxis) == in.getDimSize(a);
  }
  if (auto c = dyn_cast<ConcatOp>(op)) {
    outAxis = a;
    return int64_t(c.getAxis()) != a && alignedReads();
  }
  if (auto s = dyn_cast<SliceOp>(op)) {
    outAxis = a;
    reads[0] = {Operand::Piece, a};
    return s.getStarts()[a] == 0 && s.getSteps()[a] == 1 &&
           out.getDimSize(a) == in.getDimSize(a);
  }
  if (llvm::isa<SoftmaxOp, LogSoftmaxOp, HardmaxOp>(op)) {
    outAxis = a;
    reads[0] = {Operand::Piece, a};
    return op->getAttrOfType<IntegerAttr>("axis").getInt() != a;
  }
  if (llvm::isa<ReduceOp, ReduceMeanOp>(op)) {
    auto axes = op->getAttrOfType<DenseI64ArrayAttr>("axes").asArrayRef();
    if (llvm::is_contained(axes, a))
      return false;
    outAxis = rank == in.getRank()
                  ? a
                  : a - llvm::count_if(axes, [&](int64_t x) { return x < a; });
    reads[0] = {Operand::Piece, a};
    return true;
  }
  if (auto m = dyn_cast<MatMulOp>(op)) {
    // Batched products split along a batch axis (the attention's heads);
    // a weight is never copied to every node.
    if (a >= in.getRank() - 2 || m.getRhs().getDefiningOp<ConstantOp>())
      return false;
    outAxis = a + (rank - in.getRank());
    return alignedReads();
  }
  return false;
}
