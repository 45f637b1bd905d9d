//===- NewTypeWeights.cpp - float8 and int4 weights of opsets 19 and 21 ----===//
//
// ONNX 1.12 knows no FLOAT8E4M3FN / FLOAT8E5M2 (opset 19) nor INT4 / UINT4
// (opset 21) tensor: its checker and inference reject the model. Exporters
// use them for weights, as a DequantizeLinear of a constant. Such a node is
// folded here: the constant's values, less the zero point, times the scale
// (per tensor, per axis or per block), become a float initializer, and the
// weight in the new type is dropped once nothing reads it. A shape-only
// weight becomes a shape-only float weight. The compile's --weights format
// then decides how the chip holds it (fp8e4m3 holds an E4M3 weight exactly).
// Activations in these types (a graph input, a QuantizeLinear or Cast to
// them) are not supported.
//
//===----------------------------------------------------------------------===//
#include "OpsetRewrite.h"

#include "Tensors.h"

#include "lpx/Import/ShapeOnlyWeights.h"
#include "lpx/isa/Float8.h"
#include "llvm/ADT/StringSet.h"

#include <cstring>

namespace lpx::onnximport {

namespace {

using TP = onnx::TensorProto;

constexpr int64_t kMaxElements = int64_t(1) << 34; // 16 Gi weights

/// The element count of dims (1 for a scalar); -1 when a dim is negative
/// or the count is beyond any weight (so the product cannot overflow).
int64_t count(const std::vector<int64_t> &dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0 || (d && n > kMaxElements / d))
      return -1;
    n *= d;
  }
  return n;
}

std::vector<int64_t> dimsOf(const TP &t) {
  return {t.dims().begin(), t.dims().end()};
}

/// The values of a FLOAT8E4M3FN / FLOAT8E5M2 / INT4 / UINT4 tensor (raw_data,
/// or int32_data: one element per entry for float8, two for int4), or an
/// error naming what is wrong.
std::optional<std::vector<float>> newTypeValues(const TP &t,
                                                std::string &error) {
  const int64_t n = count(dimsOf(t));
  const bool nibbles = t.data_type() == kInt4 || t.data_type() == kUInt4;
  std::vector<uint8_t> bytes;
  if (t.has_raw_data()) {
    bytes.assign(t.raw_data().begin(), t.raw_data().end());
  } else {
    for (int32_t v : t.int32_data())
      bytes.push_back(uint8_t(v));
  }
  const size_t want = size_t(nibbles ? (n + 1) / 2 : n);
  if (bytes.size() != want) {
    error = "'" + t.name() + "' has " + std::to_string(bytes.size()) +
            " bytes for " + std::to_string(n) + " elements";
    return std::nullopt;
  }
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    uint8_t b = bytes[size_t(nibbles ? i / 2 : i)];
    switch (t.data_type()) {
    case kFloat8E4M3FN: v[i] = isa::F8E4M3::decode(b); break;
    case kFloat8E5M2: v[i] = isa::F8E5M2::decode(b); break;
    default: { // the low nibble is the first element
      int nib = (i % 2 ? b >> 4 : b) & 0xF;
      v[i] = float(t.data_type() == kInt4 && nib >= 8 ? nib - 16 : nib);
    }
    }
  }
  return v;
}

/// The index into a scale (or zero point) of element `e` of x: the scale is
/// a scalar, one value per index of `axis`, or one per `block` of it.
int64_t scaleIndex(int64_t e, const std::vector<int64_t> &x, int64_t axis,
                   int64_t block, int64_t scaleCount) {
  if (scaleCount == 1)
    return 0;
  int64_t inner = 1;
  for (size_t d = size_t(axis) + 1; d < x.size(); ++d)
    inner *= x[d];
  const int64_t d = x[axis], at = (e / inner) % d;
  if (!block)
    return at;
  const int64_t outer = e / (inner * d), blocks = (d + block - 1) / block;
  return (outer * blocks + at / block) * inner + e % inner;
}

} // namespace

bool isNewWeightType(int32_t t) {
  return t == kFloat8E4M3FN || t == kFloat8E5M2 || t == kInt4 || t == kUInt4;
}

Rewrite dequantizeNewTypeWeight(NodeRewriter &r) {
  const std::string xName = r.input(0);
  const TP *x = r.constant(xName);
  if (!x)
    return r.fail("input '" + xName + "' is of a float8 / int4 type: only "
                  "constant weights of those types are supported "
                  "(dequantized at import), not activations");
  const TP *scale = r.constant(r.input(1));
  if (!scale || scale->data_type() != TP::FLOAT)
    return r.fail("the scale of a float8 / int4 weight must be a float32 "
                  "constant");
  const TP *zero = r.input(2).empty() ? nullptr : r.constant(r.input(2));
  if (!r.input(2).empty() &&
      (!zero || zero->data_type() != x->data_type()))
    return r.fail("the zero point must be a constant of the weight's type");
  const std::vector<int64_t> xd = dimsOf(*x), sd = dimsOf(*scale);
  const int64_t rank = int64_t(xd.size()), n = count(xd), sn = count(sd);
  if (n < 0 || sn < 1)
    return r.fail("the weight or its scale has a negative or too large a "
                  "shape");
  const int64_t block = r.intAttr("block_size", 0);
  if (block < 0)
    return r.fail("block_size must be positive");
  std::vector<int64_t> axis{r.intAttr("axis", 1)};
  if (sn != 1) {
    if (rank == 0)
      return r.fail("a scalar weight takes a scalar scale");
    if (!r.normaliseAxes(axis, rank))
      return Rewrite::Failed;
    const int64_t d = xd[axis[0]];
    std::vector<int64_t> want = {d};
    if (block) { // the last block may be partial
      want = xd;
      want[axis[0]] = d / block + (d % block != 0);
    }
    if (sd != want)
      return r.fail("the scale's shape does not match the weight's axis");
  }
  if (zero && dimsOf(*zero) != sd)
    return r.fail("the zero point's shape is not the scale's");

  onnx::TensorProto *out = r.newInitializer(TP::FLOAT, xd);
  if (isShapeOnlyTensor(*x)) {
    out->set_data_location(TP::EXTERNAL);
    *out->mutable_external_data() = x->external_data();
  } else {
    std::string error;
    auto values = newTypeValues(*x, error);
    std::optional<std::vector<float>> zeros;
    if (values && zero)
      zeros = newTypeValues(*zero, error);
    if (!values || (zero && !zeros))
      return r.fail(error);
    std::vector<float> s(static_cast<size_t>(sn));
    if (scale->has_raw_data() && scale->raw_data().size() == s.size() * 4)
      std::memcpy(s.data(), scale->raw_data().data(), s.size() * 4);
    else if (scale->float_data_size() == sn)
      s.assign(scale->float_data().begin(), scale->float_data().end());
    else
      return r.fail("the scale has no data for its " + std::to_string(sn) +
                    " elements");
    out->mutable_float_data()->Reserve(int(n));
    for (int64_t e = 0; e < n; ++e) {
      int64_t k = scaleIndex(e, xd, sn == 1 ? 0 : axis[0], block, sn);
      out->add_float_data(((*values)[e] - (zeros ? (*zeros)[k] : 0.f)) * s[k]);
    }
  }
  r.add("Identity", {out->name()}, r.node.output(0));
  return Rewrite::Done;
}

void dropUnreadNewTypeWeights(onnx::GraphProto &g) {
  llvm::StringSet<> read;
  for (const auto &n : g.node())
    for (const std::string &in : n.input())
      read.insert(in);
  auto *inits = g.mutable_initializer();
  llvm::StringSet<> dropped;
  for (int i = inits->size() - 1; i >= 0; --i) {
    const TP &t = inits->Get(i);
    if (isNewWeightType(t.data_type()) && !read.contains(t.name())) {
      dropped.insert(t.name());
      inits->DeleteSubrange(i, 1);
    }
  }
  auto *nodes = g.mutable_node();
  for (int i = nodes->size() - 1; i >= 0; --i) {
    const onnx::NodeProto &n = nodes->Get(i);
    if (n.op_type() == "Constant" && n.output_size() == 1 &&
        n.attribute_size() == 1 && n.attribute(0).has_t() &&
        isNewWeightType(n.attribute(0).t().data_type()) &&
        !read.contains(n.output(0))) {
      dropped.insert(n.output(0));
      nodes->DeleteSubrange(i, 1);
    }
  }
  for (auto *list : {g.mutable_input(), g.mutable_value_info()})
    for (int i = list->size() - 1; i >= 0; --i)
      if (dropped.contains(list->Get(i).name()))
        list->DeleteSubrange(i, 1);
}

} // namespace lpx::onnximport
