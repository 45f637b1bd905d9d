//===- DataMovementOps.cpp - lpx_graph data movement op verifiers ---------===//
#include "GraphOpUtils.h"
#include "lpx/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace lpx::graph;
using namespace lpx::graph::detail;

LogicalResult ReshapeOp::verify() {
  auto in = rankedType(getInput()), out = rankedType(getResult());
  if (in.getElementType() != out.getElementType())
    return emitOpError("reshape must keep the element type");
  if (in.getNumElements() != out.getNumElements())
    return emitOpError("reshape from ") << shapeStr(in.getShape()) << " to "
                                        << shapeStr(out.getShape())
                                        << " changes the element count";
  return success();
}

LogicalResult TransposeOp::verify() {
  ArrayRef<int64_t> in = rankedType(getInput()).getShape();
  ArrayRef<int64_t> perm = getPerm();
  if (perm.size() != in.size())
    return emitOpError("perm has ") << perm.size() << " entries for rank "
                                    << in.size();
  SmallVector<bool> seen(in.size(), false);
  SmallVector<int64_t> expected;
  for (int64_t p : perm) {
    if (p < 0 || p >= int64_t(in.size()) || seen[p])
      return emitOpError("perm is not a permutation");
    seen[p] = true;
    expected.push_back(in[p]);
  }
  if (ArrayRef<int64_t>(expected) != rankedType(getResult()).getShape())
    return emitOpError("result shape does not match the permutation");
  return success();
}

LogicalResult ConcatOp::verify() {
  if (getInputs().empty())
    return emitOpError("needs at least one input");
  auto out = rankedType(getResult());
  int64_t axis = getAxis();
  if (axis < 0 || axis >= out.getRank())
    return emitOpError("axis ") << axis << " out of range";
  int64_t total = 0;
  for (Value v : getInputs()) {
    auto t = rankedType(v);
    if (t.getRank() != out.getRank() ||
        t.getElementType() != out.getElementType())
      return emitOpError("inputs must match the result's rank and type");
    for (int64_t d = 0; d < t.getRank(); ++d)
      if (d != axis && t.getDimSize(d) != out.getDimSize(d))
        return emitOpError("inputs differ outside the concat axis");
    total += t.getDimSize(axis);
  }
  if (total != out.getDimSize(axis))
    return emitOpError("result size along the axis should be ") << total;
  return success();
}

LogicalResult SliceOp::verify() {
  ArrayRef<int64_t> in = rankedType(getInput()).getShape();
  ArrayRef<int64_t> out = rankedType(getResult()).getShape();
  ArrayRef<int64_t> starts = getStarts(), steps = getSteps();
  if (out.size() != in.size() || starts.size() != in.size() ||
      steps.size() != in.size())
    return emitOpError("starts, steps and result need one entry per dim");
  for (size_t d = 0; d < in.size(); ++d) {
    if (steps[d] == 0)
      return emitOpError("step of dim ") << d << " is zero";
    if (out[d] == 0)
      continue;
    int64_t last = starts[d] + (out[d] - 1) * steps[d];
    if (starts[d] < 0 || starts[d] >= in[d] || last < 0 || last >= in[d])
      return emitOpError("dim ") << d << " reads outside the input";
  }
  return success();
}

LogicalResult GatherOp::verify() {
  auto data = rankedType(getData()), idx = rankedType(getIndices());
  int64_t axis = getAxis();
  if (axis < 0 || axis >= data.getRank())
    return emitOpError("axis ") << axis << " out of range";
  if (!isa<IntegerType>(idx.getElementType()))
    return emitOpError("indices must be integers");
  SmallVector<int64_t> expected(data.getShape().begin(),
                                data.getShape().begin() + axis);
  llvm::append_range(expected, idx.getShape());
  expected.append(data.getShape().begin() + axis + 1, data.getShape().end());
  if (ArrayRef<int64_t>(expected) != rankedType(getResult()).getShape())
    return emitOpError("result shape should be ") << shapeStr(expected);
  return success();
}

LogicalResult BroadcastOp::verify() {
  auto in = rankedType(getInput()), out = rankedType(getResult());
  if (in.getElementType() != out.getElementType())
    return emitOpError("broadcast must keep the element type");
  auto b = broadcastShapes(in.getShape(), out.getShape());
  if (failed(b) || ArrayRef<int64_t>(*b) != out.getShape())
    return emitOpError("operand shape ")
           << shapeStr(in.getShape()) << " does not broadcast to "
           << shapeStr(out.getShape());
  return success();
}

LogicalResult PadOp::verify() {
  auto in = rankedType(getInput()), out = rankedType(getResult());
  if (in.getElementType() != out.getElementType())
    return emitOpError("pad must keep the element type");
  if (getMode() != "constant" && getMode() != "reflect" && getMode() != "edge")
    return emitOpError("unknown mode '") << getMode() << "'";
  int64_t rank = in.getRank();
  ArrayRef<int64_t> pads = getPads();
  if (int64_t(pads.size()) != 2 * rank || out.getRank() != rank)
    return emitOpError("pads need a begin and an end for each of the ")
           << rank << " dims";
  for (int64_t d = 0; d < rank; ++d) {
    int64_t want = in.getDimSize(d) + pads[d] + pads[rank + d];
    if (want < 0 || out.getDimSize(d) != want)
      return emitOpError("result dim ") << d << " should be " << want;
    if (getMode() != "constant" && in.getDimSize(d) == 0 && want > 0)
      return emitOpError("mode '") << getMode() << "' cannot pad an empty dim";
  }
  return success();
}

LogicalResult GatherElementsOp::verify() {
  auto data = rankedType(getData()), idx = rankedType(getIndices());
  auto out = rankedType(getResult());
  if (!llvm::isa<IntegerType>(idx.getElementType()))
    return emitOpError("indices must be integers");
  if (out.getElementType() != data.getElementType())
    return emitOpError("result element type must match the data");
  if (idx.getRank() != data.getRank() || out.getShape() != idx.getShape())
    return emitOpError("indices and result must have the data's rank and "
                       "the same shape");
  return verifyAxis(*this, getAxis(), data.getRank());
}

static bool knownReduction(StringRef r) {
  return r == "none" || r == "add" || r == "mul" || r == "max" || r == "min";
}

/// Shared by the scatters: result = data's type, updates of its element
/// type, integer indices, a known reduction.
static LogicalResult verifyScatter(Operation *op, Value data, Value indices,
                                   Value updates, Value result,
                                   StringRef reduction) {
  auto d = rankedType(data), u = rankedType(updates);
  if (rankedType(result) != d)
    return op->emitOpError("result must have the data's type");
  if (u.getElementType() != d.getElementType())
    return op->emitOpError("updates must have the data's element type");
  if (!llvm::isa<IntegerType>(rankedType(indices).getElementType()))
    return op->emitOpError("indices must be integers");
  if (!knownReduction(reduction))
    return op->emitOpError("unknown reduction '") << reduction << "'";
  return success();
}

LogicalResult ScatterElementsOp::verify() {
  if (failed(verifyScatter(*this, getData(), getIndices(), getUpdates(),
                           getResult(), getReduction())))
    return failure();
  auto d = rankedType(getData()), i = rankedType(getIndices());
  if (i.getShape() != rankedType(getUpdates()).getShape() ||
      i.getRank() != d.getRank())
    return emitOpError("indices and updates must have one shape of the "
                       "data's rank");
  if (failed(verifyAxis(*this, getAxis(), d.getRank())))
    return failure();
  for (int64_t a = 0; a < d.getRank(); ++a)
    if (a != int64_t(getAxis()) && i.getDimSize(a) > d.getDimSize(a))
      return emitOpError("indices dim ") << a << " exceeds the data's";
  return success();
}

LogicalResult ScatterNDOp::verify() {
  if (failed(verifyScatter(*this, getData(), getIndices(), getUpdates(),
                           getResult(), getReduction())))
    return failure();
  auto d = rankedType(getData()), i = rankedType(getIndices());
  if (i.getRank() < 1)
    return emitOpError("indices must have rank 1 or more");
  int64_t k = i.getShape().back();
  if (k < 1 || k > d.getRank())
    return emitOpError("index tuples of length ")
           << k << " do not fit data of rank " << d.getRank();
  SmallVector<int64_t> want(i.getShape().drop_back());
  llvm::append_range(want, d.getShape().drop_front(k));
  if (rankedType(getUpdates()).getShape() != ArrayRef<int64_t>(want))
    return emitOpError("updates shape should be ") << shapeStr(want);
  return success();
}

LogicalResult GridSampleOp::verify() {
  auto x = rankedType(getInput()), g = rankedType(getGrid()),
       out = rankedType(getResult());
  if (!llvm::isa<FloatType>(x.getElementType()) ||
      g.getElementType() != x.getElementType() ||
      out.getElementType() != x.getElementType())
    return emitOpError("input, grid and result must share one "
                       "floating-point type");
  if (x.getRank() != 4 || g.getRank() != 4 || g.getDimSize(3) != 2 ||
      g.getDimSize(0) != x.getDimSize(0))
    return emitOpError("needs input [N, C, H, W] and grid [N, Ho, Wo, 2]");
  SmallVector<int64_t> want{x.getDimSize(0), x.getDimSize(1), g.getDimSize(1),
                            g.getDimSize(2)};
  if (out.getShape() != ArrayRef<int64_t>(want))
    return emitOpError("result shape should be ") << shapeStr(want);
  StringRef m = getMode(), p = getPaddingMode();
  if (m != "bilinear" && m != "nearest" && m != "bicubic")
    return emitOpError("unknown mode '") << m << "'";
  if (p != "zeros" && p != "border" && p != "reflection")
    return emitOpError("unknown padding_mode '") << p << "'";
  return success();
}


LogicalResult StateWriteOp::verify() {
  auto state = rankedType(getState()), update = rankedType(getUpdate());
  auto position = rankedType(getPosition());
  if (getResult().getType() != state)
    return emitOpError("result must have the state's type");
  auto arg = dyn_cast<BlockArgument>(getState());
  auto f = arg ? dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp())
               : nullptr;
  if (!f || !f.getArgAttr(arg.getArgNumber(), kStateAttr))
    return emitOpError("state must be a function argument marked ")
           << kStateAttr;
  if (!getState().hasOneUse())
    return emitOpError("must be the state's only user (readers read its "
                       "result)");
  const int64_t rank = state.getRank(), axis = getAxis();
  if (axis < 1 || axis >= rank)
    return emitOpError("axis ") << axis << " must index a non-batch dim of "
                                << shapeStr(state.getShape());
  SmallVector<int64_t> want(state.getShape());
  want[axis] = 1;
  if (update.getElementType() != state.getElementType() ||
      update.getShape() != ArrayRef<int64_t>(want))
    return emitOpError("update must be ")
           << shapeStr(want) << " of the state's element type, not "
           << shapeStr(update.getShape());
  if (!position.getElementType().isInteger(64) &&
      !position.getElementType().isInteger(32))
    return emitOpError("position must be i32 or i64");
  if (position.getRank() > 2 || position.getNumElements() != state.getDimSize(0))
    return emitOpError("position must be [B] or [B, 1] with B = ")
           << state.getDimSize(0);
  return success();
}
