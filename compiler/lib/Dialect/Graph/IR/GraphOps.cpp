//===- GraphOps.cpp - lpx_graph: shared shape rules, constant -------------===//
//
// The op verifiers and shape rules live by op family: ElementwiseOps.cpp,
// ReductionOps.cpp, DataMovementOps.cpp, LinearAlgebraOps.cpp, WindowOps.cpp.
//
//===----------------------------------------------------------------------===//
#include "lpx/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace lpx::graph;

FailureOr<SmallVector<int64_t>>
lpx::graph::broadcastShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  SmallVector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      return failure();
    out[i] = da == 1 ? db : da;
  }
  return out;
}

SmallVector<int64_t> lpx::graph::reducedShape(ArrayRef<int64_t> in,
                                              ArrayRef<int64_t> axes,
                                              bool keepdims) {
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < int64_t(in.size()); ++d) {
    if (!llvm::is_contained(axes, d))
      shape.push_back(in[d]);
    else if (keepdims)
      shape.push_back(1);
  }
  return shape;
}

bool lpx::graph::broadcastsTo(ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
  auto b = broadcastShapes(from, to);
  return succeeded(b) && ArrayRef<int64_t>(*b) == to;
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

// `lpx_graph.constant {attrs} dense<...> : tensor<...>`: the result type is
// the value's type.
ParseResult ConstantOp::parse(OpAsmParser &parser, OperationState &result) {
  Attribute value;
  if (parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseAttribute(value))
    return failure();
  auto typed = dyn_cast<ElementsAttr>(value);
  if (!typed)
    return parser.emitError(parser.getCurrentLocation(),
                            "expected an elements attribute");
  result.addAttribute("value", typed);
  result.addTypes(typed.getType());
  return success();
}

void ConstantOp::print(OpAsmPrinter &p) {
  p.printOptionalAttrDict((*this)->getAttrs(), {"value"});
  p << ' ';
  p.printAttribute(getValue());
}

LogicalResult ConstantOp::verify() {
  if (getValue().getType() != getType())
    return emitOpError("value type ")
           << getValue().getType() << " differs from result type " << getType();
  return success();
}

#define GET_OP_CLASSES
#include "lpx/Dialect/Graph/IR/GraphOps.cpp.inc"
