//===- QdqFusion.h - QDQ chains into QLinear ops ----------------*- C++ -*-===//
#ifndef LPX_LIB_IMPORT_ONNX_QDQFUSION_H
#define LPX_LIB_IMPORT_ONNX_QDQFUSION_H

#include "onnx/onnx_pb.h"

namespace lpx::onnximport {

/// Rewrites each DequantizeLinear -> MatMul / Conv / Gemm -> QuantizeLinear
/// chain that fits exactly into QLinearMatMul / QLinearConv (what
/// onnxruntime runs for it; a Gemm with B^T as a 1x1 QLinearConv) and drops the DequantizeLinear nodes nothing
/// reads any more. Returns the number of chains fused.
unsigned fuseQdqChains(onnx::GraphProto &g);

} // namespace lpx::onnximport

#endif
