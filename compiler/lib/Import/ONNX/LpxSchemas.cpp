//===- LpxSchemas.cpp - ONNX schemas for ops without an opset-17 form -----===//
#include "LpxSchemas.h"

#include "onnx/defs/schema.h"
#include "onnx/defs/shape_inference.h"

#include <mutex>

namespace lpx::onnximport {

namespace {
const std::vector<std::string> kIntTypes = {
    "tensor(int8)",   "tensor(int16)",  "tensor(int32)",  "tensor(int64)",
    "tensor(uint8)",  "tensor(uint16)", "tensor(uint32)", "tensor(uint64)"};

/// BitwiseAnd/Or/Xor-18: two integer operands of one type, broadcast.
onnx::OpSchema bitwiseBinary(const char *name) {
  onnx::OpSchema s;
  s.SetName(name)
      .SetDomain(kLpxDomain)
      .SinceVersion(1)
      .Input(0, "A", "", "T")
      .Input(1, "B", "", "T")
      .Output(0, "C", "", "T")
      .TypeConstraint("T", kIntTypes, "integer tensors")
      .TypeAndShapeInferenceFunction([](onnx::InferenceContext &ctx) {
        onnx::propagateElemTypeFromInputToOutput(ctx, 0, 0);
        if (onnx::hasNInputShapes(ctx, 2))
          onnx::bidirectionalBroadcastShapeInference(
              ctx.getInputType(0)->tensor_type().shape(),
              ctx.getInputType(1)->tensor_type().shape(),
              *ctx.getOutputType(0)->mutable_tensor_type()->mutable_shape());
      });
  return s;
}

onnx::OpSchema bitwiseNot() {
  onnx::OpSchema s;
  s.SetName("BitwiseNot")
      .SetDomain(kLpxDomain)
      .SinceVersion(1)
      .Input(0, "X", "", "T")
      .Output(0, "Y", "", "T")
      .TypeConstraint("T", kIntTypes, "integer tensors")
      .TypeAndShapeInferenceFunction(onnx::propagateShapeAndTypeFromFirstInput);
  return s;
}
} // namespace

void registerLpxSchemas() {
  static std::once_flag once;
  std::call_once(once, [] {
    onnx::OpSchemaRegistry::DomainToVersionRange::Instance()
        .AddDomainToVersion(kLpxDomain, 1, 1);
    for (const char *op : {"BitwiseAnd", "BitwiseOr", "BitwiseXor"})
      onnx::RegisterSchema(bitwiseBinary(op));
    onnx::RegisterSchema(bitwiseNot());
  });
}

} // namespace lpx::onnximport
