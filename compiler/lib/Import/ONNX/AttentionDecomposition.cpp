//===- AttentionDecomposition.cpp - Attention-23 as opset-17 ops ----------===//
//
// Q K^T, the scale, softcap, the masks (boolean, float, causal), Softmax and
// the product with V, as MatMul / Softmax / MatMul, in the ops an opset-17
// exporter writes for attention: the past Concat (or an Identity) as the
// present output that attention then reads, grouped heads (kv_num_heads <
// q_num_heads) repeated as repeat_kv (Unsqueeze, Expand, Reshape), Q K^T
// divided by sqrt(head_size). Both exports of a model so import to the same
// ops; lpx-grouped-attention then makes one MatMul per KV head of either.
//
//===----------------------------------------------------------------------===//
#include "OpsetRewrite.h"

#include <cmath>

namespace lpx::onnximport {

namespace {
/// [B, H, S, D] from a 3-D [B, S, H * D] input (`heads` given) or a 4-D one.
std::string toHeads(NodeRewriter &r, const std::string &v,
                    const std::vector<int64_t> &d, int64_t heads) {
  if (d.size() == 4)
    return v;
  std::string split = r.add("Reshape", {v, r.ints({0, 0, heads, -1})});
  std::string t = r.add("Transpose", {split});
  r.setInts(r.last(), "perm", {0, 2, 1, 3});
  return t;
}

/// [B, kv, T, D] -> [B, kv * rep, T, D], each KV head repeated for its
/// group of Q heads (`e` is {B, kv, rep, T, D}): repeat_kv as exporters
/// write it, Unsqueeze, Expand, Reshape.
std::string repeatHeads(NodeRewriter &r, const std::string &kv,
                        const std::vector<int64_t> &e) {
  std::string u = r.add("Unsqueeze", {kv, r.ints({2})});
  std::string x = r.add("Expand", {u, r.ints(e)});
  return r.add("Reshape", {x, r.ints({e[0], e[1] * e[2], e[3], e[4]})});
}
} // namespace

Rewrite decomposeAttention(NodeRewriter &r) {
  auto qd = r.dims(r.input(0)), kd = r.dims(r.input(1)),
       vd = r.dims(r.input(2));
  if (!qd || !kd || !vd)
    return Rewrite::NeedTypes;
  int32_t t = r.elemType(r.input(0));
  if (t != onnx::TensorProto::FLOAT && t != onnx::TensorProto::FLOAT16 &&
      t != onnx::TensorProto::BFLOAT16)
    return r.fail("Q must be a float tensor");
  size_t rank = qd->size();
  if ((rank != 3 && rank != 4) || kd->size() != rank || vd->size() != rank)
    return r.fail("Q, K and V must all be 3-D or all 4-D");
  if (r.node.output_size() > 3 && !r.node.output(3).empty())
    return r.fail("the qk_matmul_output output is not supported");
  int64_t qHeads, kvHeads, headSize, vHeadSize;
  int64_t batch = (*qd)[0], qLen = (*qd)[rank - 2], kvLen = (*kd)[rank - 2];
  if (rank == 3) {
    qHeads = r.intAttr("q_num_heads", 0);
    kvHeads = r.intAttr("kv_num_heads", 0);
    if (qHeads < 1 || kvHeads < 1)
      return r.fail("3-D inputs need q_num_heads and kv_num_heads");
    if ((*qd)[2] % qHeads || (*kd)[2] % kvHeads || (*vd)[2] % kvHeads)
      return r.fail("the head counts do not divide the hidden sizes");
    headSize = (*qd)[2] / qHeads;
    vHeadSize = (*vd)[2] / kvHeads;
    if ((*kd)[2] / kvHeads != headSize)
      return r.fail("Q and K have different head sizes");
  } else {
    qHeads = (*qd)[1];
    kvHeads = (*kd)[1];
    headSize = (*qd)[3];
    vHeadSize = (*vd)[3];
    if ((*kd)[3] != headSize || (*vd)[1] != kvHeads)
      return r.fail("K's head size or V's head count does not match");
  }
  if ((*kd)[0] != batch || (*vd)[0] != batch || (*vd)[rank - 2] != kvLen)
    return r.fail("Q, K and V disagree on batch or sequence length");
  if (qHeads % kvHeads)
    return r.fail("q_num_heads " + std::to_string(qHeads) +
                  " is not a multiple of kv_num_heads " +
                  std::to_string(kvHeads));
  bool hasPastK = !r.input(4).empty(), hasPastV = !r.input(5).empty();
  if (hasPastK != hasPastV)
    return r.fail("past_key and past_value must be given together");
  int64_t pastLen = 0;
  if (hasPastK) {
    auto pk = r.dims(r.input(4)), pv = r.dims(r.input(5));
    if (!pk || !pv)
      return Rewrite::NeedTypes;
    if (pk->size() != 4 || pv->size() != 4 || (*pk)[1] != kvHeads ||
        (*pk)[3] != headSize || (*pv)[3] != vHeadSize ||
        (*pv)[2] != (*pk)[2])
      return r.fail("past_key / past_value must be [B, kv_num_heads, P, "
                    "head_size]");
    pastLen = (*pk)[2];
  }
  int64_t total = pastLen + kvLen, rep = qHeads / kvHeads;
  int32_t maskType = 0;
  if (!r.input(3).empty()) {
    maskType = r.elemType(r.input(3));
    if (maskType == 0)
      return Rewrite::NeedTypes;
    if (maskType != onnx::TensorProto::BOOL && maskType != t)
      return r.fail("attn_mask must be bool or of Q's type");
  }
  float softcap = r.floatAttr("softcap", 0.f);
  float scale = r.attr("scale") ? r.floatAttr("scale", 1.f)
                                : float(1.0 / std::sqrt(double(headSize)));

  std::string q = toHeads(r, r.input(0), *qd, qHeads);
  std::string k = toHeads(r, r.input(1), *kd, kvHeads);
  std::string v = toHeads(r, r.input(2), *vd, kvHeads);
  auto present = [&](int i, const std::string &cur) {
    std::string out = r.node.output_size() > i ? r.node.output(i) : "";
    if (r.input(3 + i).empty()) {
      // Attention reads the present output, as the exporters' form does
      // (the resident cache follows that value's readers).
      if (out.empty())
        return cur;
      return r.add("Identity", {cur}, out);
    }
    std::string all = r.add("Concat", {r.input(3 + i), cur}, out);
    r.setInt(r.last(), "axis", 2);
    return all;
  };
  k = present(1, k);
  v = present(2, v);
  if (rep > 1) {
    k = repeatHeads(r, k, {batch, kvHeads, rep, total, headSize});
    v = repeatHeads(r, v, {batch, kvHeads, rep, total, vHeadSize});
  }

  std::string kt = r.add("Transpose", {k});
  r.setInts(r.last(), "perm", {0, 1, 3, 2});
  std::string scores = r.add("MatMul", {q, kt});
  if (r.attr("scale"))
    scores = r.add("Mul", {scores, r.scalar(scale, t)});
  else
    scores = r.add(
        "Div", {scores, r.scalar(float(std::sqrt(double(headSize))), t)});
  if (softcap > 0.f) {
    std::string c = r.scalar(softcap, t);
    scores = r.add("Mul", {r.add("Tanh", {r.add("Div", {scores, c})}), c});
  }
  if (r.intAttr("is_causal", 0) != 0) {
    // Bottom-right aligned: query i sees key j <= i + past.
    std::vector<float> bias(qLen * total, 0.f);
    for (int64_t i = 0; i < qLen; ++i)
      for (int64_t j = i + pastLen + 1; j < total; ++j)
        bias[i * total + j] = -INFINITY;
    scores = r.add("Add", {scores, r.floats(bias, {qLen, total}, t)});
  }
  if (maskType == onnx::TensorProto::BOOL)
    scores = r.add("Where", {r.input(3), scores, r.scalar(-INFINITY, t)});
  else if (maskType != 0)
    scores = r.add("Add", {scores, r.input(3)});
  std::string probs = r.add("Softmax", {scores});
  r.setInt(r.last(), "axis", -1);
  std::string out = r.node.output(0);
  if (rank == 4) {
    r.add("MatMul", {probs, v}, out); // [B, heads, S, Dv]
    return Rewrite::Done;
  }
  std::string bshd = r.add("Transpose", {r.add("MatMul", {probs, v})});
  r.setInts(r.last(), "perm", {0, 2, 1, 3});
  r.add("Reshape", {bshd, r.ints({0, 0, qHeads * vHeadSize})}, out);
  return Rewrite::Done;
}

} // namespace lpx::onnximport
