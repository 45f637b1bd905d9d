//===- ShapeOnly.h - Constants that carry a type but no values --*- C++ -*-===//
//
// A shape-only weight (docs/architecture.md, "Shape-only weights") is an
// lpx_graph.constant whose value is a `dense_resource<name>` with no blob:
// the type is exact, there are no bytes. Every pass that derives a constant
// from another (transpose, format conversion, slicing) derives a shape-only
// one from a shape-only one, so placement, schedule and cycles are those of
// the same model with data; emission writes such constants without data.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DIALECT_GRAPH_IR_SHAPEONLY_H
#define LPX_DIALECT_GRAPH_IR_SHAPEONLY_H

#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"

namespace lpx::graph {

/// True for a values-free constant (a dense_resource without a blob).
bool isShapeOnly(mlir::Attribute value);

/// A values-free constant of `type`; `name` only labels it in printed IR
/// (callers pass a name unique in the module, such as the ONNX initializer's).
mlir::ElementsAttr shapeOnlyElements(mlir::ShapedType type,
                                     llvm::StringRef name);

/// A values-free constant of `type` derived from the shape-only `from`,
/// labelled with `from`'s name and `suffix` (".T", ".f16", ".part3").
mlir::ElementsAttr shapeOnlyFrom(mlir::ElementsAttr from,
                                 mlir::ShapedType type,
                                 const llvm::Twine &suffix);

} // namespace lpx::graph

#endif
