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
    for (unsigned k = 1; k < chunks; ++k) {
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
        b.clone(*op, m);
      }
      previous = std::move(m);
    }
    SmallVector<Value> results;
    for (Value v : ret.getOperands())
      results.push_back(previous.lookupOrDefault(v));
    ret->setOperands(results);
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
