//===- ONNXImporter.h - ONNX model to lpx_graph IR --------------*- C++ -*-===//
//
// The only entry point of the importer. It keeps protobuf and ONNX headers out
// of its users: callers see MLIR types and plain standard containers.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_IMPORT_ONNXIMPORTER_H
#define LPX_IMPORT_ONNXIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace lpx {

struct ImportOptions {
  /// `--input-shape name=1x128`: pins the dims of a graph input. Replaces
  /// symbolic or unknown dims; must have the model's rank; a different value
  /// for a fixed dim is an error.
  std::map<std::string, std::vector<int64_t>> inputShapes;
  /// Graph input name -> path of a TensorProto `.pb` file whose value is
  /// folded in as an initializer (the input stops being a function argument).
  /// ONNX node tests give shape operands such as Reshape's `shape` as inputs.
  std::map<std::string, std::string> constInputs;
};

/// Parses an ONNX model file and builds a module holding one `func.func
/// @main` of lpx_graph ops with static shapes.
///
/// Arguments are the graph inputs that are not initializers, in graph order,
/// each with the argument attribute `lpx_graph.name`; results are the graph
/// outputs in order, named by the function attribute `lpx_graph.outputs`.
/// Every op is located at NameLoc(ONNX node name, or "<op_type>_<index>").
///
/// Every problem is reported as an MLIR diagnostic on `ctx` and failure is
/// returned; all unsupported nodes are reported, not only the first.
mlir::FailureOr<mlir::OwningOpRef<mlir::ModuleOp>>
importOnnxFile(mlir::MLIRContext &ctx, llvm::StringRef path,
               const ImportOptions &opts);

/// The op types (default ONNX domain) this importer handles, sorted, for
/// coverage listings. Ops it recognises only to say why they cannot be
/// compiled (data-dependent output shapes) are not listed.
std::vector<std::string> supportedOnnxOps();

} // namespace lpx

#endif // LPX_IMPORT_ONNXIMPORTER_H
