//===- DecoderGraph.cpp - One decode step of a decoder-only LLM -----------===//
//
// Written op by op as torch.onnx / optimum export these models (decomposed
// norms, rotate-half rotary, repeat_kv by Expand, GELU as its tanh formula),
// so the compiler sees what a real export gives it. At opset 23 the norms,
// rotary, attention and GELU are the ops of that opset instead
// (RMSNormalization, RotaryEmbedding, Attention, Gelu), as newer exporters
// write them (GPT-2's LayerNorm then LayerNormalization-17). Weights of MatMuls are
// stored [in, out] (the transpose of torch's Linear.weight), as exporters fold
// that transpose into the initializer. Mixtral's experts are evaluated
// densely with their routing weights (zero for the experts not among the
// top k): the same values as routed execution, with static shapes.
//
//===----------------------------------------------------------------------===//
#include "DecoderGraph.h"

#include <cmath>

using namespace lpx::models;

namespace {
constexpr int32_t kFloat = onnx::TensorProto::FLOAT;
constexpr int32_t kInt64 = onnx::TensorProto::INT64;

Fill linearInit(int64_t fanIn) {
  // Uniform with variance 1 / fanIn, so activations keep their scale.
  return {0.f, float(std::sqrt(3.0 / double(fanIn)))};
}
Fill normInit() { return {1.f, 0.1f}; }
Fill biasInit() { return {0.f, 0.02f}; }

class StepBuilder {
public:
  StepBuilder(const DecoderConfig &c, const StepShape &s, GraphBuilder &b)
      : c(c), s(s), b(b), hd(c.headDim()) {}
  void build();

private:
  std::string norm(const std::string &x, const std::string &prefix);
  std::string linear(const std::string &x, const std::string &name,
                     int64_t in, int64_t out, bool bias);
  std::string heads(const std::string &x, int64_t n);
  std::string rotary(const std::string &x);
  std::string attention(const std::string &x, int64_t layer);
  std::string swiglu(const std::string &x, const std::string &prefix,
                     const char *gate, const char *up, const char *down);
  std::string gelu(const std::string &x);
  std::string mlp(const std::string &x, int64_t layer);
  std::string moe(const std::string &x, int64_t layer);
  void rotaryTables();
  void maskBias();
  void buildFfnOnly();

  const DecoderConfig &c;
  const StepShape &s;
  GraphBuilder &b;
  int64_t hd;
  std::string cos, sin, bias, positions;
};
} // namespace

/// RMSNorm (Llama) or LayerNorm (GPT-2), decomposed as exporters write them.
std::string StepBuilder::norm(const std::string &x, const std::string &prefix) {
  if (c.family == Family::Gpt2 && s.opset23)
    return b.op("LayerNormalization",
                {x, b.param(prefix + ".weight", {c.hidden}, normInit()),
                 b.param(prefix + ".bias", {c.hidden}, biasInit())},
                {floatAttr("epsilon", float(c.normEps))});
  if (s.opset23)
    return b.op("RMSNormalization",
                {x, b.param(prefix + ".weight", {c.hidden}, normInit())},
                {floatAttr("epsilon", float(c.normEps))});
  std::string two = b.floatScalar(2.f), eps = b.floatScalar(float(c.normEps));
  Attr last = intsAttr("axes", {-1});
  if (c.family == Family::Gpt2) {
    std::string mean = b.op("ReduceMean", {x}, {last});
    std::string centred = b.op("Sub", {x, mean});
    std::string var = b.op("ReduceMean", {b.op("Pow", {centred, two})}, {last});
    std::string den = b.op("Sqrt", {b.op("Add", {var, eps})});
    std::string y = b.op("Mul", {b.op("Div", {centred, den}),
                                 b.param(prefix + ".weight", {c.hidden}, normInit())});
    return b.op("Add", {y, b.param(prefix + ".bias", {c.hidden}, biasInit())});
  }
  std::string var = b.op("ReduceMean", {b.op("Pow", {x, two})}, {last});
  std::string den = b.op("Sqrt", {b.op("Add", {var, eps})});
  return b.op("Mul", {b.op("Div", {x, den}),
                      b.param(prefix + ".weight", {c.hidden}, normInit())});
}

std::string StepBuilder::linear(const std::string &x, const std::string &name,
                                int64_t in, int64_t out, bool bias) {
  std::string y = b.op("MatMul", {x, b.param(name + ".weight", {in, out}, linearInit(in))});
  if (!bias)
    return y;
  return b.op("Add", {y, b.param(name + ".bias", {out}, biasInit())});
}

/// [B, q, n*hd] -> [B, n, q, hd]
std::string StepBuilder::heads(const std::string &x, int64_t n) {
  std::string r = b.op("Reshape", {x, b.ints({s.batch, s.query, n, hd})});
  return b.op("Transpose", {r}, {intsAttr("perm", {0, 2, 1, 3})});
}

/// x * cos + rotate_half(x) * sin, rotate_half(x) = concat(-x2, x1).
std::string StepBuilder::rotary(const std::string &x) {
  if (s.opset23) // x is [B, n, q, hd]; the caches are of the positions
    return b.op("RotaryEmbedding", {x, cos, sin});
  std::string axis = b.ints({-1});
  std::string lo = b.op("Slice", {x, b.ints({0}), b.ints({hd / 2}), axis});
  std::string hi = b.op("Slice", {x, b.ints({hd / 2}), b.ints({hd}), axis});
  std::string rot = b.op("Concat", {b.op("Neg", {hi}), lo}, {intAttr("axis", -1)});
  return b.op("Add", {b.op("Mul", {x, cos}), b.op("Mul", {rot, sin})});
}

/// cos/sin [B, 1, q, hd] of the current positions, from inv_freq like HF's
/// LlamaRotaryEmbedding: freqs = position * inv_freq, emb = concat(freqs, freqs).
void StepBuilder::rotaryTables() {
  std::vector<float> invFreq;
  for (int64_t i = 0; i < hd / 2; ++i)
    invFreq.push_back(float(std::pow(c.ropeTheta, -2.0 * double(i) / double(hd))));
  b.setScope("rotary_emb");
  std::string inv = b.floats("rotary_emb.inv_freq", {hd / 2}, invFreq);
  std::string pos = b.op("Cast", {positions}, {intAttr("to", kFloat)});
  std::string p3 = b.op("Unsqueeze", {pos, b.ints({2})}); // [B, q, 1]
  std::string freqs = b.op("Mul", {p3, inv});            // [B, q, hd/2]
  if (s.opset23) { // RotaryEmbedding's caches of these positions, [B, q, hd/2]
    cos = b.op("Cos", {freqs});
    sin = b.op("Sin", {freqs});
    return;
  }
  std::string emb = b.op("Concat", {freqs, freqs}, {intAttr("axis", -1)});
  std::string e4 = b.op("Unsqueeze", {emb, b.ints({1})}); // [B, 1, q, hd]
  cos = b.op("Cos", {e4});
  sin = b.op("Sin", {e4});
}

/// attention_mask [B, L] (1 keep, 0 masked) -> additive bias [B, 1, 1, L];
/// with several query tokens, plus the causal part [B, 1, q, L]: a key
/// after the query's position (position_ids) is masked too.
void StepBuilder::maskBias() {
  b.setScope("attention_mask");
  std::string m = b.op("Cast", {"attention_mask"}, {intAttr("to", kFloat)});
  std::string inv = b.op("Sub", {b.floatScalar(1.f), m});
  std::string neg = b.op("Mul", {inv, b.floatScalar(-1e9f)});
  bias = b.op("Reshape", {neg, b.ints({s.batch, 1, 1, s.context})});
  if (s.query == 1)
    return;
  std::vector<int64_t> keys(size_t(s.context));
  for (int64_t i = 0; i < s.context; ++i)
    keys[size_t(i)] = i;
  std::string keyPos = b.op("Reshape", {b.ints(keys), b.ints({1, 1, 1, s.context})});
  std::string queryPos = b.op("Unsqueeze", {positions, b.ints({1, 3})}); // [B, 1, q, 1]
  std::string later = b.op("Cast", {b.op("Greater", {keyPos, queryPos})},
                           {intAttr("to", kFloat)});
  bias = b.op("Add", {bias, b.op("Mul", {later, b.floatScalar(-1e9f)})});
}

std::string StepBuilder::attention(const std::string &x, int64_t layer) {
  std::string p = "model.layers." + std::to_string(layer) + ".self_attn";
  std::string q, k, v;
  if (c.family == Family::Gpt2) {
    std::string qkv = linear(x, p + ".c_attn", c.hidden, 3 * c.hidden, true);
    auto parts = b.opN("Split", {qkv, b.ints({c.hidden, c.hidden, c.hidden})},
                       3, {intAttr("axis", -1)});
    q = heads(parts[0], c.heads);
    k = heads(parts[1], c.kvHeads);
    v = heads(parts[2], c.kvHeads);
  } else {
    q = rotary(heads(linear(x, p + ".q_proj", c.hidden, c.heads * hd, false), c.heads));
    k = rotary(heads(linear(x, p + ".k_proj", c.hidden, c.kvHeads * hd, false), c.kvHeads));
    v = heads(linear(x, p + ".v_proj", c.hidden, c.kvHeads * hd, false), c.kvHeads);
  }
  std::string cache = "past_key_values." + std::to_string(layer);
  std::string present = "present." + std::to_string(layer);
  bool gpt2 = c.family == Family::Gpt2;
  if (s.opset23) {
    std::vector<std::string> ins{q, k, v, bias};
    if (s.past() > 0)
      ins.insert(ins.end(), {cache + ".key", cache + ".value"});
    std::string ctx = b.opOutputs("Attention", ins,
                                  {"", present + ".key", present + ".value"})[0];
    ctx = b.op("Transpose", {ctx}, {intsAttr("perm", {0, 2, 1, 3})});
    ctx = b.op("Reshape", {ctx, b.ints({s.batch, s.query, c.heads * hd})});
    return linear(ctx, p + (gpt2 ? ".c_proj" : ".o_proj"), c.heads * hd,
                  c.hidden, gpt2);
  }
  Attr seqAxis = intAttr("axis", 2);
  if (s.past() > 0) {
    b.opNamed("Concat", {cache + ".key", k}, present + ".key", {seqAxis});
    b.opNamed("Concat", {cache + ".value", v}, present + ".value", {seqAxis});
  } else { // a prefill: the cache is what this step computes
    b.opNamed("Identity", {k}, present + ".key");
    b.opNamed("Identity", {v}, present + ".value");
  }
  k = present + ".key";
  v = present + ".value";
  if (c.heads != c.kvHeads) { // repeat_kv: [B, kv, L, hd] -> [B, heads, L, hd]
    int64_t rep = c.heads / c.kvHeads;
    auto repeat = [&](const std::string &t) {
      std::string u = b.op("Unsqueeze", {t, b.ints({2})});
      std::string e = b.op("Expand", {u, b.ints({s.batch, c.kvHeads, rep, s.context, hd})});
      return b.op("Reshape", {e, b.ints({s.batch, c.heads, s.context, hd})});
    };
    k = repeat(k);
    v = repeat(v);
  }
  std::string kt = b.op("Transpose", {k}, {intsAttr("perm", {0, 1, 3, 2})});
  std::string scores = b.op("MatMul", {q, kt});
  scores = b.op("Div", {scores, b.floatScalar(float(std::sqrt(double(hd))))});
  scores = b.op("Add", {scores, bias});
  std::string probs = b.op("Softmax", {scores}, {intAttr("axis", -1)});
  std::string ctx = b.op("MatMul", {probs, v}); // [B, heads, q, hd]
  ctx = b.op("Transpose", {ctx}, {intsAttr("perm", {0, 2, 1, 3})});
  ctx = b.op("Reshape", {ctx, b.ints({s.batch, s.query, c.heads * hd})});
  return linear(ctx, p + (gpt2 ? ".c_proj" : ".o_proj"), c.heads * hd, c.hidden, gpt2);
}

/// down(silu(gate(x)) * up(x)), silu(g) = g * sigmoid(g).
std::string StepBuilder::swiglu(const std::string &x, const std::string &prefix,
                                const char *gate, const char *up,
                                const char *down) {
  std::string g = linear(x, prefix + gate, c.hidden, c.ffn, false);
  std::string silu = b.op("Mul", {g, b.op("Sigmoid", {g})});
  std::string u = linear(x, prefix + up, c.hidden, c.ffn, false);
  return linear(b.op("Mul", {silu, u}), prefix + down, c.ffn, c.hidden, false);
}

/// GPT-2's gelu_new: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
std::string StepBuilder::gelu(const std::string &x) {
  if (s.opset23)
    return b.op("Gelu", {x}, {stringAttr("approximate", "tanh")});
  std::string cube = b.op("Pow", {x, b.floatScalar(3.f)});
  std::string inner = b.op("Add", {x, b.op("Mul", {cube, b.floatScalar(0.044715f)})});
  std::string t = b.op("Tanh", {b.op("Mul", {inner, b.floatScalar(float(std::sqrt(2.0 / M_PI)))})});
  std::string half = b.op("Mul", {x, b.floatScalar(0.5f)});
  return b.op("Mul", {half, b.op("Add", {t, b.floatScalar(1.f)})});
}

std::string StepBuilder::mlp(const std::string &x, int64_t layer) {
  std::string p = "model.layers." + std::to_string(layer) + ".mlp";
  if (c.family == Family::Gpt2) {
    std::string h = gelu(linear(x, p + ".c_fc", c.hidden, c.ffn, true));
    return linear(h, p + ".c_proj", c.ffn, c.hidden, true);
  }
  if (c.family == Family::Mixtral)
    return moe(x, layer);
  return swiglu(x, p, ".gate_proj", ".up_proj", ".down_proj");
}

/// Mixtral's sparse MoE block: softmax router, top-k, weights renormalised
/// over the chosen experts and scattered into a dense [B, 1, E] row.
std::string StepBuilder::moe(const std::string &x, int64_t layer) {
  std::string p = "model.layers." + std::to_string(layer) + ".block_sparse_moe";
  std::string logits = linear(x, p + ".gate", c.hidden, c.experts, false);
  std::string probs = b.op("Softmax", {logits}, {intAttr("axis", -1)});
  auto top = b.opN("TopK", {probs, b.ints({c.expertsPerToken})}, 2,
                   {intAttr("axis", -1)});
  std::string sum = b.op("ReduceSum", {top[0], b.ints({-1})});
  std::string chosen = b.op("Div", {top[0], sum});
  std::vector<float> zeros(size_t(s.batch * s.query * c.experts), 0.f);
  std::string dense = b.op(
      "ScatterElements",
      {b.floats(p + ".routing_zeros", {s.batch, s.query, c.experts}, zeros), top[1], chosen},
      {intAttr("axis", -1)});
  std::string out;
  for (int64_t e = 0; e < c.experts; ++e) {
    std::string w = b.op("Slice", {dense, b.ints({e}), b.ints({e + 1}), b.ints({-1})});
    std::string y = swiglu(x, p + ".experts." + std::to_string(e), ".w1", ".w3", ".w2");
    y = b.op("Mul", {y, w});
    out = out.empty() ? y : b.op("Add", {out, y});
  }
  return out;
}

/// The FFN side of attention-FFN disaggregation: each layer's
/// post-attention norm, MLP or experts and residual add, from the hidden
/// states the attention side sends.
void StepBuilder::buildFfnOnly() {
  b.input("hidden_states", kFloat, {s.batch, s.query, c.hidden});
  std::string x = "hidden_states";
  bool gpt2 = c.family == Family::Gpt2;
  for (int64_t i = 0; i < s.layers; ++i) {
    std::string l = "model.layers." + std::to_string(i);
    b.setScope(l + ".mlp");
    std::string m = mlp(norm(x, l + (gpt2 ? ".ln_2" : ".post_attention_layernorm")), i);
    x = b.op("Add", {x, m});
  }
  b.opNamed("Identity", {x}, "hidden_out");
  b.output("hidden_out", kFloat, {s.batch, s.query, c.hidden});
}

void StepBuilder::build() {
  if (s.ffnOnly)
    return buildFfnOnly();
  const int64_t past = s.past();
  b.input("input_ids", kInt64, {s.batch, s.query});
  b.input("attention_mask", kInt64, {s.batch, s.context});
  b.input("position_ids", kInt64, {s.batch, s.query});
  for (int64_t i = 0; past > 0 && i < s.layers; ++i)
    for (const char *kv : {".key", ".value"})
      b.input("past_key_values." + std::to_string(i) + kv, kFloat,
              {s.batch, c.kvHeads, past, hd});
  positions = "position_ids";

  b.setScope("model.embed_tokens");
  bool gpt2 = c.family == Family::Gpt2;
  std::string table = b.param(gpt2 ? "transformer.wte.weight" : "model.embed_tokens.weight",
                              {c.vocab, c.hidden}, {0.f, 1.f});
  std::string x = b.op("Gather", {table, "input_ids"}, {intAttr("axis", 0)});
  if (gpt2) {
    std::string wpe = b.param("transformer.wpe.weight", {c.maxContext, c.hidden}, {0.f, 0.1f});
    x = b.op("Add", {x, b.op("Gather", {wpe, positions}, {intAttr("axis", 0)})});
  } else {
    rotaryTables();
  }
  maskBias();
  for (int64_t i = 0; i < s.layers; ++i) {
    std::string l = "model.layers." + std::to_string(i);
    b.setScope(l + ".self_attn");
    std::string a = attention(norm(x, l + (gpt2 ? ".ln_1" : ".input_layernorm")), i);
    x = b.op("Add", {x, a});
    b.setScope(l + ".mlp");
    std::string m = mlp(norm(x, l + (gpt2 ? ".ln_2" : ".post_attention_layernorm")), i);
    x = b.op("Add", {x, m});
  }
  b.setScope("lm_head");
  const bool one = s.logitsAt >= 0;
  if (one) // the last prompt position only: the head's rows are the work
    x = b.op("Slice", {x, b.ints({s.logitsAt}), b.ints({s.logitsAt + 1}), b.ints({1})});
  x = norm(x, gpt2 ? "transformer.ln_f" : "model.norm");
  std::string head = b.param("lm_head.weight", {c.hidden, c.vocab}, linearInit(c.hidden));
  if (one && s.argmax) {
    b.opNamed("ArgMax", {b.op("MatMul", {x, head})}, "next_token",
              {intAttr("axis", -1), intAttr("keepdims", 0)});
    b.output("next_token", kInt64, {s.batch, 1});
  } else {
    b.opNamed("MatMul", {x, head}, "logits");
    b.output("logits", kFloat, {s.batch, one ? 1 : s.query, c.vocab});
  }
  for (int64_t i = 0; i < s.layers; ++i)
    for (const char *kv : {".key", ".value"})
      b.output("present." + std::to_string(i) + kv, kFloat,
               {s.batch, c.kvHeads, s.context, hd});
}

void lpx::models::buildDecoderStep(const DecoderConfig &config,
                                   const StepShape &shape, GraphBuilder &b) {
  StepBuilder(config, shape, b).build();
}
