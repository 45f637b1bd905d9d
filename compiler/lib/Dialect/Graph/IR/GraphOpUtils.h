//===- GraphOpUtils.h - shared lpx_graph verifier helpers ---*- C++ -*-===//
#ifndef LPX_LIB_DIALECT_GRAPH_IR_GRAPHOPUTILS_H
#define LPX_LIB_DIALECT_GRAPH_IR_GRAPHOPUTILS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

#include <string>

/// Defines `Op`'s result type inference with the signature MLIR's
/// InferTypeOpAdaptor declares for it, written once for every lpx_graph op
/// that infers: the context `ctx`, the location `loc` (for
/// emitOptionalError), the operands and attributes `adaptor`, and `types`,
/// which the inferred result types are appended to.
#define LPX_INFER_RETURN_TYPES(Op)                                             \
  ::mlir::LogicalResult Op::inferReturnTypes(                                  \
      ::mlir::MLIRContext *ctx, std::optional<::mlir::Location> loc,           \
      Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types)

namespace lpx::graph::detail {

inline mlir::RankedTensorType rankedType(mlir::Value v) {
  return llvm::cast<mlir::RankedTensorType>(v.getType());
}

/// "2x3x4", or "scalar" for rank 0.
std::string shapeStr(llvm::ArrayRef<int64_t> s);

/// `axis` in [0, max(rank, 1)).
mlir::LogicalResult verifyAxis(mlir::Operation *op, int64_t axis,
                               int64_t rank);

/// Shared by reduce and reduce_mean style ops: sorted unique axes, result
/// with the reduced dims kept as 1 or dropped.
mlir::LogicalResult verifyReducedShape(mlir::Operation *op,
                                       llvm::ArrayRef<int64_t> in,
                                       llvm::ArrayRef<int64_t> axes,
                                       llvm::ArrayRef<int64_t> out);

} // namespace lpx::graph::detail

#endif
