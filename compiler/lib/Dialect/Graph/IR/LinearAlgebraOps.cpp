//===- LinearAlgebraOps.cpp - lpx_graph matmul and det verifiers ----------===//
#include "GraphOpUtils.h"
#include "lpx/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace lpx::graph;
using namespace lpx::graph::detail;

FailureOr<SmallVector<int64_t>>
MatMulOp::inferShape(std::optional<Location> loc, ArrayRef<int64_t> a,
                     ArrayRef<int64_t> b) {
  if (a.empty() || b.empty())
    return emitOptionalError(loc, "operands must have rank 1 or more");
  int64_t k1 = a.back();
  int64_t k2 = b.size() == 1 ? b[0] : b[b.size() - 2];
  if (k1 != k2)
    return emitOptionalError(loc, "reduction dimensions differ: ", k1, " vs ",
                             k2);
  // numpy matmul: 1-D operands lose their added dim again in the result.
  SmallVector<int64_t> batchA(a.begin(), a.end() - std::min<size_t>(2, a.size()));
  SmallVector<int64_t> batchB(b.begin(), b.end() - std::min<size_t>(2, b.size()));
  auto shape = broadcastShapes(batchA, batchB);
  if (failed(shape))
    return emitOptionalError(loc, "batch dimensions of ", shapeStr(a), " and ",
                             shapeStr(b), " cannot be broadcast together");
  if (a.size() >= 2)
    shape->push_back(a[a.size() - 2]);
  if (b.size() >= 2)
    shape->push_back(b.back());
  return shape;
}

// The lhs element type by default (float activations times int8 weights
// give floats); i8 operands may also give i32, so a written result type is
// compatible when the shapes match and the verifier accepts its element.
LPX_INFER_RETURN_TYPES(MatMulOp) {
  auto lhs = rankedType(adaptor.getLhs());
  auto shape = inferShape(loc, lhs.getShape(),
                          rankedType(adaptor.getRhs()).getShape());
  if (failed(shape))
    return failure();
  types.push_back(RankedTensorType::get(*shape, lhs.getElementType()));
  return success();
}

bool MatMulOp::isCompatibleReturnTypes(TypeRange inferred, TypeRange actual) {
  return inferred.size() == 1 && actual.size() == 1 &&
         cast<ShapedType>(inferred[0]).getShape() ==
             cast<ShapedType>(actual[0]).getShape();
}

LogicalResult MatMulOp::verify() {
  // Weights may be in another floating-point format than the activations
  // (the matrix unit accumulates in fp32); otherwise the types must match.
  Type lhsElem = rankedType(getLhs()).getElementType();
  Type rhsElem = rankedType(getRhs()).getElementType();
  // (int8 weights times float activations, with the scale applied after).
  auto floatOrInt8 = [](Type t) {
    return isa<FloatType>(t) || t.isSignlessInteger(8);
  };
  Type resElem = rankedType(getResult()).getElementType();
  if (lhsElem != rhsElem &&
      !(isa<FloatType>(lhsElem) && floatOrInt8(rhsElem) &&
        isa<FloatType>(resElem)))
    return emitOpError("operands must have the same element type");
  // Integer matmul gives the operands' type, except int8 operands, which
  // the matrix unit also accumulates into int32.
  if (lhsElem == rhsElem && isa<IntegerType>(lhsElem) && resElem != lhsElem &&
      !(lhsElem.isSignlessInteger(8) && resElem.isSignlessInteger(32)))
    return emitOpError("integer result must have the operands' type (or "
                       "i32 for i8 operands)");
  return success();
}

LPX_INFER_RETURN_TYPES(DetOp) {
  auto x = rankedType(adaptor.getInput());
  if (!llvm::isa<FloatType>(x.getElementType()))
    return emitOptionalError(loc, "input must be floating-point");
  if (x.getRank() < 2 || x.getDimSize(x.getRank() - 1) !=
                             x.getDimSize(x.getRank() - 2))
    return emitOptionalError(loc, "input must be [..., n, n]");
  types.push_back(RankedTensorType::get(x.getShape().drop_back(2),
                                        x.getElementType()));
  return success();
}
