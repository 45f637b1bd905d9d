//===- Tensors.h - ONNX tensors and element types ---------------*- C++ -*-===//
//
// Decoding of onnx::TensorProto payloads (raw_data or the typed fields) into
// little-endian bytes, and the mapping from ONNX data types to the MLIR
// element types the rest of the compiler understands (see dtypeOf in
// Target/ISABridge.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef LPX_LIB_IMPORT_ONNX_TENSORS_H
#define LPX_LIB_IMPORT_ONNX_TENSORS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/Error.h"

#include "onnx/onnx_pb.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lpx::onnximport {

/// ONNX data types newer than ONNX 1.12's enum, which stops at BFLOAT16
/// (16): float8 at opset 19, int4 at 21, float4 at 23.
inline constexpr int32_t kFloat8E4M3FN = 17, kFloat8E4M3FNUZ = 18,
                         kFloat8E5M2 = 19, kFloat8E5M2FNUZ = 20, kUInt4 = 21,
                         kInt4 = 22, kFloat4E2M1 = 23;

/// The ONNX name of a data type ("FLOAT", "STRING", ...).
std::string dataTypeName(int32_t onnxType);

/// The MLIR element type of an ONNX data type; an error "element type X is
/// not supported" for strings, complex numbers and anything unknown.
llvm::Expected<mlir::Type> elementTypeOf(mlir::MLIRContext &ctx,
                                         int32_t onnxType);

/// A tensor's elements as little-endian bytes (bool: one byte per element):
/// a view of the TensorProto's raw_data (`borrowed`, no copy, which matters
/// for weights) or, when that is null, `owned`. The view of `owned` is made
/// on each call because a moved TensorBytes moves a short string's bytes.
struct TensorBytes {
  int32_t dataType = 0;
  std::vector<int64_t> shape;
  std::string owned;
  llvm::StringRef borrowed;
  llvm::StringRef bytes() const {
    return borrowed.data() ? borrowed : llvm::StringRef(owned);
  }
  int64_t numElements() const;
};

/// Decodes raw_data or the typed field of `t`; the byte count or value count
/// must match the shape. External data must already be resolved.
llvm::Expected<TensorBytes> decodeTensor(const onnx::TensorProto &t);

/// The value as an attribute of type tensor<shape x elementTypeOf(dataType)>.
llvm::Expected<mlir::DenseElementsAttr> toElementsAttr(mlir::MLIRContext &ctx,
                                                       const TensorBytes &t);

/// The value as a TensorProto (raw_data), the inverse of toElementsAttr.
llvm::Expected<onnx::TensorProto> toTensorProto(mlir::DenseElementsAttr attr);

/// Integer (or bool) elements widened to int64, for shape-like operands.
/// The values-free constant of a shape-only initializer (isShapeOnlyTensor):
/// its dims and element type checked, no data read.
llvm::Expected<mlir::ElementsAttr> shapeOnlyAttr(mlir::MLIRContext &ctx,
                                                 const onnx::TensorProto &t);

llvm::Expected<std::vector<int64_t>> toInt64s(const TensorBytes &t);

/// What product() gives for a shape whose count an int64 cannot hold.
inline constexpr int64_t kTooManyElements = INT64_MAX;

/// The number of elements of a static shape (1 for a scalar), or
/// kTooManyElements when the count overflows.
int64_t product(llvm::ArrayRef<int64_t> dims);

/// "2x3" or "scalar", for messages.
std::string shapeString(llvm::ArrayRef<int64_t> shape);

} // namespace lpx::onnximport

#endif
