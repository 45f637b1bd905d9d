//===- ChangedOpRewrites.cpp - Newer forms of opset-17 ops ----------------===//
//
// Each rewrite turns one node of a schema newer than 17 into the opset-17
// form of the same op, checking what ONNX 1.12's checker cannot: the new
// inputs and attributes. A use the opset-17 form cannot express fails with
// the reason.
//
//===----------------------------------------------------------------------===//
#include "OpsetRewrite.h"

#include "LpxSchemas.h"
#include "Tensors.h"

#include <algorithm>
#include <cmath>

namespace lpx::onnximport {

namespace {

void dropAttr(onnx::NodeProto &n, const std::string &name) {
  auto *attrs = n.mutable_attribute();
  for (int i = attrs->size() - 1; i >= 0; --i)
    if (attrs->Get(i).name() == name)
      attrs->DeleteSubrange(i, 1);
}

/// Drops empty optional inputs at the end.
void trimInputs(onnx::NodeProto &n) {
  while (n.input_size() && n.input(n.input_size() - 1).empty())
    n.mutable_input()->RemoveLast();
}

bool isUnsupportedNewType(int64_t t) {
  return t >= kFloat8E4M3FN && t <= kFloat4E2M1;
}

} // namespace

Rewrite rewriteReduce(NodeRewriter &r) {
  std::vector<int64_t> axes;
  if (!r.input(1).empty()) {
    auto v = r.constInts(1);
    if (!v)
      return Rewrite::Failed;
    axes = *v;
  }
  bool noop = r.intAttr("noop_with_empty_axes", 0) != 0;
  if (r.attr("axes"))
    return r.fail("axes is an input since opset 18, not an attribute");
  if (axes.empty() && noop) {
    r.add("Identity", {r.input(0)}, r.node.output(0));
    return Rewrite::Done;
  }
  onnx::NodeProto &n = r.keep();
  n.mutable_input()->DeleteSubrange(1, n.input_size() - 1);
  dropAttr(n, "noop_with_empty_axes");
  if (!axes.empty())
    r.setInts(n, "axes", axes);
  return Rewrite::Done;
}

/// Pad-19's wrap mode, which the opset-17 Pad lacks. Negative pads crop
/// first (as the reference and onnxruntime do); then along an axis of length
/// d the output's position i reads x[(i - begin) mod d]: the run of positions
/// from (-begin mod d), cut where it crosses a copy of x, is a Concat of
/// Slices of x (whole copies as x itself). Axes are padded one after
/// another, so corners wrap on both.
Rewrite wrapPad(NodeRewriter &r, const std::vector<int64_t> &dims,
                const std::vector<int64_t> &pads) {
  constexpr int64_t kMaxPieces = 1024; // pads of ~1000 copies of the axis
  const int64_t rank = int64_t(dims.size());
  std::string v = r.input(0);
  auto slice = [&](const std::string &of, int64_t lo, int64_t hi, int64_t a) {
    return r.add("Slice", {of, r.ints({lo}), r.ints({hi}), r.ints({a})});
  };
  for (int64_t a = 0; a < rank; ++a) {
    const int64_t given = pads[a], givenEnd = pads[rank + a];
    constexpr int64_t kMaxPad = int64_t(1) << 40; // keeps the sums in range
    auto beyond = [&](int64_t p) { return p < -kMaxPad || p > kMaxPad; };
    if (beyond(given) || beyond(givenEnd) || dims[a] > kMaxPad)
      return r.fail("mode 'wrap': the pads of axis " + std::to_string(a) +
                    " (" + std::to_string(given) + ", " +
                    std::to_string(givenEnd) + ") are beyond any tensor");
    const int64_t cropLo = std::max<int64_t>(0, -given);
    const int64_t cropHi = dims[a] - std::max<int64_t>(0, -givenEnd);
    const int64_t d = cropHi - cropLo;
    const int64_t begin = std::max<int64_t>(given, 0);
    const int64_t end = std::max<int64_t>(givenEnd, 0);
    if (d < 0 || (d == 0 && begin + end > 0)) // nothing left to wrap
      return r.fail("mode 'wrap': axis " + std::to_string(a) + " of length " +
                    std::to_string(dims[a]) + " cannot take pads " +
                    std::to_string(given) + " and " +
                    std::to_string(givenEnd));
    if (d != dims[a])
      v = slice(v, cropLo, cropHi, a);
    if (begin == 0 && end == 0)
      continue;
    const int64_t len = begin + d + end;
    const int64_t start = (d - begin % d) % d;
    if ((start + len) / d + 1 > kMaxPieces)
      return r.fail("mode 'wrap': pads of axis " + std::to_string(a) +
                    " repeat it more than " + std::to_string(kMaxPieces) +
                    " times");
    std::vector<std::string> pieces;
    for (int64_t lo = start; lo < start + len;) {
      const int64_t copy = lo / d;
      const int64_t hi = std::min(start + len, (copy + 1) * d);
      bool whole = lo == copy * d && hi == (copy + 1) * d;
      pieces.push_back(whole ? v : slice(v, lo - copy * d, hi - copy * d, a));
      lo = hi;
    }
    v = r.add("Concat", pieces);
    r.setInt(r.last(), "axis", a);
  }
  if (v == r.input(0)) // no pad at all
    r.add("Identity", {v}, r.node.output(0));
  else // v is the last node's: it gives the node's output
    r.last().set_output(0, r.node.output(0));
  return Rewrite::Done;
}

Rewrite rewritePad(NodeRewriter &r) {
  std::string mode = r.stringAttr("mode", "constant");
  const bool wrap = mode == "wrap";
  if (wrap && r.version < 19)
    return r.fail("mode 'wrap' is Pad-19's");
  if (r.input(3).empty() && !wrap) {
    trimInputs(r.keep());
    return Rewrite::Done;
  }
  auto pads = r.constInts(1);
  if (!pads)
    return Rewrite::Failed;
  auto dims = r.dims(r.input(0));
  if (!dims)
    return Rewrite::NeedTypes;
  int64_t rank = int64_t(dims->size());
  std::vector<int64_t> axes(rank);
  for (int64_t a = 0; a < rank; ++a)
    axes[a] = a;
  if (!r.input(3).empty()) {
    auto given = r.constInts(3);
    if (!given)
      return Rewrite::Failed;
    axes = *given;
  }
  if (!r.normaliseAxes(axes, rank))
    return Rewrite::Failed;
  size_t k = axes.size();
  if (pads->size() != 2 * k)
    return r.fail("pads has " + std::to_string(pads->size()) +
                  " entries for " + std::to_string(k) + " axes (expected " +
                  std::to_string(2 * k) + ")");
  std::vector<int64_t> full(2 * rank, 0);
  for (size_t i = 0; i < k; ++i) {
    full[axes[i]] = (*pads)[i];
    full[rank + axes[i]] = (*pads)[k + i];
  }
  if (wrap)
    return wrapPad(r, *dims, full);
  onnx::NodeProto &n = r.keep();
  n.mutable_input()->RemoveLast(); // axes
  n.set_input(1, r.ints(full));
  trimInputs(n);
  return Rewrite::Done;
}

Rewrite rewriteSplit(NodeRewriter &r) {
  const onnx::AttributeProto *num = r.attr("num_outputs");
  if (!num) {
    trimInputs(r.keep());
    return Rewrite::Done;
  }
  if (!r.input(1).empty())
    return r.fail("split and num_outputs are both given");
  int64_t parts = num->i();
  if (parts < 1)
    return r.fail("num_outputs must be positive");
  if (parts != r.node.output_size())
    return r.fail("num_outputs is " + std::to_string(parts) +
                  " but the node has " +
                  std::to_string(r.node.output_size()) + " outputs");
  auto dims = r.dims(r.input(0));
  if (!dims)
    return Rewrite::NeedTypes;
  int64_t rank = int64_t(dims->size());
  std::vector<int64_t> axis{r.intAttr("axis", 0)};
  if (!r.normaliseAxes(axis, rank))
    return Rewrite::Failed;
  int64_t dim = (*dims)[axis[0]];
  int64_t chunk = (dim + parts - 1) / parts;
  if (chunk * (parts - 1) > dim)
    return r.fail("a dim of " + std::to_string(dim) + " cannot be split in " +
                  std::to_string(parts) + " parts of " +
                  std::to_string(chunk));
  std::vector<int64_t> sizes(parts, chunk);
  sizes.back() = dim - chunk * (parts - 1);
  onnx::NodeProto &n = r.keep();
  dropAttr(n, "num_outputs");
  if (n.input_size() < 2)
    n.add_input("");
  n.set_input(1, r.ints(sizes));
  return Rewrite::Done;
}

/// Resize-18's antialias only changes linear and cubic downscaling, which
/// Resize-13 cannot express: such a node goes to the ai.lpx domain with the
/// attribute kept (LpxSchemas.cpp).
void keepAntialias(NodeRewriter &r, onnx::NodeProto &n) {
  std::string mode = r.stringAttr("mode", "nearest");
  if (r.intAttr("antialias", 0) == 0 || mode == "nearest")
    return;
  registerLpxSchemas();
  r.setInt(n, "antialias", 1);
  n.set_domain(kLpxDomain);
}

Rewrite rewriteResize(NodeRewriter &r) {
  if (int64_t aa = r.intAttr("antialias", 0); aa != 0 && aa != 1)
    return r.fail("antialias must be 0 or 1, not " + std::to_string(aa));
  if (r.version < 19 && r.stringAttr("coordinate_transformation_mode", "") ==
                            "half_pixel_symmetric")
    return r.fail("coordinate_transformation_mode 'half_pixel_symmetric' "
                  "is Resize-19's");
  std::string policy = r.stringAttr("keep_aspect_ratio_policy", "stretch");
  if (policy != "stretch" && policy != "not_larger" && policy != "not_smaller")
    return r.fail("unknown keep_aspect_ratio_policy '" + policy + "'");
  const onnx::AttributeProto *axesAttr = r.attr("axes");
  bool hasSizes = !r.input(3).empty();
  if (!axesAttr && (policy == "stretch" || !hasSizes)) {
    onnx::NodeProto &n = r.keep();
    dropAttr(n, "antialias");
    dropAttr(n, "keep_aspect_ratio_policy");
    keepAntialias(r, n);
    return Rewrite::Done;
  }
  std::vector<int64_t> dims, axes;
  if (Rewrite s = r.inputAxes(dims, axes); s != Rewrite::Done)
    return s;
  int64_t rank = int64_t(dims.size());
  onnx::NodeProto &n = r.keep();
  dropAttr(n, "antialias");
  dropAttr(n, "axes");
  dropAttr(n, "keep_aspect_ratio_policy");
  while (n.input_size() < 4)
    n.add_input("");
  if (!r.input(1).empty()) {
    auto roi = r.constFloats(1);
    if (!roi)
      return Rewrite::Failed;
    if (roi->size() != 2 * axes.size())
      return r.fail("roi needs 2 entries per axis");
    std::vector<float> full(2 * rank, 0.f);
    for (int64_t i = 0; i < rank; ++i)
      full[rank + i] = 1.f;
    for (size_t i = 0; i < axes.size(); ++i) {
      full[axes[i]] = (*roi)[i];
      full[rank + axes[i]] = (*roi)[axes.size() + i];
    }
    n.set_input(1, r.floats(full, {2 * rank}, 0));
  }
  if (hasSizes) {
    auto sizes = r.constInts(3);
    if (!sizes)
      return Rewrite::Failed;
    if (sizes->size() != axes.size())
      return r.fail("sizes has " + std::to_string(sizes->size()) +
                    " entries for " + std::to_string(axes.size()) + " axes");
    std::vector<int64_t> full = dims;
    if (policy == "stretch") {
      for (size_t i = 0; i < axes.size(); ++i)
        full[axes[i]] = (*sizes)[i];
    } else {
      // One scale for all axes, the smallest (not_larger) or largest.
      double scale = policy == "not_larger" ? INFINITY : 0.0;
      for (size_t i = 0; i < axes.size(); ++i) {
        double s = double((*sizes)[i]) / double(dims[axes[i]]);
        scale = policy == "not_larger" ? std::min(scale, s) : std::max(scale, s);
      }
      for (size_t i = 0; i < axes.size(); ++i)
        full[axes[i]] = int64_t(std::floor(scale * dims[axes[i]] + 0.5));
    }
    n.set_input(3, r.ints(full));
  } else if (!r.input(2).empty()) {
    auto scales = r.constFloats(2);
    if (!scales)
      return Rewrite::Failed;
    if (scales->size() != axes.size())
      return r.fail("scales has " + std::to_string(scales->size()) +
                    " entries for " + std::to_string(axes.size()) + " axes");
    std::vector<float> full(rank, 1.f);
    for (size_t i = 0; i < axes.size(); ++i)
      full[axes[i]] = (*scales)[i];
    n.set_input(2, r.floats(full, {rank}, 0));
  }
  keepAntialias(r, n);
  trimInputs(n);
  return Rewrite::Done;
}

Rewrite rewriteCast(NodeRewriter &r) {
  int64_t to = r.intAttr("to", 0);
  if (isFloat8Type(to))
    return castToFloat8(r, to);
  if (isUnsupportedNewType(to))
    return r.fail("the float8 / int4 / float4 type " + std::to_string(to) +
                  " is not supported");
  dropAttr(r.keep(), "saturate");
  return Rewrite::Done;
}

/// Blocked (De)QuantizeLinear-21: one scale (and zero point) per
/// `block` elements along the axis. The axis is split into [ceil(D /
/// block), block] so that they broadcast as [..., blocks, 1, ...]; Quantize
/// rounds half to even, adds the zero point and saturates, as the spec says.
Rewrite blockedQuantize(NodeRewriter &r, bool quantize, int64_t block) {
  auto xd = r.dims(r.input(0));
  auto sd = r.dims(r.input(1));
  int32_t xt = r.elemType(r.input(0)), st = r.elemType(r.input(1));
  bool hasZero = !r.input(2).empty();
  int32_t zt = hasZero ? r.elemType(r.input(2)) : 0;
  if (!xd || !sd || xt == 0 || st == 0 || (hasZero && zt == 0))
    return Rewrite::NeedTypes;
  int64_t rank = int64_t(xd->size());
  std::vector<int64_t> axis{r.intAttr("axis", 1)};
  if (block < 0 || !r.normaliseAxes(axis, rank))
    return block < 0 ? r.fail("block_size must be positive") : Rewrite::Failed;
  int64_t a = axis[0], dim = (*xd)[a];
  const int64_t blocks = dim / block + (dim % block != 0);
  std::vector<int64_t> want = *xd;
  want[a] = blocks;
  if (*sd != want)
    return r.fail("the scale must have the input's shape with " +
                  std::to_string(blocks) + " blocks along the axis");
  // A partial last block: the axis is padded to whole blocks (edge values,
  // so the padding quantises like its block) and cut back at the end.
  std::string in = r.input(0);
  if (dim % block) {
    std::vector<int64_t> pads(2 * rank, 0);
    pads[rank + a] = blocks * block - dim;
    in = r.add("Pad", {in, r.ints(pads)});
    r.setString(r.last(), "mode", "edge");
  }
  std::vector<int64_t> split(xd->begin(), xd->begin() + a);
  split.insert(split.end(), {blocks, block});
  split.insert(split.end(), xd->begin() + a + 1, xd->end());
  auto perBlock = [&](int i) {
    return r.add("Unsqueeze", {r.input(i), r.ints({a + 1})});
  };
  auto cast = [&](const std::string &v, int32_t to) {
    std::string c = r.add("Cast", {v});
    r.setInt(r.last(), "to", to);
    return c;
  };
  std::string x = r.add("Reshape", {in, r.ints(split)});
  std::string scale = perBlock(1);
  std::string y;
  if (!quantize) {
    std::string v = cast(x, st);
    if (hasZero)
      v = r.add("Sub", {v, cast(perBlock(2), st)});
    y = r.add("Mul", {v, scale});
  } else {
    int64_t qt = hasZero ? zt : r.intAttr("output_dtype", 0);
    if (qt == 0)
      qt = onnx::TensorProto::UINT8;
    if (qt != onnx::TensorProto::INT8 && qt != onnx::TensorProto::UINT8)
      return r.fail("blocked quantisation to other than int8 or uint8 is not "
                    "supported");
    bool s8 = qt == onnx::TensorProto::INT8;
    std::string v = r.add("Round", {r.add("Div", {x, scale})});
    if (hasZero)
      v = r.add("Add", {v, cast(perBlock(2), xt)});
    v = r.add("Clip", {v, r.scalar(s8 ? -128.f : 0.f, xt),
                       r.scalar(s8 ? 127.f : 255.f, xt)});
    y = cast(v, int32_t(qt));
  }
  std::vector<int64_t> padded = *xd;
  padded[a] = blocks * block;
  if (dim % block == 0) {
    r.add("Reshape", {y, r.ints(*xd)}, r.node.output(0));
    return Rewrite::Done;
  }
  r.add("Slice", {r.add("Reshape", {y, r.ints(padded)}), r.ints({0}),
                  r.ints({dim}), r.ints({a})},
        r.node.output(0));
  return Rewrite::Done;
}

Rewrite rewriteQuantize(NodeRewriter &r) {
  bool quantize = r.node.op_type() == "QuantizeLinear";
  if (const onnx::TensorProto *x = r.constant(r.input(0));
      !quantize && ((x && isNewWeightType(x->data_type())) ||
                    isNewWeightType(r.elemType(r.input(0)))))
    return dequantizeNewTypeWeight(r);
  if (float8TypeOf(r, r.node) ||
      (!quantize && producesFloat8(r, r.input(0))))
    return quantizeFloat8(r, quantize);
  int64_t dtype = r.intAttr("output_dtype", 0);
  if (isUnsupportedNewType(dtype))
    return r.fail("output_dtype " + std::to_string(dtype) +
                  " (float8 / int4 / float4) is not supported");
  if (int64_t block = r.intAttr("block_size", 0))
    return blockedQuantize(r, quantize, block);
  std::string zeroPoint;
  if (quantize && dtype != 0 && r.input(2).empty()) {
    // The opset-17 form takes its output type from the zero point.
    if (dtype != onnx::TensorProto::UINT8 && dtype != onnx::TensorProto::INT8)
      return r.fail("output_dtype " + std::to_string(dtype) +
                    " is not supported (uint8 and int8 are)");
    auto scaleDims = r.dims(r.input(1));
    if (!scaleDims)
      return Rewrite::NeedTypes;
    std::vector<float> zeros(1, 0.f);
    int64_t count = 1;
    for (int64_t d : *scaleDims)
      count *= d;
    zeros.assign(count, 0.f);
    zeroPoint = r.floats(zeros, *scaleDims, int32_t(dtype));
  }
  if (!quantize && dtype != 0) {
    int32_t scaleType = r.elemType(r.input(1));
    if (scaleType == 0)
      return Rewrite::NeedTypes;
    if (dtype != scaleType)
      return r.fail("output_dtype other than the scale's type is not "
                    "supported");
  }
  onnx::NodeProto &n = r.keep();
  dropAttr(n, "saturate");
  dropAttr(n, "block_size");
  dropAttr(n, "output_dtype");
  if (!zeroPoint.empty()) {
    while (n.input_size() < 3)
      n.add_input("");
    n.set_input(2, zeroPoint);
  }
  return Rewrite::Done;
}

/// AveragePool-19 with dilations other than 1: a depthwise Conv of the
/// window (opset 17's AveragePool has no dilations). Without padding, or
/// counting it, the weights are 1 / window; otherwise the window sums are
/// divided by each output's count of taps inside the input, a constant.
Rewrite rewriteAveragePool(NodeRewriter &r) {
  const onnx::AttributeProto *d = r.attr("dilations");
  bool dilated = false;
  if (d)
    for (int64_t v : d->ints())
      dilated |= v != 1;
  if (!dilated) {
    dropAttr(r.keep(), "dilations");
    return Rewrite::Done;
  }
  std::string autoPad = r.stringAttr("auto_pad", "NOTSET");
  if (autoPad != "NOTSET" && autoPad != "VALID")
    return r.fail("dilations with auto_pad " + autoPad + " are not supported");
  if (r.intAttr("ceil_mode", 0) != 0)
    return r.fail("dilations with ceil_mode 1 are not supported");
  auto dims = r.dims(r.input(0));
  int32_t t = r.elemType(r.input(0));
  if (!dims || t == 0)
    return Rewrite::NeedTypes;
  const onnx::AttributeProto *ks = r.attr("kernel_shape");
  size_t n = dims->size() < 3 ? 0 : dims->size() - 2;
  if (!ks || n == 0 || size_t(ks->ints_size()) != n ||
      size_t(d->ints_size()) != n)
    return r.fail("kernel_shape and dilations need one entry per spatial dim");
  std::vector<int64_t> kernel(ks->ints().begin(), ks->ints().end());
  std::vector<int64_t> dil(d->ints().begin(), d->ints().end());
  std::vector<int64_t> strides = r.intsAttrOr("strides", 1, n);
  std::vector<int64_t> pads = autoPad == "VALID"
                                  ? std::vector<int64_t>(2 * n, 0)
                                  : r.intsAttrOr("pads", 0, 2 * n);
  int64_t window = 1;
  bool padded = false;
  std::vector<int64_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    if (kernel[i] < 1 || dil[i] < 1 || strides[i] < 1)
      return r.fail("kernel_shape, strides and dilations must be positive");
    window *= kernel[i];
    padded |= pads[i] || pads[n + i];
    int64_t span = dil[i] * (kernel[i] - 1) + 1;
    int64_t extent = (*dims)[2 + i] + pads[i] + pads[n + i];
    if (extent < span)
      return r.fail("the dilated window is larger than the padded input");
    out[i] = (extent - span) / strides[i] + 1;
  }
  bool divideByCount = padded && r.intAttr("count_include_pad", 0) == 0;
  int64_t channels = (*dims)[1];
  std::vector<int64_t> wShape{channels, 1};
  wShape.insert(wShape.end(), kernel.begin(), kernel.end());
  std::vector<float> w(channels * window,
                       divideByCount ? 1.f : 1.f / float(window));
  std::string sum = r.add("Conv", {r.input(0), r.floats(w, wShape, t)},
                          divideByCount ? "" : r.node.output(0));
  onnx::NodeProto &conv = r.last();
  r.setInts(conv, "kernel_shape", kernel);
  r.setInts(conv, "strides", strides);
  r.setInts(conv, "dilations", dil);
  r.setInts(conv, "pads", pads);
  r.setInt(conv, "group", channels);
  if (!divideByCount)
    return Rewrite::Done;
  // Taps inside the input, per output position: a product over the dims.
  std::vector<float> counts(1, 1.f);
  for (size_t i = 0; i < n; ++i) {
    std::vector<float> next;
    for (float c : counts)
      for (int64_t o = 0; o < out[i]; ++o) {
        int64_t inside = 0;
        for (int64_t j = 0; j < kernel[i]; ++j) {
          int64_t at = o * strides[i] - pads[i] + j * dil[i];
          inside += at >= 0 && at < (*dims)[2 + i];
        }
        next.push_back(c * float(inside));
      }
    counts = std::move(next);
  }
  std::vector<int64_t> cShape{1, 1};
  cShape.insert(cShape.end(), out.begin(), out.end());
  r.add("Div", {sum, r.floats(counts, cShape, t)}, r.node.output(0));
  return Rewrite::Done;
}

Rewrite rewriteDFT(NodeRewriter &r) {
  int64_t axis = -2;
  if (!r.input(2).empty()) {
    auto v = r.constInts(2);
    if (!v)
      return Rewrite::Failed;
    if (v->size() != 1)
      return r.fail("axis must be a scalar");
    axis = (*v)[0];
  }
  if (axis < 0) {
    auto dims = r.dims(r.input(0));
    if (!dims)
      return Rewrite::NeedTypes;
    axis += int64_t(dims->size());
  }
  onnx::NodeProto &n = r.keep();
  if (n.input_size() > 2)
    n.mutable_input()->DeleteSubrange(2, n.input_size() - 2);
  trimInputs(n);
  r.setInt(n, "axis", axis);
  return Rewrite::Done;
}

Rewrite rewriteGridSample(NodeRewriter &r) {
  std::string mode = r.stringAttr("mode", "linear");
  std::string old = mode == "linear"  ? "bilinear"
                    : mode == "cubic" ? "bicubic"
                                      : mode;
  if (old != "bilinear" && old != "bicubic" && old != "nearest")
    return r.fail("unknown mode '" + mode + "'");
  if (auto dims = r.dims(r.input(0)); dims && dims->size() != 4)
    return r.fail("only 4-D inputs are supported (opset 16's GridSample)");
  onnx::NodeProto &n = r.keep();
  dropAttr(n, "mode");
  r.setString(n, "mode", old);
  return Rewrite::Done;
}

/// BitwiseAnd/Or/Xor/Not-18 have no opset-17 form: the same node in the
/// ai.lpx domain, whose schema ONNX 1.12 then knows (LpxSchemas.cpp).
Rewrite rewriteBitwise(NodeRewriter &r) {
  registerLpxSchemas();
  r.keep().set_domain(kLpxDomain);
  return Rewrite::Done;
}

} // namespace lpx::onnximport
