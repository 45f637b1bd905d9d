//===- LpxSchemas.h - ONNX schemas for ops without an opset-17 form -*- C++ -*-===//
//
// Ops of opsets 18+ that no opset-17 op can express (the integer Bitwise*,
// Resize with antialias) are moved to lpx's own domain, whose schemas registered here give ONNX
// 1.12's checker and shape inference what the newer schemas would.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_LIB_IMPORT_ONNX_LPXSCHEMAS_H
#define LPX_LIB_IMPORT_ONNX_LPXSCHEMAS_H

namespace lpx::onnximport {

inline constexpr const char *kLpxDomain = "ai.lpx";

/// Registers the ai.lpx schemas (version 1) with ONNX, once.
void registerLpxSchemas();

} // namespace lpx::onnximport

#endif
