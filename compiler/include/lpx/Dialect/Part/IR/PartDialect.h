//===- PartDialect.h - lpx_part dialect -------------------------*- C++ -*-===//
#ifndef LPX_DIALECT_PART_IR_PARTDIALECT_H
#define LPX_DIALECT_PART_IR_PARTDIALECT_H

#include "mlir/IR/Dialect.h"

#include "lpx/Dialect/Part/IR/PartOpsDialect.h.inc"

namespace lpx::part {
/// The node an op was placed on, if it has been placed.
std::optional<int64_t> getNode(mlir::Operation *op);
void setNode(mlir::Operation *op, int64_t node);
/// The node holding a value: its defining op's, or node 0 for arguments.
int64_t getNodeOfValue(mlir::Value v);
} // namespace lpx::part

#endif
