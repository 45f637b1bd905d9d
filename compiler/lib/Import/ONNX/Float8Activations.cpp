//===- Float8Activations.cpp - float8 activations of opset 19+ ------------===//
//
// An FP8 export rounds activations to FLOAT8E4M3FN (or E5M2) and back: a
// Cast to it and a Cast from it, or a QuantizeLinear with a float8 zero
// point (or output_dtype) and its DequantizeLinear. ONNX 1.12 knows no
// float8 type, so the rounding becomes lpx's `ai.lpx` CastFloat8, whose
// schema gives its output the input's float type (LpxSchemas.cpp) and which
// imports as a cast to f8E4M3FN or f8E5M2, the chip's FP8 formats: later
// ops see a real f8 tensor. The Cast back and the DequantizeLinear then
// read it as float. The FNUZ formats are not the chip's and are refused.
//
//===----------------------------------------------------------------------===//
#include "OpsetRewrite.h"

#include "LpxSchemas.h"
#include "Tensors.h"

namespace lpx::onnximport {

namespace {
constexpr float kE5M2Max = 57344.f;

/// x / scale with the scale broadcast along `axis` (per axis) or whole.
std::string divideByScale(NodeRewriter &r, const std::string &x,
                          const std::string &scale, bool divide) {
  auto sd = r.dims(scale);
  auto xd = r.dims(x);
  std::string s = scale;
  if (sd && xd && sd->size() == 1 && (*sd)[0] != 1) {
    std::vector<int64_t> axis{r.intAttr("axis", 1)};
    int64_t rank = int64_t(xd->size());
    if (r.normaliseAxes(axis, rank) && axis[0] < rank - 1) {
      std::vector<int64_t> trailing;
      for (int64_t a = 1; a < rank - axis[0]; ++a)
        trailing.push_back(a);
      s = r.add("Unsqueeze", {scale, r.ints(trailing)});
    }
  }
  return r.add(divide ? "Div" : "Mul", {x, s});
}

} // namespace

bool isFloat8Type(int64_t t) {
  return t >= kFloat8E4M3FN && t <= kFloat8E5M2FNUZ;
}

int32_t float8TypeOf(NodeRewriter &r, const onnx::NodeProto &n) {
  if (n.input_size() > 2 && !n.input(2).empty()) {
    int32_t zt = r.elemType(n.input(2));
    if (const onnx::TensorProto *z = r.constant(n.input(2)))
      zt = z->data_type();
    if (isFloat8Type(zt))
      return zt;
  }
  for (const auto &a : n.attribute())
    if (a.name() == "output_dtype" && isFloat8Type(a.i()))
      return int32_t(a.i());
  return 0;
}

namespace {

/// A float8 zero point must be zero: the formats have no offset.
Rewrite checkZeroPoint(NodeRewriter &r) {
  if (r.input(2).empty())
    return Rewrite::Done;
  const onnx::TensorProto *z = r.constant(r.input(2));
  if (!z)
    return r.fail("a float8 zero point must be a constant");
  std::string raw = z->raw_data();
  for (int32_t v : z->int32_data())
    raw.push_back(char(v));
  for (char c : raw)
    if (c != 0 && c != char(0x80)) // +0 and -0
      return r.fail("a float8 zero point must be zero");
  return Rewrite::Done;
}

} // namespace

bool producesFloat8(NodeRewriter &r, const std::string &value) {
  const onnx::NodeProto *p = r.producer(value);
  if (!p)
    return false;
  if (p->domain() == kLpxDomain && p->op_type() == "CastFloat8")
    return true;
  if (p->op_type() == "Cast")
    for (const auto &a : p->attribute())
      if (a.name() == "to")
        return isFloat8Type(a.i());
  return p->op_type() == "QuantizeLinear" && float8TypeOf(r, *p) != 0;
}

/// The rounding of `x` to float8 `to` into the node's output. The chip's
/// E4M3 conversion saturates at +-448 (ONNX's saturate=1) and its E5M2 one
/// overflows to infinity (saturate=0): E5M2's saturation clips first.
Rewrite roundToFloat8(NodeRewriter &r, const std::string &x, int64_t to,
                      bool saturate) {
  if (to != kFloat8E4M3FN && to != kFloat8E5M2)
    return r.fail("float8 type " + std::to_string(to) +
                  " is not one of the chip's FP8 formats (FLOAT8E4M3FN, 17, "
                  "and FLOAT8E5M2, 19)");
  if (to == kFloat8E4M3FN && !saturate)
    return r.fail("saturate=0 is not supported for FLOAT8E4M3FN (the chip "
                  "saturates to +-448)");
  std::string in = x;
  if (to == kFloat8E5M2 && saturate) {
    int32_t t = r.elemType(x) ? r.elemType(x) : onnx::TensorProto::FLOAT;
    in = r.add("Clip", {x, r.scalar(-kE5M2Max, t), r.scalar(kE5M2Max, t)});
  }
  registerLpxSchemas();
  r.add("CastFloat8", {in}, r.node.output(0));
  r.last().set_domain(kLpxDomain);
  r.setInt(r.last(), "to", to);
  return Rewrite::Done;
}

Rewrite castToFloat8(NodeRewriter &r, int64_t to) {
  return roundToFloat8(r, r.input(0), to, r.intAttr("saturate", 1) != 0);
}

Rewrite quantizeFloat8(NodeRewriter &r, bool quantize) {
  int32_t type = float8TypeOf(r, r.node);
  if (!type && !quantize) // a DequantizeLinear of a float8 activation
    type = kFloat8E4M3FN;
  if (r.intAttr("block_size", 0))
    return r.fail("blocked float8 quantisation is not supported");
  if (Rewrite z = checkZeroPoint(r); z != Rewrite::Done)
    return z;
  if (!r.dims(r.input(0)) || !r.dims(r.input(1)))
    return Rewrite::NeedTypes;
  if (quantize)
    return roundToFloat8(r, divideByScale(r, r.input(0), r.input(1), true),
                         type, r.intAttr("saturate", 1) != 0);
  // The float8 value is a float to ONNX (CastFloat8's schema) and an f8
  // tensor to the importer: the Cast widens it to the scale's type.
  int32_t scaleType = r.elemType(r.input(1));
  std::string x = r.add("Cast", {r.input(0)});
  r.setInt(r.last(), "to", scaleType ? scaleType : onnx::TensorProto::FLOAT);
  divideByScale(r, x, r.input(1), false);
  r.last().set_output(0, r.node.output(0));
  return Rewrite::Done;
}

} // namespace lpx::onnximport
