//===- SchedDialect.h - lpx_sched dialect -----------------------*- C++ -*-===//
#ifndef LPX_DIALECT_SCHED_IR_SCHEDDIALECT_H
#define LPX_DIALECT_SCHED_IR_SCHEDDIALECT_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Dialect.h"

#include "lpx/Dialect/Sched/IR/SchedOpsDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "lpx/Dialect/Sched/IR/SchedAttrs.h.inc"

#endif
