//===- ConstantFolding.h - Nodes evaluated at compile time ------*- C++ -*-===//
#ifndef LPX_LIB_IMPORT_ONNX_CONSTANTFOLDING_H
#define LPX_LIB_IMPORT_ONNX_CONSTANTFOLDING_H

#include "ImportContext.h"

namespace lpx::onnximport {

/// Every present input of the node is a compile-time constant (and there is
/// at least one).
bool allInputsConstant(const NodeContext &n);

/// Runs `importer` on the node, folds the ops it made whose operands are
/// all constants (their fold() methods) and binds each output that folded
/// as a compile-time constant.
mlir::LogicalResult importFolding(NodeContext &n, OpImporter importer);

/// Erases the constants no op reads (those materialised only to be folded).
void eraseUnusedConstants(mlir::Block &body);

/// Why `value` is not known at compile time, for an operand that must be:
/// the first node on its chain that runs at run time, and whether pinning
/// a graph input's value would fold it.
std::string runtimeSource(const GraphState &st, llvm::StringRef value);

} // namespace lpx::onnximport

#endif
