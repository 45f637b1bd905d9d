//===- DType.h - Element types of program buffers ---------------*- C++ -*-===//
//
// Element types use the ONNX TensorProto numbering so that a program buffer's
// type and a test-data tensor's type compare directly, without a table.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ISA_DTYPE_H
#define LPX_ISA_DTYPE_H

#include <cstdint>
#include <optional>
#include <string_view>

namespace lpx::isa {

enum class DType : uint32_t {
  Undefined = 0,
  F32 = 1,
  U8 = 2,
  I8 = 3,
  U16 = 4,
  I16 = 5,
  I32 = 6,
  I64 = 7,
  Bool = 9,
  F16 = 10,
  F64 = 11,
  U32 = 12,
  U64 = 13,
  BF16 = 16,
  F8E4M3 = 17, // ONNX FLOAT8E4M3FN (ONNX 1.14 numbering)
  F8E5M2 = 19, // ONNX FLOAT8E5M2
};

/// Bytes per element, or 0 for a type the chip cannot hold.
unsigned dtypeBytes(DType t);
/// Short lower-case name ("f32", "i64", ...), "?" when unknown.
std::string_view dtypeName(DType t);
/// The DType for an ONNX TensorProto data_type code, if the chip can hold it.
std::optional<DType> dtypeFromOnnx(int32_t code);
bool isFloat(DType t);

} // namespace lpx::isa

#endif
