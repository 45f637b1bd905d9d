//===- GraphOpUtils.cpp - helpers shared by the lpx_graph verifiers -------===//
#include "GraphOpUtils.h"
#include "lpx/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace lpx::graph::detail {

std::string shapeStr(ArrayRef<int64_t> s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i)
    out += (i ? "x" : "") + std::to_string(s[i]);
  return out.empty() ? "scalar" : out;
}

LogicalResult verifyReducedShape(Operation *op, ArrayRef<int64_t> in,
                                 ArrayRef<int64_t> axes,
                                 ArrayRef<int64_t> out) {
  for (size_t i = 0; i < axes.size(); ++i) {
    if (axes[i] < 0 || axes[i] >= int64_t(in.size()))
      return op->emitOpError("axis ") << axes[i] << " out of range";
    if (i && axes[i] <= axes[i - 1])
      return op->emitOpError("axes must be sorted and unique");
  }
  SmallVector<int64_t> kept = reducedShape(in, axes, true);
  SmallVector<int64_t> dropped = reducedShape(in, axes, false);
  if (out != ArrayRef<int64_t>(kept) && out != ArrayRef<int64_t>(dropped))
    return op->emitOpError("result shape ")
           << shapeStr(out) << " does not match the reduction";
  return success();
}

LogicalResult verifyAxis(Operation *op, int64_t axis, int64_t rank) {
  if (axis < 0 || axis >= std::max<int64_t>(rank, 1))
    return op->emitOpError("axis ") << axis << " out of range for rank "
                                    << rank;
  return success();
}

} // namespace lpx::graph::detail
