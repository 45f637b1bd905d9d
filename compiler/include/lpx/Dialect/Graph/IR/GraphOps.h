//===- GraphOps.h - lpx_graph operations ------------------------*- C++ -*-===//
#ifndef LPX_DIALECT_GRAPH_IR_GRAPHOPS_H
#define LPX_DIALECT_GRAPH_IR_GRAPHOPS_H

#include "lpx/Dialect/Graph/IR/GraphDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "lpx/Dialect/Graph/IR/GraphOps.h.inc"

namespace lpx::graph {
/// Argument attribute (unit) of a function argument that is resident state
/// (a KV cache) rather than a program input: see StateWriteOp.
inline constexpr llvm::StringLiteral kStateAttr = "lpx_graph.state";
/// numpy broadcast of two shapes; failure when they are incompatible.
mlir::FailureOr<llvm::SmallVector<int64_t>>
broadcastShapes(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b);
/// The reductions' shape rule (reduce, reduce_mean, arg_reduce): `in` with
/// the reduced `axes` kept as 1 (keepdims) or dropped. The ops' builders
/// and verifiers use it.
llvm::SmallVector<int64_t> reducedShape(llvm::ArrayRef<int64_t> in,
                                        llvm::ArrayRef<int64_t> axes,
                                        bool keepdims);
/// Whether `from` broadcasts one way (numpy) to exactly `to`.
bool broadcastsTo(llvm::ArrayRef<int64_t> from, llvm::ArrayRef<int64_t> to);
} // namespace lpx::graph

#endif
