//===- PartitionPatterns.h - What placement recognises in a graph -*- C++ -*-===//
//
// The transformer structure the tensor- and pipeline-parallel placement
// looks for (PartitionShard.h): projections whose result is reshaped into
// heads, fused projections read through column slices, the embedding and
// LM-head tables, pointwise ops; and the cutting of constants into pieces.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_LIB_TRANSFORMS_PARTITIONPATTERNS_H
#define LPX_LIB_TRANSFORMS_PARTITIONPATTERNS_H

#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributeInterfaces.h"

namespace lpx {

/// Ops that apply one function per element with numpy broadcasting.
bool isPointwise(mlir::Operation *op);

/// A MatMul's or an embedding Gather's constant 2-D weight that can be
/// cut; null for other ops.
graph::ConstantOp splittableWeight(mlir::Operation *op);

/// Heads a MatMul's result (plus a bias) is reshaped into by its only
/// reader, and the size of one head; {0, 0} if it is not.
std::pair<int64_t, int64_t> headsOf(mlir::Operation *op);

/// The fewest heads a projection (a MatMul with a constant weight) is
/// reshaped into: the model's KV heads under grouped-query attention. 0 when
/// no projection is reshaped into heads (not a transformer).
int64_t projectionHeads(mlir::func::FuncOp f);

/// Splits a fused projection (one MatMul with a constant weight, and a
/// bias, read only through column slices that are reshaped into heads, as
/// GPT-2's c_attn) into one MatMul per slice.
void unfuseProjections(mlir::func::FuncOp f);

/// The largest divisor of `heads` not above `limit` (heads 0: `limit`).
int64_t headDivisor(int64_t heads, int64_t limit);

/// The constant 2-D table of an embedding (a Gather along axis 0) or an LM
/// head (a MatMul whose result the function returns, perhaps through a
/// cast), which may be spread by columns over several pipeline stages;
/// null for other ops.
graph::ConstantOp spreadableTable(mlir::Operation *op);

/// The function result `v` becomes, directly or through pointwise ops that
/// are each its only reader (the logits' cast to f32); null if none.
mlir::Value returnedAs(mlir::Value v);

/// Rows [lo, hi) along `axis` of a constant's value (dense data whose
/// elements are whole bytes, a splat, or shape-only); null if it cannot be
/// cut at compile time. `part` names a shape-only piece.
mlir::ElementsAttr sliceElements(mlir::ElementsAttr value, int64_t axis,
                                 int64_t lo, int64_t hi, int64_t part);

} // namespace lpx

#endif
