//===- ControlFlow.h - If, Loop and Scan at compile time --------*- C++ -*-===//
//
// What ControlFlowImporters.cpp (If, and the ops it only reports),
// IfConversion.cpp and LoopScanImporters.cpp (the unrolled loops) share.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_IMPORT_ONNX_CONTROLFLOW_H
#define LPX_IMPORT_ONNX_CONTROLFLOW_H

#include "OpImporters.h"

#include <optional>
#include <string>

namespace lpx::onnximport {

/// The value of a one-element integer or bool constant; none for anything
/// else (absent, other types, more elements).
std::optional<int64_t> scalarValue(const onnx::TensorProto *t);

/// The node's graph attribute `name` (an If's branch, a Loop's or Scan's
/// body); `missing` is the node's error when it has none.
mlir::FailureOr<const onnx::GraphProto *>
graphAttr(NodeContext &n, llvm::StringRef name, const llvm::Twine &missing);

/// Imports `g`'s initializers and nodes in place (a taken If branch, one
/// unrolled Loop or Scan iteration); unnamed nodes are called
/// `prefix<Op>_<index>`. Fails when any node reported a problem.
mlir::LogicalResult importSubgraph(NodeContext &n, const onnx::GraphProto &g,
                                   const std::string &prefix);

/// An If on a run-time condition as both branches and a Where per output
/// (IfConversion.cpp); the reason when it cannot be.
mlir::LogicalResult ifConvert(NodeContext &n, const onnx::GraphProto &thenG,
                              const onnx::GraphProto &elseG);
/// A Loop with a compile-time trip count and condition, unrolled; `body`
/// is its body attribute.
mlir::LogicalResult importLoop(NodeContext &n, const onnx::GraphProto &body);
/// A Scan (static sequence length), unrolled.
mlir::LogicalResult importScan(NodeContext &n, const onnx::GraphProto &body);

} // namespace lpx::onnximport

#endif
