//===- ShapeResolution.h - Static types for an ONNX graph -------*- C++ -*-===//
//
// Turns the graph's interface into static types before any op is imported:
// folds constant inputs, pins input dims from --input-shape, runs ONNX shape
// inference, and converts ONNX value types to ranked MLIR tensor types.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_LIB_IMPORT_ONNX_SHAPERESOLUTION_H
#define LPX_LIB_IMPORT_ONNX_SHAPERESOLUTION_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "mlir/Support/LogicalResult.h"

#include "onnx/onnx_pb.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lpx::onnximport {

/// Moves each named graph input into the initializers, with the value read
/// from its TensorProto file. Type and fixed dims must match the input's.
mlir::LogicalResult
foldConstInputs(onnx::ModelProto &model,
                const std::map<std::string, std::string> &constInputs,
                mlir::Location fileLoc);

/// Pins graph input dims (`--input-shape name=dims`).
mlir::LogicalResult
applyInputShapes(onnx::ModelProto &model,
                 const std::map<std::string, std::vector<int64_t>> &shapes,
                 mlir::Location fileLoc);

/// ONNX shape inference (strict mode, data propagation); its exceptions
/// become one error with ONNX's message. A model that inference rejects at
/// its own old opset is converted by ONNX's version converter to a newer
/// one (`opset` is updated) when inference accepts it there.
mlir::LogicalResult runShapeInference(onnx::ModelProto &model, int64_t &opset,
                                      mlir::Location fileLoc);

/// What would make ONNX 1.12's inference of a default-domain node at
/// `opset` unsafe (its inference functions trust the schema): a schema
/// violation, Scan counts that do not fit, an axis beyond 32 bits. Empty
/// when there is none.
std::string nodeInferenceProblem(const onnx::NodeProto &node, int64_t opset);

/// The static type of a graph input; reports an unknown element type or
/// unknown dims (pointing at --input-shape).
mlir::FailureOr<mlir::RankedTensorType>
graphInputType(mlir::MLIRContext &ctx, const onnx::ValueInfoProto &vi,
               mlir::Location loc);

/// The type ONNX knows for a value, when it is a tensor with a supported
/// element type and every dim fixed.
std::optional<mlir::RankedTensorType>
knownStaticType(mlir::MLIRContext &ctx, const onnx::TypeProto &type);

} // namespace lpx::onnximport

#endif
