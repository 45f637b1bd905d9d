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

/// A schema of the ai.lpx domain, version 1, named `name`.
onnx::OpSchema lpxSchema(const char *name) {
  onnx::OpSchema s;
  s.SetName(name).SetDomain(kLpxDomain).SinceVersion(1);
  return s;
}

/// One input X and one output Y of one type T (`types`, `what`), Y shaped
/// and typed as X.
onnx::OpSchema sameTypeUnary(const char *name,
                             const std::vector<std::string> &types,
                             const char *what) {
  onnx::OpSchema s = lpxSchema(name);
  s.Input(0, "X", "", "T")
      .Output(0, "Y", "", "T")
      .TypeConstraint("T", types, what)
      .TypeAndShapeInferenceFunction(onnx::propagateShapeAndTypeFromFirstInput);
  return s;
}

/// BitwiseAnd/Or/Xor-18: two integer operands of one type, broadcast.
onnx::OpSchema bitwiseBinary(const char *name) {
  onnx::OpSchema s = lpxSchema(name);
  s.Input(0, "A", "", "T")
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
  return sameTypeUnary("BitwiseNot", kIntTypes, "integer tensors");
}

/// A value rounded to float8 `to` (a Cast to it, a float8 QuantizeLinear):
/// typed as its float input for ONNX 1.12, which knows no float8; the
/// importer makes it an f8E4M3FN tensor (Float8Activations.cpp).
onnx::OpSchema castFloat8() {
  onnx::OpSchema s = sameTypeUnary(
      "CastFloat8",
      {"tensor(float16)", "tensor(float)", "tensor(bfloat16)",
       "tensor(double)"},
      "float tensors");
  s.Attr("to", "FLOAT8E4M3FN (17) or FLOAT8E5M2 (19)",
         onnx::AttributeProto::INT, int64_t(17));
  return s;
}

/// Resize-18/19 with antialias=1 (linear or cubic): Resize-13's inputs and
/// attributes and its shape inference, plus antialias, which only the
/// weights of the importer's per-axis maps read (ResizeWeights.cpp).
onnx::OpSchema resizeAntialias() {
  const onnx::OpSchema *base = onnx::OpSchemaRegistry::Schema("Resize", 13);
  using A = onnx::AttributeProto;
  onnx::OpSchema s = lpxSchema("Resize");
  s.Attr("mode", "", A::STRING, std::string("nearest"))
      .Attr("coordinate_transformation_mode", "", A::STRING,
            std::string("half_pixel"))
      .Attr("cubic_coeff_a", "", A::FLOAT, -0.75f)
      .Attr("exclude_outside", "", A::INT, int64_t(0))
      .Attr("extrapolation_value", "", A::FLOAT, 0.f)
      .Attr("nearest_mode", "", A::STRING, std::string("round_prefer_floor"))
      .Attr("antialias", "", A::INT, int64_t(0))
      .Input(0, "X", "", "T1")
      .Input(1, "roi", "", "T2", onnx::OpSchema::Optional)
      .Input(2, "scales", "", "tensor(float)", onnx::OpSchema::Optional)
      .Input(3, "sizes", "", "tensor(int64)", onnx::OpSchema::Optional)
      .Output(0, "Y", "", "T1")
      .TypeConstraint("T1", onnx::OpSchema::all_tensor_types(), "any tensor")
      .TypeConstraint("T2", {"tensor(float16)", "tensor(float)",
                             "tensor(double)"},
                      "roi's type")
      .TypeAndShapeInferenceFunction(base->GetTypeAndShapeInferenceFunction());
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
    onnx::RegisterSchema(resizeAntialias());
    onnx::RegisterSchema(castFloat8());
  });
}

} // namespace lpx::onnximport
