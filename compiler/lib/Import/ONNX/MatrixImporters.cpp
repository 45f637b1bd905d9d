//===- MatrixImporters.cpp - MatMul, Gemm, Softmax, ReduceMean ------------===//
#include "OpImporters.h"
#include "Tensors.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace lpx::graph;

namespace lpx::onnximport {

LogicalResult importMatMul(NodeContext &n) {
  auto a = n.input(0), b = n.input(1);
  if (failed(a) || failed(b))
    return failure();
  ArrayRef<int64_t> as = n.typeOf(*a).getShape(), bs = n.typeOf(*b).getShape();
  if (as.empty() || bs.empty())
    return n.fail("operands must have rank 1 or more");
  if (n.typeOf(*a).getElementType() != n.typeOf(*b).getElementType())
    return n.fail("operand element types differ");
  int64_t ka = as.back(), kb = bs.size() == 1 ? bs[0] : bs[bs.size() - 2];
  if (ka != kb)
    return n.fail("reduction dims differ: " + shapeString(as) + " x " +
                  shapeString(bs));
  // numpy matmul: 1-D operands lose their added dim again in the result.
  SmallVector<int64_t> batchA(as.begin(), as.end() - std::min<size_t>(2, as.size()));
  SmallVector<int64_t> batchB(bs.begin(), bs.end() - std::min<size_t>(2, bs.size()));
  auto shape = broadcastShapes(batchA, batchB);
  if (failed(shape))
    return n.fail("batch dims of " + shapeString(as) + " and " +
                  shapeString(bs) + " cannot be broadcast");
  if (as.size() >= 2)
    shape->push_back(as[as.size() - 2]);
  if (bs.size() >= 2)
    shape->push_back(bs.back());
  n.setOutput(0, n.create<MatMulOp>(
                     n.tensorOf(*shape, n.typeOf(*a).getElementType()), *a,
                     *b));
  return success();
}

LogicalResult importGemm(NodeContext &n) {
  auto a = n.input(0), b = n.input(1);
  if (failed(a) || failed(b))
    return failure();
  ArrayRef<int64_t> as = n.typeOf(*a).getShape(), bs = n.typeOf(*b).getShape();
  if (as.size() != 2 || bs.size() != 2)
    return n.fail("A and B must be 2-D, got " + shapeString(as) + " and " +
                  shapeString(bs));
  bool transA = n.intAttr("transA", 0) != 0;
  bool transB = n.intAttr("transB", 0) != 0;
  int64_t m = transA ? as[1] : as[0], k = transA ? as[0] : as[1];
  int64_t kb = transB ? bs[1] : bs[0], nn = transB ? bs[0] : bs[1];
  if (k != kb)
    return n.fail("reduction dims differ: op(A) is " + llvm::Twine(m) + "x" +
                  llvm::Twine(k) + ", op(B) is " + llvm::Twine(kb) + "x" +
                  llvm::Twine(nn));
  Type elt = n.typeOf(*a).getElementType();
  if (n.typeOf(*b).getElementType() != elt)
    return n.fail("A and B have different element types");
  Value c;
  if (n.hasInput(2)) {
    auto cv = n.input(2);
    if (failed(cv))
      return failure();
    c = *cv;
    // C broadcasts one way, to MxN.
    SmallVector<int64_t> mn{m, nn};
    auto bc = broadcastShapes(n.typeOf(c).getShape(), mn);
    if (failed(bc) || ArrayRef<int64_t>(*bc) != ArrayRef<int64_t>(mn))
      return n.fail("C of shape " + shapeString(n.typeOf(c).getShape()) +
                    " does not broadcast to " + shapeString(mn));
    if (n.typeOf(c).getElementType() != elt)
      return n.fail("C has a different element type");
  }
  OpBuilder &b0 = n.builder();
  n.setOutput(0, n.create<GemmOp>(n.tensorOf({m, nn}, elt), *a, *b, c,
                                  b0.getF32FloatAttr(n.floatAttr("alpha", 1.0f)),
                                  b0.getF32FloatAttr(n.floatAttr("beta", 1.0f)),
                                  b0.getBoolAttr(transA),
                                  b0.getBoolAttr(transB)));
  return success();
}

LogicalResult importSoftmax(NodeContext &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  auto type = n.typeOf(*x);
  int64_t rank = type.getRank();
  if (rank == 0)
    return n.fail("input must have rank 1 or more");
  bool coerce2D = n.opset() < 13;
  auto axis = n.axis(n.intAttr("axis", coerce2D ? 1 : -1), rank, "axis");
  if (failed(axis))
    return failure();
  auto softmax = [&](Value v, int64_t ax) -> Value {
    return n.create<SoftmaxOp>(v.getType(), v,
                               n.builder().getI64IntegerAttr(ax));
  };
  // Before opset 13 Softmax flattens to [prod(dims < axis), prod(dims >=
  // axis)] and normalises whole rows. That is the one-axis softmax only
  // when `axis` is the last dim; otherwise reshape around it.
  if (!coerce2D || *axis == rank - 1) {
    n.setOutput(0, softmax(*x, *axis));
    return success();
  }
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < rank; ++d)
    (d < *axis ? outer : inner) *= type.getDimSize(d);
  Value flat = n.reshape(*x, {outer, inner});
  n.setOutput(0, n.reshape(softmax(flat, 1), type.getShape()));
  return success();
}

LogicalResult importReduceMean(NodeContext &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  auto type = n.typeOf(*x);
  int64_t rank = type.getRank();
  // Opset 18 made `axes` an input; the driver rejects opsets past 17.
  std::vector<int64_t> axes = n.intsAttr("axes").value_or(std::vector<int64_t>{});
  bool keepdims = n.intAttr("keepdims", 1) != 0;
  if (axes.empty())
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  for (int64_t &a : axes) {
    auto norm = n.axis(a, rank, "axis");
    if (failed(norm))
      return failure();
    a = *norm;
  }
  llvm::sort(axes);
  if (std::adjacent_find(axes.begin(), axes.end()) != axes.end())
    return n.fail("axes repeat an axis");
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (!llvm::is_contained(axes, d))
      shape.push_back(type.getDimSize(d));
    else if (keepdims)
      shape.push_back(1);
  }
  n.setOutput(0, n.create<ReduceMeanOp>(
                     n.tensorOf(shape, type.getElementType()), *x,
                     n.builder().getDenseI64ArrayAttr(axes)));
  return success();
}

} // namespace lpx::onnximport
