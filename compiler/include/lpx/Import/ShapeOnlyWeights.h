//===- ShapeOnlyWeights.h - The ONNX marker of a weight without data -*- C++ -*-===//
//
// An ONNX initializer whose data lives in "external data" at the location
// kShapeOnlyLocation has no values anywhere: it gives a dtype and dims only.
// lpx compiles, partitions and simulates such a model exactly as if the data
// were there (docs/architecture.md, "Shape-only weights"). The marker file is
// never opened; writers put an empty file of that name beside the model so
// that onnx.checker, which wants every location to exist, accepts the model.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_IMPORT_SHAPEONLYWEIGHTS_H
#define LPX_IMPORT_SHAPEONLYWEIGHTS_H

#include "onnx/onnx_pb.h"

namespace lpx {

inline constexpr const char kShapeOnlyLocation[] = "lpx-shape-only";

/// True when `t` is external data at the shape-only marker.
inline bool isShapeOnlyTensor(const onnx::TensorProto &t) {
  if (t.data_location() != onnx::TensorProto::EXTERNAL)
    return false;
  for (const auto &kv : t.external_data())
    if (kv.key() == "location")
      return kv.value() == kShapeOnlyLocation;
  return false;
}

} // namespace lpx

#endif
