//===- InferenceGuards.cpp - Checks before ONNX 1.12's unchecked inference -===//
#include "InferenceGuards.h"

#include "lpx/Import/OpsetVersions.h"

#include "onnx/defs/schema.h"
#include "onnx/defs/shape_inference.h"

#include <mutex>
#include <set>
#include <string>

namespace lpx::onnximport {

namespace {

/// The rank of input `i` when inference knows it, else -1.
int knownRank(onnx::InferenceContext &ctx, size_t i) {
  if (i >= ctx.getNumInputs())
    return -1;
  const onnx::TypeProto *t = ctx.getInputType(i);
  if (!t || !t->has_tensor_type() || !t->tensor_type().has_shape())
    return -1;
  return t->tensor_type().shape().dim_size();
}

/// Conv-family inference (convPoolShapeInference, and ConvTranspose's)
/// takes a kernel dim from each weight dim past the second and indexes the
/// input's dilations, strides and pads with it.
void checkWeightRank(onnx::InferenceContext &ctx, size_t data, size_t weight) {
  int x = knownRank(ctx, data), w = knownRank(ctx, weight);
  if (x >= 0 && w >= 0 && x != w)
    fail_shape_inference("the weight has rank ", w,
                         " but the input has rank ", x);
}

/// Replaces the inference function of each version of `op` with one that
/// runs `check` first.
template <typename Check>
void guard(const char *op, Check check) {
  std::set<const onnx::OpSchema *> seen;
  for (int v = 1; v <= kCheckedOpset; ++v) {
    const onnx::OpSchema *s = onnx::OpSchemaRegistry::Schema(op, v);
    if (!s || !seen.insert(s).second ||
        !s->has_type_and_shape_inference_function())
      continue;
    onnx::InferenceFunction inner = s->GetTypeAndShapeInferenceFunction();
    // The registry hands out const schemas; ONNX 1.12 offers no other way
    // to change a registered op's inference.
    const_cast<onnx::OpSchema *>(s)->TypeAndShapeInferenceFunction(
        [inner, check](onnx::InferenceContext &ctx) {
          check(ctx);
          inner(ctx);
        });
  }
}

} // namespace

void installInferenceGuards() {
  static std::once_flag once;
  std::call_once(once, [] {
    auto xw = [](size_t data, size_t weight) {
      return [=](onnx::InferenceContext &ctx) {
        checkWeightRank(ctx, data, weight);
      };
    };
    guard("Conv", xw(0, 1));
    guard("ConvInteger", xw(0, 1));
    guard("ConvTranspose", xw(0, 1));
    guard("QLinearConv", xw(0, 3));
  });
}

} // namespace lpx::onnximport
