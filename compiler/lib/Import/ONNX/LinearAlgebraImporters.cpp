//===- LinearAlgebraImporters.cpp - MatMul, Gemm, Det ---------------------===//
//
// MatMul and Gemm go to the matrix unit (Gemm is decomposed later by
// lpx-graph-decompose); Det is one VXM instruction, det (Gaussian
// elimination with partial pivoting).
//
//===----------------------------------------------------------------------===//
#include "OpImporters.h"
#include "Tensors.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"

using namespace mlir;
using namespace lpx::graph;

namespace lpx::onnximport {

FailureOr<Value> buildMatMul(NodeContext &n, Value a, Value b,
                             Type resultElt) {
  auto r = n.create<MatMulOp>(a, b);
  if (failed(r) || n.typeOf(*r).getElementType() == resultElt)
    return r;
  // i8 operands accumulated in i32: the inferred shape, the wider element.
  r->setType(n.tensorOf(n.typeOf(*r).getShape(), resultElt));
  return r;
}

LogicalResult importMatMul(NodeContext &n) {
  auto a = n.input(0), b = n.input(1);
  if (failed(a) || failed(b))
    return failure();
  Type elt = n.typeOf(*a).getElementType();
  if (elt != n.typeOf(*b).getElementType())
    return n.fail("operand element types differ");
  auto r = buildMatMul(n, *a, *b, elt);
  if (failed(r))
    return failure();
  n.setOutput(0, *r);
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
    if (!broadcastsTo(n.typeOf(c).getShape(), mn))
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

namespace {
LogicalResult importDet(NodeContext &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  return n.setOutput(0, n.create<DetOp>(*x));
}

} // namespace

void addLinearAlgebraImporters(llvm::StringMap<OpImporter> &table) {
  table["Det"] = importDet;
}

} // namespace lpx::onnximport
