//===- NewOpDecompositions.cpp - Ops new since opset 17 as opset-17 ops ---===//
//
// Gelu, Mish, GroupNormalization, RMSNormalization, RotaryEmbedding,
// CenterCropPad and Col2Im as the
// opset-17 ops their ONNX definitions are written in (the function bodies of
// the ONNX schemas), so each part imports to the graph ops it already has.
// Where opset-17 exporters write the op in primitives (Gelu, RMSNormalization,
// RotaryEmbedding), the decomposition is that form, so both exports of a
// model compile to the same program. Attention is in
// AttentionDecomposition.cpp.
//
//===----------------------------------------------------------------------===//
#include "OpsetRewrite.h"

#include <cmath>

namespace lpx::onnximport {

namespace {
constexpr int32_t kFloat = onnx::TensorProto::FLOAT;

bool isFloatType(int32_t t) {
  return t == onnx::TensorProto::FLOAT || t == onnx::TensorProto::FLOAT16 ||
         t == onnx::TensorProto::BFLOAT16 || t == onnx::TensorProto::DOUBLE;
}

/// The element type of input `i`, which must be a float type.
Rewrite floatInput(NodeRewriter &r, int i, int32_t &type) {
  type = r.elemType(r.input(i));
  if (type == 0)
    return Rewrite::NeedTypes;
  if (!isFloatType(type))
    return r.fail("input '" + r.input(i) + "' must be a float tensor");
  return Rewrite::Done;
}

std::string reduceMean(NodeRewriter &r, const std::string &x,
                       const std::vector<int64_t> &axes) {
  std::string m = r.add("ReduceMean", {x});
  r.setInts(r.last(), "axes", axes);
  r.setInt(r.last(), "keepdims", 1);
  return m;
}

std::string cast(NodeRewriter &r, const std::string &x, int32_t to) {
  std::string c = r.add("Cast", {x});
  r.setInt(r.last(), "to", to);
  return c;
}
} // namespace

Rewrite decomposeGelu(NodeRewriter &r) {
  int32_t t;
  if (Rewrite s = floatInput(r, 0, t); s != Rewrite::Done)
    return s;
  std::string approx = r.stringAttr("approximate", "none");
  // In the order GPT-2's exporters write gelu_new (x^3 by Pow, x / 2 after
  // the tanh), so both forms of a model import to the same ops.
  std::string x = r.input(0), inner;
  if (approx == "none") {
    inner = r.add("Erf", {r.add("Mul", {x, r.scalar(float(M_SQRT1_2), t)})});
  } else if (approx == "tanh") {
    // sqrt(2/pi) * (x + 0.044715 x^3)
    std::string cube = r.add("Pow", {x, r.scalar(3.f, t)});
    std::string sum =
        r.add("Add", {x, r.add("Mul", {cube, r.scalar(0.044715f, t)})});
    inner = r.add("Tanh", {r.add(
                              "Mul", {sum, r.scalar(float(std::sqrt(2.0 / M_PI)), t)})});
  } else {
    return r.fail("unknown approximate '" + approx + "'");
  }
  std::string half = r.add("Mul", {x, r.scalar(0.5f, t)});
  std::string onePlus = r.add("Add", {inner, r.scalar(1.f, t)});
  r.add("Mul", {half, onePlus}, r.node.output(0));
  return Rewrite::Done;
}

Rewrite decomposeMish(NodeRewriter &r) {
  std::string x = r.input(0);
  std::string t = r.add("Tanh", {r.add("Softplus", {x})});
  r.add("Mul", {x, t}, r.node.output(0));
  return Rewrite::Done;
}

Rewrite decomposeGroupNormalization(NodeRewriter &r) {
  int32_t t;
  if (Rewrite s = floatInput(r, 0, t); s != Rewrite::Done)
    return s;
  const onnx::AttributeProto *g = r.attr("num_groups");
  if (!g || g->i() < 1)
    return r.fail("num_groups must be given and positive");
  int64_t groups = g->i();
  auto dims = r.dims(r.input(0));
  if (!dims)
    return Rewrite::NeedTypes;
  if (dims->size() < 2)
    return r.fail("input must have rank 2 or more");
  int64_t channels = (*dims)[1];
  if (channels % groups)
    return r.fail("num_groups " + std::to_string(groups) +
                  " does not divide the " + std::to_string(channels) +
                  " channels");
  // Opset 18: scale and bias per group; 21: per channel.
  int64_t perEntry = r.version >= 21 ? channels : groups;
  for (int i : {1, 2}) {
    auto d = r.dims(r.input(i));
    if (d && (d->size() != 1 || (*d)[0] != perEntry))
      return r.fail("input '" + r.input(i) + "' must have " +
                    std::to_string(perEntry) + " entries (one per " +
                    (r.version >= 21 ? "channel" : "group") + ")");
  }
  float eps = r.floatAttr("epsilon", 1e-5f);
  // stash_type (21, default float32): statistics in float32.
  bool stash = t != kFloat && r.intAttr("stash_type", 1) == 1;
  int32_t ct = stash ? kFloat : t;
  std::string x = stash ? cast(r, r.input(0), kFloat) : r.input(0);
  std::string grouped = r.add("Reshape", {x, r.ints({0, groups, -1})});
  std::string mean = reduceMean(r, grouped, {2});
  std::string dev = r.add("Sub", {grouped, mean});
  std::string var = reduceMean(r, r.add("Mul", {dev, dev}), {2});
  std::string sd = r.add("Sqrt", {r.add("Add", {var, r.scalar(eps, ct)})});
  std::string norm = r.add("Div", {dev, sd});
  if (stash)
    norm = cast(r, norm, t);
  std::string scale = r.input(1), bias = r.input(2);
  std::string y;
  if (r.version >= 21) {
    std::string perChannel =
        r.add("Reshape", {norm, r.ints({0, channels, -1})});
    std::string s = r.add("Reshape", {scale, r.ints({channels, 1})});
    std::string b = r.add("Reshape", {bias, r.ints({channels, 1})});
    y = r.add("Add", {r.add("Mul", {perChannel, s}), b});
  } else {
    std::string s = r.add("Reshape", {scale, r.ints({groups, 1})});
    std::string b = r.add("Reshape", {bias, r.ints({groups, 1})});
    y = r.add("Add", {r.add("Mul", {norm, s}), b});
  }
  r.add("Reshape", {y, r.ints(*dims)}, r.node.output(0));
  return Rewrite::Done;
}

Rewrite decomposeRMSNormalization(NodeRewriter &r) {
  int32_t t;
  if (Rewrite s = floatInput(r, 0, t); s != Rewrite::Done)
    return s;
  int64_t axis = r.intAttr("axis", -1);
  std::vector<int64_t> axes;
  if (axis < 0) {
    for (int64_t a = axis; a < 0; ++a)
      axes.push_back(a);
  } else {
    auto dims = r.dims(r.input(0));
    if (!dims)
      return Rewrite::NeedTypes;
    for (int64_t a = axis; a < int64_t(dims->size()); ++a)
      axes.push_back(a);
  }
  if (axes.empty())
    return r.fail("axis " + std::to_string(axis) + " is out of range");
  float eps = r.floatAttr("epsilon", 1e-5f);
  bool stash = t != kFloat && r.intAttr("stash_type", 1) == 1;
  int32_t ct = stash ? kFloat : t;
  std::string x = stash ? cast(r, r.input(0), kFloat) : r.input(0);
  std::string meanSquare = reduceMean(r, r.add("Mul", {x, x}), axes);
  std::string rms =
      r.add("Sqrt", {r.add("Add", {meanSquare, r.scalar(eps, ct)})});
  std::string norm = r.add("Div", {x, rms});
  int32_t st = r.elemType(r.input(1));
  if (st != 0 && st != ct)
    norm = cast(r, norm, st);
  r.add("Mul", {norm, r.input(1)}, r.node.output(0));
  return Rewrite::Done;
}

/// Each axis cropped (Slice) or zero-padded (Pad) to its target about the
/// centre, the odd element at the end, as the ONNX reference does.
Rewrite decomposeCenterCropPad(NodeRewriter &r) {
  auto target = r.constInts(1);
  if (!target)
    return Rewrite::Failed;
  std::vector<int64_t> dims, axes;
  if (Rewrite s = r.inputAxes(dims, axes); s != Rewrite::Done)
    return s;
  int64_t rank = int64_t(dims.size());
  if (target->size() != axes.size())
    return r.fail("shape has " + std::to_string(target->size()) +
                  " entries for " + std::to_string(axes.size()) + " axes");
  std::vector<int64_t> starts, ends, cropAxes, pads(2 * rank, 0);
  bool padded = false;
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t a = axes[i];
    int64_t dim = dims[a], want = (*target)[i];
    if (want < 0)
      return r.fail("shape entries must not be negative");
    if (want < dim) {
      cropAxes.push_back(a);
      starts.push_back((dim - want) / 2);
      ends.push_back((dim - want) / 2 + want);
    } else if (want > dim) {
      pads[a] = (want - dim) / 2;
      pads[rank + a] = want - dim - pads[a];
      padded = true;
    }
  }
  std::string y = r.input(0);
  const std::string &out = r.node.output(0);
  if (!cropAxes.empty())
    y = r.add("Slice", {y, r.ints(starts), r.ints(ends), r.ints(cropAxes)},
              padded ? "" : out);
  if (padded)
    r.add("Pad", {y, r.ints(pads)}, out);
  if (cropAxes.empty() && !padded)
    r.add("Identity", {y}, out);
  return Rewrite::Done;
}

/// Col2Im-18 is linear: a MatMul of [N, C, B * L] (the blocks' columns) by a
/// constant 0/1 matrix [B * L, H * W] that adds each block element into its
/// image position, so the work runs on the matrix unit.
Rewrite decomposeCol2Im(NodeRewriter &r) {
  auto image = r.constInts(1);
  auto block = r.constInts(2);
  if (!image || !block)
    return Rewrite::Failed;
  auto xd = r.dims(r.input(0));
  int32_t t = r.elemType(r.input(0));
  if (!xd || t == 0)
    return Rewrite::NeedTypes;
  size_t n = image->size();
  if (n == 0 || block->size() != n || xd->size() != 3)
    return r.fail("image_shape and block_shape need one entry per spatial dim "
                  "and the input must be [N, C * prod(block), L]");
  std::vector<int64_t> dil = r.intsAttrOr("dilations", 1, n),
                       stride = r.intsAttrOr("strides", 1, n),
                       pads = r.intsAttrOr("pads", 0, 2 * n);
  int64_t blockSize = 1, pixels = 1, columns = 1;
  std::vector<int64_t> grid(n);
  for (size_t d = 0; d < n; ++d) {
    if ((*image)[d] < 1 || (*block)[d] < 1 || dil[d] < 1 || stride[d] < 1)
      return r.fail("image_shape, block_shape, dilations and strides must be "
                    "positive");
    int64_t span = dil[d] * ((*block)[d] - 1) + 1;
    int64_t extent = (*image)[d] + pads[d] + pads[n + d];
    if (extent < span)
      return r.fail("the block is larger than the padded image");
    grid[d] = (extent - span) / stride[d] + 1;
    blockSize *= (*block)[d];
    pixels *= (*image)[d];
    columns *= grid[d];
  }
  if ((*xd)[1] % blockSize || (*xd)[2] != columns)
    return r.fail("the input is " + std::to_string((*xd)[1]) + " x " +
                  std::to_string((*xd)[2]) + ", not C * " +
                  std::to_string(blockSize) + " x " + std::to_string(columns));
  if (blockSize * columns * pixels > (int64_t(1) << 24))
    return r.fail("the scatter matrix would have more than 2^24 entries");
  int64_t channels = (*xd)[1] / blockSize;
  // Row k * L + l (block element k, column l) -> its image pixel, if inside.
  std::vector<float> m(size_t(blockSize * columns * pixels), 0.f);
  for (int64_t k = 0; k < blockSize; ++k)
    for (int64_t l = 0; l < columns; ++l) {
      int64_t pixel = 0, kr = k, lr = l;
      bool inside = true;
      for (size_t d = n; d-- > 0;) { // row-major: the last dim varies fastest
        int64_t kd = kr % (*block)[d], ld = lr % grid[d];
        kr /= (*block)[d];
        lr /= grid[d];
        int64_t at = ld * stride[d] - pads[d] + kd * dil[d];
        inside &= at >= 0 && at < (*image)[d];
        int64_t scale = 1;
        for (size_t e = d + 1; e < n; ++e)
          scale *= (*image)[e];
        pixel += at * scale;
      }
      if (inside)
        m[size_t((k * columns + l) * pixels + pixel)] = 1.f;
    }
  std::string cols = r.add("Reshape", {r.input(0),
                                       r.ints({0, channels, blockSize * columns})});
  std::string img = r.add(
      "MatMul", {cols, r.floats(m, {blockSize * columns, pixels}, t)});
  std::vector<int64_t> shape{(*xd)[0], channels};
  shape.insert(shape.end(), image->begin(), image->end());
  r.add("Reshape", {img, r.ints(shape)}, r.node.output(0));
  return Rewrite::Done;
}

namespace {
/// cos_cache or sin_cache (input `i`) at full width, [B, 1, S, D] (4-D
/// input) or [B, S, 1, D]: concat(c, c) on the last axis, made once per
/// cache for every RotaryEmbedding of the graph. A cache that is the Cos or
/// Sin of an angle becomes the Cos or Sin of the angle doubled (the same
/// values), as exporters write the rotate-half form's tables.
std::string fullWidthCache(NodeRewriter &r, int i, int64_t headsAxis,
                           bool hasPositions) {
  std::string cache = r.input(i);
  std::string how = "/" + r.input(3) + "/" + std::to_string(headsAxis);
  return r.sharedValue("rotary-cache/" + cache + how, [&] {
    auto doubled = [&](const std::string &v) {
      return r.sharedValue("rotary-doubled/" + v + how, [&] {
        std::string c = hasPositions ? r.add("Gather", {v, r.input(3)}) : v;
        std::string both = r.add("Concat", {c, c});
        r.setInt(r.last(), "axis", -1);
        return r.add("Unsqueeze", {both, r.ints({headsAxis})});
      });
    };
    const onnx::NodeProto *p = hasPositions ? nullptr : r.producer(cache);
    if (p && p->domain().empty() && p->input_size() == 1 &&
        (p->op_type() == "Cos" || p->op_type() == "Sin"))
      return r.add(p->op_type(), {doubled(p->input(0))});
    return doubled(cache);
  });
}
} // namespace

/// Full rotation, not interleaved: x * cos + rotate_half(x) * sin with
/// rotate_half(x) = concat(-x2, x1) and the caches at full width, the form
/// Llama's exporters write, so both forms of a model import to the same ops.
static Rewrite rotateHalf(NodeRewriter &r, const std::vector<int64_t> &xd,
                          int64_t heads, bool hasPositions) {
  // 4-D x is [B, H, S, D]; 3-D is [B, S, H * D], taken as [B, S, H, D].
  bool fourD = xd.size() == 4;
  int64_t d = fourD ? xd[3] : xd[2] / heads;
  std::string x = fourD ? r.input(0)
                        : r.add("Reshape", {r.input(0), r.ints({0, 0, heads, d})});
  std::string cosv = fullWidthCache(r, 1, fourD ? 1 : 2, hasPositions);
  std::string sinv = fullWidthCache(r, 2, fourD ? 1 : 2, hasPositions);
  std::string axis = r.ints({-1});
  std::string lo = r.add("Slice", {x, r.ints({0}), r.ints({d / 2}), axis});
  std::string hi = r.add("Slice", {x, r.ints({d / 2}), r.ints({d}), axis});
  std::string rot = r.add("Concat", {r.add("Neg", {hi}), lo});
  r.setInt(r.last(), "axis", -1);
  std::string y = r.add("Add", {r.add("Mul", {x, cosv}), r.add("Mul", {rot, sinv})},
                        fourD ? r.node.output(0) : "");
  if (!fourD)
    r.add("Reshape", {y, r.ints(xd)}, r.node.output(0));
  return Rewrite::Done;
}

Rewrite decomposeRotaryEmbedding(NodeRewriter &r) {
  int32_t t;
  if (Rewrite s = floatInput(r, 0, t); s != Rewrite::Done)
    return s;
  auto xd = r.dims(r.input(0));
  auto cd = r.dims(r.input(1));
  if (!xd || !cd)
    return Rewrite::NeedTypes;
  bool hasPositions = !r.input(3).empty();
  int64_t heads = r.intAttr("num_heads", 0);
  int64_t headSize;
  if (xd->size() == 4) {
    headSize = (*xd)[3];
  } else if (xd->size() == 3) {
    if (heads < 1)
      return r.fail("a 3-D input needs num_heads");
    if ((*xd)[2] % heads)
      return r.fail("num_heads " + std::to_string(heads) +
                    " does not divide the hidden size " +
                    std::to_string((*xd)[2]));
    headSize = (*xd)[2] / heads;
  } else {
    return r.fail("input must be 3-D or 4-D");
  }
  int64_t rot = r.intAttr("rotary_embedding_dim", 0);
  if (rot == 0)
    rot = headSize;
  if (rot < 2 || rot % 2 || rot > headSize)
    return r.fail("rotary_embedding_dim " + std::to_string(rot) +
                  " must be even and at most the head size " +
                  std::to_string(headSize));
  int64_t half = rot / 2;
  if (cd->size() != (hasPositions ? 2u : 3u) || cd->back() != half)
    return r.fail(std::string("cos_cache must be ") +
                  (hasPositions ? "[max_position, " : "[batch, sequence, ") +
                  std::to_string(half) + "]");
  bool interleaved = r.intAttr("interleaved", 0) != 0;
  if (!interleaved && rot == headSize)
    return rotateHalf(r, *xd, heads, hasPositions);
  // [B, S, H, D]: the heads next to the rotated dim.
  std::string x = r.input(0);
  if (xd->size() == 4) {
    x = r.add("Transpose", {x});
    r.setInts(r.last(), "perm", {0, 2, 1, 3});
  } else {
    x = r.add("Reshape", {x, r.ints({0, 0, heads, headSize})});
  }
  auto cache = [&](int i) {
    std::string c = r.input(i);
    if (hasPositions)
      c = r.add("Gather", {c, r.input(3)}); // [B, S, half]
    return r.add("Unsqueeze", {c, r.ints({2})}); // [B, S, 1, half]
  };
  std::string cosv = cache(1), sinv = cache(2);
  auto slice = [&](const std::string &v, int64_t from, int64_t to,
                   int64_t step) {
    return r.add("Slice", {v, r.ints({from}), r.ints({to}), r.ints({3}),
                           r.ints({step})});
  };
  std::string rotated = rot < headSize ? slice(x, 0, rot, 1) : x;
  std::string x1 = interleaved ? slice(rotated, 0, rot, 2)
                               : slice(rotated, 0, half, 1);
  std::string x2 = interleaved ? slice(rotated, 1, rot, 2)
                               : slice(rotated, half, rot, 1);
  std::string real = r.add("Sub", {r.add("Mul", {cosv, x1}),
                                   r.add("Mul", {sinv, x2})});
  std::string imag = r.add("Add", {r.add("Mul", {sinv, x1}),
                                   r.add("Mul", {cosv, x2})});
  std::string y;
  if (interleaved) {
    std::string re = r.add("Unsqueeze", {real, r.ints({4})});
    std::string im = r.add("Unsqueeze", {imag, r.ints({4})});
    std::string pairs = r.add("Concat", {re, im});
    r.setInt(r.last(), "axis", 4);
    y = r.add("Reshape", {pairs, r.ints({0, 0, 0, rot})});
  } else {
    y = r.add("Concat", {real, imag});
    r.setInt(r.last(), "axis", 3);
  }
  if (rot < headSize) {
    y = r.add("Concat", {y, slice(x, rot, headSize, 1)});
    r.setInt(r.last(), "axis", 3);
  }
  if (xd->size() == 4) {
    r.add("Transpose", {y}, r.node.output(0));
    r.setInts(r.last(), "perm", {0, 2, 1, 3});
  } else {
    r.add("Reshape", {y, r.ints(*xd)}, r.node.output(0));
  }
  return Rewrite::Done;
}

} // namespace lpx::onnximport
