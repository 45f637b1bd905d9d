//===- ShapeOnly.cpp - Constants that carry a type but no values ----------===//
#include "lpx/Dialect/Graph/IR/ShapeOnly.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;

bool lpx::graph::isShapeOnly(Attribute value) {
  auto r = dyn_cast_or_null<DenseResourceElementsAttr>(value);
  return r && !r.getRawHandle().getBlob();
}

ElementsAttr lpx::graph::shapeOnlyElements(ShapedType type, StringRef name) {
  // An entry without a blob: the resource has a name and no data. The
  // manager renames on collision, which callers avoid by passing unique
  // names (a repeated name costs a scan over the names taken before it).
  auto &manager =
      DenseResourceElementsHandle::getManagerInterface(type.getContext());
  DenseResourceElementsHandle handle = manager.insert(name);
  return cast<ElementsAttr>(DenseResourceElementsAttr::get(type, handle));
}

ElementsAttr lpx::graph::shapeOnlyFrom(ElementsAttr from, ShapedType type,
                                       const llvm::Twine &suffix) {
  auto r = cast<DenseResourceElementsAttr>(from);
  return shapeOnlyElements(type, (r.getRawHandle().getKey() + suffix).str());
}
