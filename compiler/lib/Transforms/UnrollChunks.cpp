//===- UnrollChunks.cpp - A chunked prefill as one placed program ---------===//
//
// A prompt prefilled chunk by chunk: the placed step of one chunk (C tokens
// written into the resident KV state at their positions, attention over the
// whole state, masked) copied once per chunk into one function, so the
// program the simulator times is the one that runs. Copies share the
// weights (constants are not copied) and chain the state: copy k's
// state_write writes into what copy k - 1's wrote, so its attention reads
// chunks 0..k. Each op keeps its node, and no copy waits for another but
// through the state, so lpx-schedule overlaps copy k + 1 on one stage with
// copy k on the next (a pipeline), and lpx-allocate-sram gives each copy's
// temporaries the space of the copy before once that one is done with it.
// Each op is marked with its index in the step (lpx_part.chunk_op), so the
// scheduler keeps copy k + 1 of an op after copy k: a chunk does not run
// ahead of the one before and pile up its temporaries (every chunk's
// projections could otherwise start at once: only attention waits).
//
//===----------------------------------------------------------------------===//
#include "lpx/Dialect/Graph/IR/GraphNames.h"
#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"

namespace lpx {
#define GEN_PASS_DEF_UNROLLCHUNKS
#include "lpx/Transforms/Passes.h.inc"
} // namespace lpx

using namespace mlir;
using namespace lpx;

namespace {

/// `attrs` with the input's name given the chunk's suffix.
DictionaryAttr renamed(DictionaryAttr attrs, unsigned chunk, MLIRContext *ctx) {
  NamedAttrList list(attrs);
  std::string name = "input";
  if (auto n = list.get(graph::kInputNameAttr))
    if (auto s = dyn_cast<StringAttr>(n))
      name = s.str();
  list.set(graph::kInputNameAttr,
           StringAttr::get(ctx, name + ".chunk" + std::to_string(chunk)));
  return list.getDictionary(ctx);
}

RankedTensorType withDim(Type t, int64_t axis, int64_t size) {
  auto r = cast<RankedTensorType>(t);
  SmallVector<int64_t> shape(r.getShape());
  shape[size_t(axis)] = size;
  return RankedTensorType::get(shape, r.getElementType());
}

/// The first `size` entries of `v` along `axis`, placed with `at`'s node.
Value firstEntries(OpBuilder &b, Value v, int64_t axis, int64_t size,
                   Operation *at) {
  const int64_t rank = cast<RankedTensorType>(v.getType()).getRank();
  SmallVector<int64_t> starts(size_t(rank), 0), steps(size_t(rank), 1);
  auto slice = b.create<graph::SliceOp>(
      at->getLoc(), withDim(v.getType(), axis, size), v,
      b.getDenseI64ArrayAttr(starts), b.getDenseI64ArrayAttr(steps));
  part::setNode(slice, part::getNode(at).value_or(0));
  return slice;
}

/// Chunk `k`'s attention reads only the cache positions it attends to:
/// its tokens are at positions kC..(k+1)C-1 (the host feeds them so), and
/// later positions are masked, so each state it reads is sliced to its
/// first (k+1)C positions and the scores, mask and probabilities that
/// follow are that long (not the context's length) until the product with
/// V sums them away. `ops` are the copy's ops in block order. A copy whose
/// readers of the state are not such a chain keeps reading it whole.
void narrowAttention(ArrayRef<Operation *> ops, int64_t k) {
  llvm::DenseSet<Operation *> mine(ops.begin(), ops.end());
  int64_t full = 0, used = 0;
  SmallVector<graph::StateWriteOp> writes;
  for (Operation *op : ops)
    if (auto w = dyn_cast<graph::StateWriteOp>(op)) {
      auto state = cast<RankedTensorType>(w.getType());
      auto update = cast<RankedTensorType>(w.getUpdate().getType());
      const int64_t l = state.getDimSize(w.getAxis());
      const int64_t p = (k + 1) * update.getDimSize(w.getAxis());
      if ((full && (l != full || p != used)) || p >= l)
        return;
      full = l, used = p;
      writes.push_back(w);
    }
  if (writes.empty())
    return;
  // Which values become `used` long along which axis, and which operands
  // of full length beside them (the mask's bias) are sliced too.
  llvm::DenseMap<Value, int64_t> axisOf;
  SmallVector<std::pair<Operation *, unsigned>> sliceOperand;
  for (graph::StateWriteOp w : writes)
    axisOf[w.getResult()] = w.getAxis();
  for (Operation *op : ops) {
    if (llvm::isa<graph::StateWriteOp>(op))
      continue;
    SmallVector<unsigned> in;
    for (auto [i, v] : llvm::enumerate(op->getOperands()))
      if (axisOf.count(v))
        in.push_back(unsigned(i));
    if (in.empty())
      continue;
    if (op->getNumResults() != 1)
      return;
    Value res = op->getResult(0);
    const int64_t rank = cast<RankedTensorType>(res.getType()).getRank();
    if (auto mm = dyn_cast<graph::MatMulOp>(op)) {
      const bool a = axisOf.count(mm.getLhs()), b = axisOf.count(mm.getRhs());
      if (!a && b && axisOf[mm.getRhs()] == rank - 1)
        axisOf[res] = rank - 1; // the scores: one per position
      else if (!(a && b && axisOf[mm.getLhs()] == rank - 1 &&
                 axisOf[mm.getRhs()] == rank - 2))
        return; // else probabilities x V: the positions are summed
      continue;
    }
    auto inType = cast<RankedTensorType>(op->getOperand(in[0]).getType());
    const int64_t axis = axisOf[op->getOperand(in[0])] + (rank - inType.getRank());
    if (llvm::isa<graph::ReshapeOp>(op)) {
      if (axis != rank - 1 || inType.getShape().back() != full ||
          cast<RankedTensorType>(res.getType()).getShape().back() != full)
        return;
    } else if (llvm::isa<graph::AddOp, graph::SubOp, graph::MulOp,
                         graph::DivOp>(op)) {
      for (unsigned i = 0; i < 2; ++i) {
        auto t = cast<RankedTensorType>(op->getOperand(i).getType());
        const int64_t at = axis - (rank - t.getRank());
        if (axisOf.count(op->getOperand(i))) {
          if (at != axisOf[op->getOperand(i)])
            return;
        } else if (at >= 0 && t.getDimSize(at) == full) {
          sliceOperand.push_back({op, i});
        } else if (at >= 0 && t.getDimSize(at) != 1) {
          return;
        }
      }
    } else if (!(op->getNumOperands() == 1 &&
                 (llvm::isa<graph::SoftmaxOp, graph::CastOp>(op) ||
                  op->hasTrait<OpTrait::SameOperandsAndResultType>()))) {
      return;
    }
    axisOf[res] = axis;
  }
  // Every narrowed value is read in this copy only (the next copy's write
  // into the state aside).
  for (auto &[v, axis] : axisOf)
    for (OpOperand &use : v.getUses())
      if (!mine.count(use.getOwner()) &&
          !llvm::isa<graph::StateWriteOp>(use.getOwner()))
        return;

  OpBuilder b(ops.front()->getContext());
  for (graph::StateWriteOp w : writes) {
    if (llvm::none_of(w->getUsers(), [&](Operation *user) {
          return mine.count(user) && !llvm::isa<graph::StateWriteOp>(user);
        }))
      continue; // nothing in this copy reads it
    b.setInsertionPointAfter(w);
    Value first = firstEntries(b, w.getResult(), w.getAxis(), used, w);
    w.getResult().replaceUsesWithIf(first, [&](OpOperand &use) {
      return mine.count(use.getOwner()) &&
             !llvm::isa<graph::StateWriteOp>(use.getOwner()) &&
             use.getOwner() != first.getDefiningOp();
    });
  }
  llvm::DenseMap<Value, Value> sliced; // a full-length operand, once
  for (auto [op, i] : sliceOperand) {
    Value v = op->getOperand(i);
    Value &s = sliced[v];
    if (!s) {
      b.setInsertionPoint(op);
      const int64_t rank = cast<RankedTensorType>(v.getType()).getRank();
      int64_t at = rank - 1;
      while (cast<RankedTensorType>(v.getType()).getDimSize(at) != full)
        --at;
      s = firstEntries(b, v, at, used, op);
    }
    op->setOperand(i, s);
  }
  for (Operation *op : ops)
    if (op->getNumResults() == 1 && !llvm::isa<graph::StateWriteOp>(op))
      if (auto it = axisOf.find(op->getResult(0)); it != axisOf.end())
        op->getResult(0).setType(
            withDim(op->getResult(0).getType(), it->second, used));
}

struct UnrollChunksPass : lpx::impl::UnrollChunksBase<UnrollChunksPass> {
  using Base::Base;

  void runOnOperation() override {
    if (chunks < 2)
      return;
    for (auto f : getOperation().getOps<func::FuncOp>())
      if (failed(unroll(f)))
        return signalPassFailure();
  }

  LogicalResult unroll(func::FuncOp f) {
    Block &body = f.getBody().front();
    auto ret = cast<func::ReturnOp>(body.getTerminator());
    const unsigned args = f.getNumArguments();
    // The one write of each state in the step: the next copy writes into
    // its result.
    llvm::DenseMap<Value, Value> writeOf;
    for (auto w : body.getOps<graph::StateWriteOp>())
      writeOf[w.getState()] = w.getResult();
    for (unsigned i = 0; i < args; ++i)
      if (f.getArgAttr(i, graph::kStateAttr) && !writeOf.count(f.getArgument(i)))
        return f.emitOpError("state ")
               << i << " is not written by a state_write: not a chunk step";
    if (writeOf.empty())
      return f.emitOpError("has no resident state: a chunked prefill writes "
                           "its chunks' KV into it (run lpx-resident-kv)");

    SmallVector<Operation *> step;
    OpBuilder attrs(f.getContext());
    for (Operation &op : body.without_terminator()) {
      if (!llvm::isa<graph::ConstantOp>(op))
        op.setAttr(part::PartDialect::kChunkOpAttr,
                   attrs.getI64IntegerAttr(int64_t(step.size())));
      step.push_back(&op);
    }
    OpBuilder b(ret);
    IRMapping previous; // the step's values in the copy before (none: copy 0)
    std::vector<SmallVector<Operation *>> copies{step};
    for (unsigned k = 1; k < chunks; ++k) {
      copies.emplace_back();
      IRMapping m;
      for (unsigned i = 0; i < args; ++i) {
        BlockArgument arg = f.getArgument(i);
        if (f.getArgAttr(i, graph::kStateAttr)) {
          m.map(arg, previous.lookupOrDefault(writeOf.lookup(arg)));
          continue;
        }
        f.insertArgument(f.getNumArguments(), arg.getType(),
                         renamed(f.getArgAttrDict(i), k, f.getContext()),
                         arg.getLoc());
        m.map(arg, f.getArgument(f.getNumArguments() - 1));
      }
      for (Operation *op : step) {
        if (llvm::isa<graph::ConstantOp>(op)) // the weights, shared
          continue;
        copies.back().push_back(b.clone(*op, m));
      }
      previous = std::move(m);
    }
    SmallVector<Value> results;
    for (Value v : ret.getOperands())
      results.push_back(previous.lookupOrDefault(v));
    ret->setOperands(results);
    for (auto [k, ops] : llvm::enumerate(copies)) {
      SmallVector<Operation *> placed;
      for (Operation *op : ops)
        if (!llvm::isa<graph::ConstantOp>(op))
          placed.push_back(op);
      narrowAttention(placed, int64_t(k));
    }
    // The earlier copies' results (their LM head) are not returned.
    SmallVector<Operation *> all;
    for (Operation &op : body.without_terminator())
      all.push_back(&op);
    for (Operation *op : llvm::reverse(all))
      if (!llvm::isa<graph::StateWriteOp>(op) && op->use_empty())
        op->erase();
    return success();
  }
};

} // namespace
