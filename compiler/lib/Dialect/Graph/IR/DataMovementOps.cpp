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

/// A gather's indices operand, which must hold integers.
static FailureOr<RankedTensorType>
integerIndices(std::optional<Location> loc, Value indices) {
  auto idx = rankedType(indices);
  if (!isa<IntegerType>(idx.getElementType()))
    return emitOptionalError(loc, "indices must be integers");
  return idx;
}

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

LPX_INFER_RETURN_TYPES(TransposeOp) {
  auto in = rankedType(adaptor.getInput());
  ArrayRef<int64_t> perm = adaptor.getPerm();
  if (int64_t(perm.size()) != in.getRank())
    return emitOptionalError(loc, "perm has ", perm.size(), " entries for rank ",
                             in.getRank());
  SmallVector<bool> seen(in.getRank(), false);
  SmallVector<int64_t> shape;
  for (int64_t p : perm) {
    if (p < 0 || p >= in.getRank() || seen[p])
      return emitOptionalError(loc, "perm is not a permutation of 0..",
                               in.getRank() - 1);
    seen[p] = true;
    shape.push_back(in.getDimSize(p));
  }
  types.push_back(RankedTensorType::get(shape, in.getElementType()));
  return success();
}

LPX_INFER_RETURN_TYPES(ConcatOp) {
  ValueRange inputs = adaptor.getInputs();
  if (inputs.empty())
    return emitOptionalError(loc, "needs at least one input");
  auto first = rankedType(inputs[0]);
  int64_t axis = adaptor.getAxis();
  if (axis < 0 || axis >= first.getRank())
    return emitOptionalError(loc, "axis ", axis, " out of range");
  SmallVector<int64_t> shape(first.getShape());
  shape[axis] = 0;
  for (Value v : inputs) {
    auto t = rankedType(v);
    if (t.getRank() != first.getRank() ||
        t.getElementType() != first.getElementType())
      return emitOptionalError(loc, "inputs differ in rank or element type");
    for (int64_t d = 0; d < t.getRank(); ++d)
      if (d != axis && t.getDimSize(d) != first.getDimSize(d))
        return emitOptionalError(loc, "input shapes ", shapeStr(first.getShape()),
                                 " and ", shapeStr(t.getShape()),
                                 " differ outside axis ", axis);
    shape[axis] += t.getDimSize(axis);
  }
  types.push_back(RankedTensorType::get(shape, first.getElementType()));
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

LPX_INFER_RETURN_TYPES(GatherOp) {
  auto data = rankedType(adaptor.getData());
  int64_t axis = adaptor.getAxis();
  if (axis < 0 || axis >= data.getRank())
    return emitOptionalError(loc, "axis ", axis, " out of range");
  FailureOr<RankedTensorType> idx = integerIndices(loc, adaptor.getIndices());
  if (failed(idx))
    return failure();
  SmallVector<int64_t> shape(data.getShape().take_front(axis));
  llvm::append_range(shape, idx->getShape());
  llvm::append_range(shape, data.getShape().drop_front(axis + 1));
  types.push_back(RankedTensorType::get(shape, data.getElementType()));
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

LPX_INFER_RETURN_TYPES(PadOp) {
  auto in = rankedType(adaptor.getInput());
  int64_t rank = in.getRank();
  ArrayRef<int64_t> pads = adaptor.getPads();
  if (int64_t(pads.size()) != 2 * rank)
    return emitOptionalError(loc, "pads need a begin and an end for each of the ",
                             rank, " dims");
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    shape.push_back(in.getDimSize(d) + pads[d] + pads[rank + d]);
    if (shape.back() < 0)
      return emitOptionalError(loc, "pads crop dim ", d, " below zero");
  }
  types.push_back(RankedTensorType::get(shape, in.getElementType()));
  return success();
}

LogicalResult PadOp::verify() {
  auto in = rankedType(getInput()), out = rankedType(getResult());
  for (int64_t d = 0; d < in.getRank(); ++d)
    if (getMode() != PadMode::Constant && in.getDimSize(d) == 0 &&
        out.getDimSize(d) > 0)
      return emitOpError("mode '")
             << stringifyPadMode(getMode()) << "' cannot pad an empty dim";
  return success();
}

LPX_INFER_RETURN_TYPES(GatherElementsOp) {
  auto data = rankedType(adaptor.getData());
  FailureOr<RankedTensorType> idx = integerIndices(loc, adaptor.getIndices());
  if (failed(idx))
    return failure();
  if (idx->getRank() != data.getRank())
    return emitOptionalError(loc, "indices must have the data's rank");
  int64_t axis = adaptor.getAxis();
  if (axis < 0 || axis >= std::max<int64_t>(data.getRank(), 1))
    return emitOptionalError(loc, "axis ", axis, " out of range for rank ",
                             data.getRank());
  types.push_back(
      RankedTensorType::get(idx->getShape(), data.getElementType()));
  return success();
}

/// The scatters' result type: the data's.
#define LPX_SCATTER_OP(Op)                                                     \
  LPX_INFER_RETURN_TYPES(Op) {                                                 \
    types.push_back(adaptor.getData().getType());                              \
    return success();                                                          \
  }
LPX_SCATTER_OP(ScatterElementsOp)
LPX_SCATTER_OP(ScatterNDOp)
#undef LPX_SCATTER_OP

/// Shared by the scatters: updates of its element type, integer indices.
static LogicalResult verifyScatter(Operation *op, Value data, Value indices,
                                   Value updates) {
  auto d = rankedType(data), u = rankedType(updates);
  if (u.getElementType() != d.getElementType())
    return op->emitOpError("updates must have the data's element type");
  if (!llvm::isa<IntegerType>(rankedType(indices).getElementType()))
    return op->emitOpError("indices must be integers");
  return success();
}

LogicalResult ScatterElementsOp::verify() {
  if (failed(verifyScatter(*this, getData(), getIndices(), getUpdates())))
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
  if (failed(verifyScatter(*this, getData(), getIndices(), getUpdates())))
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

LPX_INFER_RETURN_TYPES(GridSampleOp) {
  auto x = rankedType(adaptor.getInput()), g = rankedType(adaptor.getGrid());
  if (!llvm::isa<FloatType>(x.getElementType()) ||
      g.getElementType() != x.getElementType())
    return emitOptionalError(loc, "input and grid must share one "
                                  "floating-point type");
  if (x.getRank() != 4 || g.getRank() != 4 || g.getDimSize(3) != 2 ||
      g.getDimSize(0) != x.getDimSize(0))
    return emitOptionalError(loc, "needs input [N, C, H, W] and grid "
                                  "[N, Ho, Wo, 2]");
  types.push_back(RankedTensorType::get({x.getDimSize(0), x.getDimSize(1),
                                         g.getDimSize(1), g.getDimSize(2)},
                                        x.getElementType()));
  return success();
}


LogicalResult StateWriteOp::verify() {
  auto state = rankedType(getState()), update = rankedType(getUpdate());
  auto position = rankedType(getPosition());
  if (getResult().getType() != state)
    return emitOpError("result must have the state's type");
  // The state is a function argument, or what an earlier write left in it
  // (a chunked prefill: each chunk writes after the one before).
  Value root = getState();
  while (auto earlier = root.getDefiningOp<StateWriteOp>())
    root = earlier.getState();
  auto arg = dyn_cast<BlockArgument>(root);
  auto f = arg ? dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp())
               : nullptr;
  if (!f || !f.getArgAttr(arg.getArgNumber(), kStateAttr))
    return emitOpError("state must be a function argument marked ")
           << kStateAttr << " or an earlier state_write's result";
  if (root == getState() && !getState().hasOneUse())
    return emitOpError("must be the state's only user (readers read its "
                       "result)");
  for (Operation *user : getState().getUsers())
    if (auto other = dyn_cast<StateWriteOp>(user);
        other && other != *this && other.getState() == getState())
      return emitOpError("must be the only write after the state it writes "
                         "into");
  const int64_t rank = state.getRank(), axis = getAxis();
  if (axis < 1 || axis >= rank)
    return emitOpError("axis ") << axis << " must index a non-batch dim of "
                                << shapeStr(state.getShape());
  // The update holds n positions (1 for a decode step, a prompt's S for a
  // prefill) of the state's shape otherwise.
  const int64_t n = update.getRank() == rank ? update.getDimSize(axis) : 0;
  SmallVector<int64_t> want(state.getShape());
  want[axis] = n;
  if (update.getElementType() != state.getElementType() ||
      update.getShape() != ArrayRef<int64_t>(want) || n < 1 ||
      n > state.getDimSize(axis))
    return emitOpError("update must be the state's shape ")
           << shapeStr(state.getShape()) << " with 1 to "
           << state.getDimSize(axis) << " positions along axis " << axis
           << ", of the state's element type, not "
           << shapeStr(update.getShape());
  if (!position.getElementType().isInteger(64) &&
      !position.getElementType().isInteger(32))
    return emitOpError("position must be i32 or i64");
  const int64_t rows = state.getDimSize(0);
  if (position.getRank() > 2 || position.getNumElements() != rows * n ||
      (position.getRank() == 1 && n != 1) ||
      (position.getRank() == 2 && position.getDimSize(0) != rows))
    return emitOpError("position must be [B, n] (or [B] when n = 1) with B = ")
           << rows << " and n = " << n << " positions written";
  return success();
}
