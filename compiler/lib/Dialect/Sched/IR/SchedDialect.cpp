//===- SchedDialect.cpp - lpx_sched dialect -------------------------------===//
#include "lpx/Dialect/Sched/IR/SchedDialect.h"
#include "lpx/Dialect/Sched/IR/SchedOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace lpx::sched;

#include "lpx/Dialect/Sched/IR/SchedOpsDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "lpx/Dialect/Sched/IR/SchedAttrs.cpp.inc"

void SchedDialect::initialize() {
#define LPX_GENERATED_OPS "lpx/Dialect/Sched/IR/SchedOps.cpp.inc"
#define LPX_GENERATED_ATTRS "lpx/Dialect/Sched/IR/SchedAttrs.cpp.inc"
#include "lpx/Dialect/AddGeneratedContents.inc"
}

LogicalResult SchedDialect::verifyOperationAttribute(Operation *op,
                                                     NamedAttribute attr) {
  if (attr.getName() == kSlotAttr) {
    auto slot = dyn_cast<SlotAttr>(attr.getValue());
    if (!slot)
      return op->emitError() << kSlotAttr << " must be a #lpx_sched.slot";
    if (slot.getBusy() == 0)
      return op->emitError() << "an instruction is busy for at least a cycle";
    return success();
  }
  if (attr.getName() == kAddrAttr) {
    auto i = dyn_cast<IntegerAttr>(attr.getValue());
    if (!i || i.getInt() < 0)
      return op->emitError() << kAddrAttr << " must be a non-negative integer";
    return success();
  }
  return op->emitError() << "unknown attribute " << attr.getName();
}

LogicalResult SendOp::verify() {
  int64_t from = getFromAttr().getInt(), to = getToAttr().getInt();
  if (from == to || from < 0 || to < 0)
    return emitOpError("needs two different non-negative nodes");
  if (getArrive() <= getDepart())
    return emitOpError("arrives (") << getArrive() << ") before it departs ("
                                    << getDepart() << ")";
  return success();
}

#define GET_OP_CLASSES
#include "lpx/Dialect/Sched/IR/SchedOps.cpp.inc"
