//===- GraphDialect.cpp - lpx_graph dialect -------------------------------===//
#include "lpx/Dialect/Graph/IR/GraphDialect.h"
#include "lpx/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace lpx::graph;

#include "lpx/Dialect/Graph/IR/GraphOpsDialect.cpp.inc"
#include "lpx/Dialect/Graph/IR/GraphEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "lpx/Dialect/Graph/IR/GraphAttrs.cpp.inc"

void GraphDialect::initialize() {
#define LPX_GENERATED_OPS "lpx/Dialect/Graph/IR/GraphOps.cpp.inc"
#define LPX_GENERATED_ATTRS "lpx/Dialect/Graph/IR/GraphAttrs.cpp.inc"
#include "lpx/Dialect/AddGeneratedContents.inc"
}

Operation *GraphDialect::materializeConstant(OpBuilder &builder,
                                             Attribute value, Type type,
                                             Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return builder.create<ConstantOp>(loc, type, elements);
}
