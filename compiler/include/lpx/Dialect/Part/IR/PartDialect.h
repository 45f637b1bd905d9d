//===- PartDialect.h - lpx_part dialect -------------------------*- C++ -*-===//
#ifndef LPX_DIALECT_PART_IR_PARTDIALECT_H
#define LPX_DIALECT_PART_IR_PARTDIALECT_H

#include "lpx/isa/ChipSpec.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/Dialect.h"
#include "llvm/ADT/Hashing.h"

namespace lpx::isa {
/// For #lpx_part.chip's uniquing: two chips are the same when their
/// resolved descriptions (what a program embeds) are.
inline bool operator==(const ChipSpec &a, const ChipSpec &b) {
  return printChipSpec(a) == printChipSpec(b);
}
inline llvm::hash_code hash_value(const ChipSpec &c) {
  return llvm::hash_value(printChipSpec(c));
}
} // namespace lpx::isa

#include "lpx/Dialect/Part/IR/PartOpsDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "lpx/Dialect/Part/IR/PartAttrs.h.inc"

namespace lpx::part {
/// The node an op was placed on, if it has been placed.
std::optional<int64_t> getNode(mlir::Operation *op);
void setNode(mlir::Operation *op, int64_t node);
/// The node holding a value: its defining op's, or node 0 for arguments.
int64_t getNodeOfValue(mlir::Value v);
} // namespace lpx::part

#endif
