//===- ElementwiseOps.cpp - lpx_graph elementwise ops: shapes, verifiers --===//
#include "GraphOpUtils.h"
#include "lpx/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace lpx::graph;
using namespace lpx::graph::detail;

// Header-only; LpxGraphDialect does not link lpx_isa, so reach the header by
// its path in the source tree.
#include "lpx/isa/ElementwiseFunctions.h"

namespace {
using lpx::isa::FnInfo;

/// The numpy broadcast of the operands' shapes: the result shape of every
/// broadcasting op.
FailureOr<SmallVector<int64_t>> broadcastOperands(std::optional<Location> loc,
                                                  ValueRange operands) {
  SmallVector<int64_t> shape;
  std::string shapes;
  for (Value v : operands) {
    shapes += (shapes.empty() ? "" : ", ") + shapeStr(rankedType(v).getShape());
    auto b = broadcastShapes(shape, rankedType(v).getShape());
    if (failed(b))
      return emitOptionalError(loc, "operand shapes (", shapes,
                               ") cannot be broadcast together");
    shape = *b;
  }
  return shape;
}

LogicalResult inferBroadcast(MLIRContext *ctx, std::optional<Location> loc,
                             ValueRange operands, Type elt,
                             SmallVectorImpl<Type> &types) {
  auto shape = broadcastOperands(loc, operands);
  if (failed(shape))
    return failure();
  types.push_back(RankedTensorType::get(*shape, elt));
  return success();
}

template <typename Adaptor>
LogicalResult inferBinary(MLIRContext *ctx, std::optional<Location> loc,
                          Adaptor adaptor, SmallVectorImpl<Type> &types) {
  return inferBroadcast(ctx, loc, {adaptor.getLhs(), adaptor.getRhs()},
                        rankedType(adaptor.getLhs()).getElementType(), types);
}

/// The function a unary_fn / binary_fn names, or null when it names none.
const FnInfo *unaryFn(StringRef mnemonic) {
  auto id = lpx::isa::unaryFnFromMnemonic(mnemonic);
  return id ? lpx::isa::unaryFnInfo(int64_t(*id)) : nullptr;
}
const FnInfo *binaryFn(StringRef mnemonic) {
  auto id = lpx::isa::binaryFnFromMnemonic(mnemonic);
  return id ? lpx::isa::binaryFnInfo(int64_t(*id)) : nullptr;
}

/// A unary_fn's or binary_fn's result: the operands' broadcast shape, of i1
/// for a test (isnan, less, ...), else of the first operand's element type.
/// `fn` is null when the op names no `kind` ("unary", "binary") function.
LogicalResult inferFn(MLIRContext *ctx, std::optional<Location> loc,
                      StringRef kind, StringRef name, const FnInfo *fn,
                      ValueRange operands, SmallVectorImpl<Type> &types) {
  if (!fn)
    return emitOptionalError(loc, "unknown ", kind, " function '", name, "'");
  Type elt = fn->boolResult() ? IntegerType::get(ctx, 1)
                              : rankedType(operands[0]).getElementType();
  return inferBroadcast(ctx, loc, operands, elt, types);
}

LogicalResult verifySameElementType(Operation *op) {
  if (rankedType(op->getOperand(0)).getElementType() !=
      rankedType(op->getOperand(1)).getElementType())
    return op->emitOpError("operands must have the same element type");
  return success();
}

/// Checks an operand element type against a function's domain.
LogicalResult checkDomain(Operation *op, const FnInfo &fn, Type elt) {
  bool isBool = elt.isInteger(1);
  bool isFloat = isa<FloatType>(elt);
  bool isInt = isa<IntegerType>(elt) && !isBool;
  bool ok = fn.accepts(isBool, isFloat, isInt);
  if (!ok)
    return op->emitOpError("function '")
           << fn.mnemonic << "' is not defined for element type " << elt;
  return success();
}

} // namespace

#define LPX_BINARY_OP(Op)                                                      \
  LPX_INFER_RETURN_TYPES(Op) {                                                 \
    return inferBinary(ctx, loc, adaptor, types);                              \
  }
LPX_BINARY_OP(AddOp)
LPX_BINARY_OP(SubOp)
LPX_BINARY_OP(MulOp)
LPX_BINARY_OP(DivOp)
LPX_BINARY_OP(PowOp)
#undef LPX_BINARY_OP

LogicalResult AddOp::verify() { return verifySameElementType(*this); }
LogicalResult SubOp::verify() { return verifySameElementType(*this); }
LogicalResult MulOp::verify() { return verifySameElementType(*this); }
LogicalResult DivOp::verify() { return verifySameElementType(*this); }
// The exponent may have another type than the base.
LogicalResult PowOp::verify() { return success(); }

LPX_INFER_RETURN_TYPES(WhereOp) {
  return inferBroadcast(ctx, loc, adaptor.getOperands(),
                        rankedType(adaptor.getX()).getElementType(), types);
}

LogicalResult WhereOp::verify() {
  if (!rankedType(getCondition()).getElementType().isInteger(1))
    return emitOpError("condition must be a tensor of i1");
  if (rankedType(getX()).getElementType() !=
      rankedType(getY()).getElementType())
    return emitOpError("x and y must have the same element type");
  return success();
}

LogicalResult CastOp::verify() {
  if (rankedType(getInput()).getShape() != rankedType(getResult()).getShape())
    return emitOpError("cast must keep the shape");
  return success();
}

LPX_INFER_RETURN_TYPES(UnaryFnOp) {
  return inferFn(ctx, loc, "unary", adaptor.getFn(), unaryFn(adaptor.getFn()),
                 {adaptor.getInput()}, types);
}

LogicalResult UnaryFnOp::verify() {
  const FnInfo *info = unaryFn(getFn());
  if (!info)
    return success(); // the result type inference names the unknown function
  const FnInfo &fn = *info;
  if (fn.convertsType())
    return emitOpError("function '")
           << getFn() << "' changes the element type: lpx_graph.rescale";
  if (getParams().size() != fn.params)
    return emitOpError("function '")
           << getFn() << "' takes " << fn.params << " parameters, got "
           << getParams().size();
  return checkDomain(*this, fn, rankedType(getInput()).getElementType());
}

LogicalResult RescaleOp::verify() {
  const FnInfo *fn = unaryFn(getFn());
  if (!fn || !fn->convertsType())
    return emitOpError("function '")
           << getFn() << "' is not quantize or dequantize";
  if (getParams().size() != fn->params)
    return emitOpError("function '")
           << getFn() << "' takes " << fn->params << " parameters, got "
           << getParams().size();
  if (rankedType(getInput()).getShape() != rankedType(getResult()).getShape())
    return emitOpError("rescale must keep the shape");
  Type out = rankedType(getResult()).getElementType();
  if (!fn->resultKindOk(isa<FloatType>(out),
                        isa<IntegerType>(out) && !out.isInteger(1)))
    return emitOpError("function '")
           << getFn() << "' cannot give element type " << out;
  return checkDomain(*this, *fn, rankedType(getInput()).getElementType());
}

LPX_INFER_RETURN_TYPES(BinaryFnOp) {
  return inferFn(ctx, loc, "binary", adaptor.getFn(),
                 binaryFn(adaptor.getFn()),
                 {adaptor.getLhs(), adaptor.getRhs()}, types);
}

LogicalResult BinaryFnOp::verify() {
  if (failed(verifySameElementType(*this)))
    return failure();
  const FnInfo *fn = binaryFn(getFn());
  if (!fn)
    return success(); // the result type inference names the unknown function
  return checkDomain(*this, *fn, rankedType(getLhs()).getElementType());
}
