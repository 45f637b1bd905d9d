//===- InferenceGuards.h - Checks before ONNX 1.12's unchecked inference -*- C++ -*-===//
//
// Some of ONNX 1.12's shape-inference functions index a shape or vector
// without checking it against the rank: Conv's reads a kernel dim per
// weight dim past the input's spatial dims. Wrapped here, each such
// function first checks what it trusts, on the types inference has reached
// (inferred ones included), and fails inference with a message instead.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_LIB_IMPORT_ONNX_INFERENCEGUARDS_H
#define LPX_LIB_IMPORT_ONNX_INFERENCEGUARDS_H

namespace lpx::onnximport {

/// Wraps the unchecked inference functions of every opset's schema, once.
void installInferenceGuards();

} // namespace lpx::onnximport

#endif
