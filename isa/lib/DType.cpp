//===- DType.cpp - Element types of program buffers -----------------------===//
#include "lpx/isa/DType.h"

namespace lpx::isa {

unsigned dtypeBytes(DType t) {
  switch (t) {
  case DType::U8:
  case DType::I8:
  case DType::Bool:
  case DType::F8E4M3:
  case DType::F8E5M2:
    return 1;
  case DType::U16:
  case DType::I16:
  case DType::F16:
  case DType::BF16:
    return 2;
  case DType::F32:
  case DType::I32:
  case DType::U32:
    return 4;
  case DType::I64:
  case DType::U64:
  case DType::F64:
    return 8;
  case DType::Undefined:
    return 0;
  }
  return 0;
}

std::string_view dtypeName(DType t) {
  switch (t) {
  case DType::F32: return "f32";
  case DType::U8: return "u8";
  case DType::I8: return "i8";
  case DType::U16: return "u16";
  case DType::I16: return "i16";
  case DType::I32: return "i32";
  case DType::I64: return "i64";
  case DType::Bool: return "bool";
  case DType::F16: return "f16";
  case DType::F64: return "f64";
  case DType::U32: return "u32";
  case DType::U64: return "u64";
  case DType::BF16: return "bf16";
  case DType::F8E4M3: return "f8e4m3";
  case DType::F8E5M2: return "f8e5m2";
  case DType::Undefined: return "?";
  }
  return "?";
}

std::optional<DType> dtypeFromOnnx(int32_t code) {
  DType t = static_cast<DType>(code);
  if (code <= 0 || dtypeBytes(t) == 0)
    return std::nullopt;
  return t;
}

bool isFloat(DType t) {
  return t == DType::F32 || t == DType::F16 || t == DType::F64 ||
         t == DType::BF16 || t == DType::F8E4M3 || t == DType::F8E5M2;
}

} // namespace lpx::isa
