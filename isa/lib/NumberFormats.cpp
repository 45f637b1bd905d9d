//===- NumberFormats.cpp - Format names to element types -------------------===//
#include "lpx/isa/NumberFormats.h"

using namespace lpx::isa;

std::optional<DType> lpx::isa::floatFormatType(std::string_view name) {
  if (name == "fp32") return DType::F32;
  if (name == "fp16") return DType::F16;
  if (name == "bf16") return DType::BF16;
  if (name == "fp8e4m3") return DType::F8E4M3;
  if (name == "fp8e5m2") return DType::F8E5M2;
  return std::nullopt;
}

bool lpx::isa::isRecordableFormat(std::string_view name, bool weights) {
  return name.empty() || floatFormatType(name) ||
         (weights && name == "int8");
}
