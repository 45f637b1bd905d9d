//===- QdqFusion.cpp - QDQ chains into QLinear ops ------------------------===//
//
// onnxruntime's static quantiser writes QDQ models: a float MatMul, Conv or
// Gemm between DequantizeLinear nodes (its int8 operands) and a
// QuantizeLinear (its int8 result). onnxruntime itself fuses such a chain
// into QLinearMatMul / QLinearConv and computes it in integers; so does lpx,
// before import, so the chain becomes the QLinear import's int32-accumulated
// matmul or conv (int8 x int8 at the matrix unit's int8 rate when the zero
// points are zero) with the same requantisation; a Gemm with B transposed
// (and an int32 bias) becomes a 1x1 QLinearConv between reshapes. A chain
// that does not fit exactly (no explicit zero points, a bias whose scale is
// not x_scale * w_scale, a Gemm with alpha or beta != 1, transA, or a bias
// without transB) is left in float. A MatMul, Gemm or Conv of an int8
// activation's and a constant int8 weight's DequantizeLinear whose result
// stays float (no QuantizeLinear after it, or one that does not fit)
// becomes MatMulInteger / ConvInteger of the int8 values, cast to float and
// scaled by a_scale * w_scale (fuseToFloat): the weight stays int8 and the
// product runs at the int8 rate instead of dequantising the weight at run
// time and multiplying in fp32.
//
//===----------------------------------------------------------------------===//
#include "QdqFusion.h"

#include "Tensors.h"

#include "llvm/ADT/StringMap.h"

#include <cstring>
#include <map>
#include <vector>
#include <optional>
#include <set>

namespace lpx::onnximport {
namespace {

bool isDefault(const onnx::NodeProto &n) {
  return n.domain().empty() || n.domain() == "ai.onnx";
}

const onnx::AttributeProto *findAttr(const onnx::NodeProto &n,
                                     llvm::StringRef name) {
  for (const auto &a : n.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

int64_t intAttr(const onnx::NodeProto &n, llvm::StringRef name, int64_t d) {
  const onnx::AttributeProto *a = findAttr(n, name);
  return a ? a->i() : d;
}

struct GraphIndex {
  llvm::StringMap<int> producer;
  llvm::StringMap<int> uses;
  llvm::StringMap<const onnx::TensorProto *> initializers;

  explicit GraphIndex(const onnx::GraphProto &g) {
    for (int i = 0; i < g.node_size(); ++i) {
      for (const auto &out : g.node(i).output())
        producer[out] = i;
      for (const auto &in : g.node(i).input())
        ++uses[in];
      // Subgraphs may read outer values: count them as uses too.
      for (const auto &a : g.node(i).attribute())
        if (a.has_g())
          for (const auto &sn : a.g().node())
            for (const auto &in : sn.input())
              ++uses[in];
    }
    for (const auto &o : g.output())
      ++uses[o.name()];
    for (const auto &t : g.initializer())
      initializers[t.name()] = &t;
  }

  /// The DequantizeLinear producing `name` with explicit zero point.
  const onnx::NodeProto *dq(const onnx::GraphProto &g,
                            const std::string &name) const {
    auto it = producer.find(name);
    if (it == producer.end())
      return nullptr;
    const onnx::NodeProto &n = g.node(it->second);
    if (!isDefault(n) || n.op_type() != "DequantizeLinear" ||
        n.input_size() != 3 || n.input(2).empty())
      return nullptr;
    return &n;
  }
};

/// Float values of a constant (initializer) tensor, if it is one.
std::optional<std::vector<double>> floats(const GraphIndex &ix,
                                          const std::string &name) {
  const onnx::TensorProto *t = ix.initializers.lookup(name);
  if (!t || t->data_type() != onnx::TensorProto::FLOAT)
    return std::nullopt;
  auto bytes = decodeTensor(*t);
  if (!bytes) {
    llvm::consumeError(bytes.takeError());
    return std::nullopt;
  }
  std::vector<double> out(bytes->numElements());
  for (size_t i = 0; i < out.size(); ++i) {
    float f;
    std::memcpy(&f, bytes->bytes().data() + 4 * i, 4);
    out[i] = f;
  }
  return out;
}

/// A Conv bias from DequantizeLinear of int32 with zero point 0 and scale
/// x_scale * w_scale (as float products), so it adds exactly in int32.
bool exactBias(const GraphIndex &ix, const onnx::GraphProto &g,
               const onnx::NodeProto &b, const onnx::NodeProto &x,
               const onnx::NodeProto &w) {
  const onnx::TensorProto *q = ix.initializers.lookup(b.input(0));
  if (!q || q->data_type() != onnx::TensorProto::INT32)
    return false;
  auto zp = ix.initializers.lookup(b.input(2));
  if (!zp)
    return false;
  auto zpBytes = decodeTensor(*zp);
  if (!zpBytes) {
    llvm::consumeError(zpBytes.takeError());
    return false;
  }
  auto zps = toInt64s(*zpBytes);
  if (!zps) {
    llvm::consumeError(zps.takeError());
    return false;
  }
  for (int64_t v : *zps)
    if (v != 0)
      return false;
  auto bs = floats(ix, b.input(1)), xs = floats(ix, x.input(1)),
       ws = floats(ix, w.input(1));
  if (!bs || !xs || !ws || xs->size() != 1)
    return false;
  for (size_t i = 0; i < bs->size(); ++i) {
    double want = double(float((*xs)[0]) * float((*ws)[ws->size() == 1 ? 0 : i]));
    if (ws->size() != 1 && ws->size() != bs->size())
      return false;
    if (float((*bs)[i]) != float(want))
      return false;
  }
  return true;
}

/// The number of elements of initializer `name`, or -1.
int64_t numElements(const GraphIndex &ix, const std::string &name) {
  const onnx::TensorProto *t = ix.initializers.lookup(name);
  if (!t)
    return -1;
  int64_t n = 1;
  for (int64_t d : t->dims())
    n *= d;
  return n;
}

/// The DequantizeLinear's parameters vary as the QLinear op reads them:
/// per tensor, or per index of `channelAxis` (negative: from the end) of a
/// constant operand; nullopt allows per tensor only.
bool paramsFit(const GraphIndex &ix, const onnx::NodeProto &dq,
               std::optional<int64_t> channelAxis) {
  int64_t n = numElements(ix, dq.input(1));
  if (n == 1)
    return numElements(ix, dq.input(2)) == 1;
  const onnx::TensorProto *w = ix.initializers.lookup(dq.input(0));
  if (n < 1 || !channelAxis || !w)
    return false;
  int64_t rank = w->dims_size(), axis = intAttr(dq, "axis", 1);
  int64_t want = *channelAxis < 0 ? *channelAxis + rank : *channelAxis;
  if (axis < 0)
    axis += rank;
  return want >= 0 && want < rank && axis == want &&
         w->dims(int(axis)) == n && numElements(ix, dq.input(2)) == n;
}

/// What replaces a chain: nodes in place of its QuantizeLinear, and new
/// initializers.
struct Fused {
  std::vector<onnx::NodeProto> nodes;
  std::vector<onnx::TensorProto> initializers;
};

onnx::TensorProto int64s(const std::string &name, std::vector<int64_t> v) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(onnx::TensorProto::INT64);
  t.add_dims(int64_t(v.size()));
  for (int64_t x : v)
    t.add_int64_data(x);
  return t;
}

onnx::NodeProto makeNode(const std::string &op, const std::string &name,
                         std::vector<std::string> inputs,
                         const std::string &output) {
  onnx::NodeProto n;
  n.set_op_type(op);
  n.set_name(name);
  for (const std::string &in : inputs)
    n.add_input(in);
  n.add_output(output);
  return n;
}

/// Gemm(A, B^T, C) as onnxruntime's quantiser writes it: A [M, K] is the
/// 1x1 QLinearConv of A as [M, K, 1, 1] with B [N, K] as weights [N, K, 1,
/// 1] and C as the int32 bias, reshaped back to [M, N]; exact, since the
/// reshapes move int8 values and the conv requantises like QLinearMatMul.
Fused gemmAsConv(onnx::NodeProto conv, const onnx::TensorProto &b,
                 const std::string &prefix, const std::string &output) {
  Fused f;
  onnx::TensorProto w = b;
  w.set_name(prefix + "/w");
  w.add_dims(1);
  w.add_dims(1);
  f.initializers = {w, int64s(prefix + "/shape4", {0, 0, 1, 1}),
                    int64s(prefix + "/shape2", {0, -1})};
  f.nodes.push_back(makeNode("Reshape", prefix + "/a4",
                             {conv.input(0), prefix + "/shape4"}, prefix + "/a4"));
  conv.set_input(0, prefix + "/a4");
  conv.set_input(3, prefix + "/w");
  conv.set_output(0, prefix + "/y4");
  f.nodes.push_back(std::move(conv));
  f.nodes.push_back(makeNode("Reshape", prefix + "/y2",
                             {prefix + "/y4", prefix + "/shape2"}, output));
  return f;
}

/// What replaces `op` (MatMul, Conv or Gemm) between `a`/`b`
/// (DequantizeLinear) and `q` (QuantizeLinear); nullopt when the chain is
/// not one lpx fuses exactly.
std::optional<Fused> fuse(const GraphIndex &ix, const onnx::GraphProto &g,
                          const onnx::NodeProto &op, const onnx::NodeProto &q) {
  const std::string &t = op.op_type();
  if (t != "MatMul" && t != "Gemm" && t != "Conv")
    return std::nullopt;
  const onnx::NodeProto *a = ix.dq(g, op.input(0));
  const onnx::NodeProto *b = op.input_size() > 1 ? ix.dq(g, op.input(1)) : nullptr;
  if (!a || !b || q.input_size() != 3 || q.input(2).empty() ||
      numElements(ix, q.input(1)) != 1 || numElements(ix, q.input(2)) != 1 ||
      !paramsFit(ix, *a, std::nullopt))
    return std::nullopt;
  bool hasBias = op.input_size() > 2 && !op.input(2).empty();
  bool transB = t == "Gemm" && intAttr(op, "transB", 0) != 0;
  if (t == "Gemm" &&
      (intAttr(op, "transA", 0) != 0 || (hasBias && !transB) ||
       (findAttr(op, "alpha") && findAttr(op, "alpha")->f() != 1.0f) ||
       (findAttr(op, "beta") && findAttr(op, "beta")->f() != 1.0f)))
    return std::nullopt;
  // A Gemm with B transposed is a 1x1 conv: its weight is B [N, K] itself.
  bool asConv = t == "Conv" || transB;
  const onnx::TensorProto *bConst = ix.initializers.lookup(b->input(0));
  if (transB && (!bConst || bConst->dims_size() != 2))
    return std::nullopt;
  // Weights may be quantised per output column (MatMul, Gemm: the last
  // axis) or per output channel (Conv, Gemm with B^T: axis 0).
  const int64_t lastAxis = -1, outChannels = 0;
  if (!paramsFit(ix, *b, asConv ? outChannels : lastAxis))
    return std::nullopt;
  const onnx::NodeProto *bias = nullptr;
  if (hasBias) {
    bias = ix.dq(g, op.input(2));
    if (!bias || !exactBias(ix, g, *bias, *a, *b))
      return std::nullopt;
  }
  // QLinearMatMul / QLinearConv inputs: a, its scale and zero point, b,
  // its scale and zero point, the result's scale and zero point, and for
  // QLinearConv the int32 bias; Conv keeps its attributes.
  onnx::NodeProto f;
  f.set_name(op.name());
  f.set_op_type(asConv ? "QLinearConv" : "QLinearMatMul");
  for (const onnx::NodeProto *dq : {a, b})
    for (int i = 0; i < 3; ++i)
      f.add_input(dq->input(i));
  f.add_input(q.input(1));
  f.add_input(q.input(2));
  if (bias)
    f.add_input(bias->input(0));
  f.add_output(q.output(0));
  if (t == "Conv")
    for (const auto &attr : op.attribute())
      *f.add_attribute() = attr;
  if (transB)
    return gemmAsConv(std::move(f), *bConst,
                      (op.name().empty() ? q.output(0) : op.name()) + "/qdq",
                      q.output(0));
  return Fused{{std::move(f)}, {}};
}

/// The int8 initializer `name` (a DequantizeLinear's quantised input, or
/// its int8 zero point), or null.
const onnx::TensorProto *int8Initializer(const GraphIndex &ix,
                                         const std::string &name) {
  const onnx::TensorProto *t = ix.initializers.lookup(name);
  return t && t->data_type() == onnx::TensorProto::INT8 ? t : nullptr;
}

onnx::TensorProto floatTensor(const std::string &name,
                              std::vector<int64_t> dims,
                              const std::vector<double> &v) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims)
    t.add_dims(d);
  for (double x : v)
    t.add_float_data(float(x));
  return t;
}

/// What replaces a MatMul, Gemm or Conv that reads DequantizeLinear `a`
/// (an int8 activation, per tensor) and `b` (a constant int8 weight, per
/// tensor or per output channel) and whose float result is not quantised
/// again: MatMulInteger / ConvInteger of the int8 values (the weight stays
/// int8, its scale folded into the product's), cast to float and times
/// a_scale * b_scale, plus a Gemm's or Conv's float bias. onnxruntime
/// computes DQ(a) . DQ(b) in float; this is the same product with the
/// scales applied once after it. Nullopt when the op has no such form.
std::optional<Fused> fuseToFloat(const GraphIndex &ix,
                                 const onnx::GraphProto &g,
                                 const onnx::NodeProto &op) {
  const std::string &t = op.op_type();
  if ((t != "MatMul" && t != "Gemm" && t != "Conv") || op.input_size() < 2 ||
      op.output_size() != 1)
    return std::nullopt;
  const onnx::NodeProto *a = ix.dq(g, op.input(0));
  const onnx::NodeProto *b = ix.dq(g, op.input(1));
  if (!a || !b || !int8Initializer(ix, a->input(2)) ||
      !int8Initializer(ix, b->input(2)) || !paramsFit(ix, *a, std::nullopt))
    return std::nullopt;
  const onnx::TensorProto *bq = int8Initializer(ix, b->input(0));
  bool transB = t == "Gemm" && intAttr(op, "transB", 0) != 0;
  if (!bq || (t != "Conv" && bq->dims_size() != 2))
    return std::nullopt;
  if (t == "Gemm" &&
      (intAttr(op, "transA", 0) != 0 ||
       (findAttr(op, "alpha") && findAttr(op, "alpha")->f() != 1.0f) ||
       (findAttr(op, "beta") && findAttr(op, "beta")->f() != 1.0f)))
    return std::nullopt;
  // Output channels: the weight's last axis (MatMul, Gemm), or its first
  // (Conv, Gemm with B^T).
  const bool firstAxis = t == "Conv" || transB;
  if (!paramsFit(ix, *b, firstAxis ? 0 : -1))
    return std::nullopt;
  auto as = floats(ix, a->input(1)), bs = floats(ix, b->input(1));
  if (!as || !bs)
    return std::nullopt;
  const std::string prefix =
      (op.name().empty() ? op.output(0) : op.name()) + "/qdq";
  Fused f;
  std::string weight = b->input(0);
  if (transB) { // B [N, K] as the [K, N] MatMulInteger reads
    auto bytes = decodeTensor(*bq);
    if (!bytes) {
      llvm::consumeError(bytes.takeError());
      return std::nullopt;
    }
    const int64_t rows = bq->dims(0), cols = bq->dims(1);
    onnx::TensorProto w;
    w.set_name(prefix + "/wT");
    w.set_data_type(onnx::TensorProto::INT8);
    w.add_dims(cols);
    w.add_dims(rows);
    std::string raw(size_t(rows * cols), '\0');
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        raw[size_t(c * rows + r)] = bytes->bytes()[size_t(r * cols + c)];
    w.set_raw_data(raw);
    f.initializers.push_back(std::move(w));
    weight = prefix + "/wT";
  }
  onnx::NodeProto integer = makeNode(
      t == "Conv" ? "ConvInteger" : "MatMulInteger", prefix + "/int",
      {a->input(0), weight, a->input(2), b->input(2)}, prefix + "/acc");
  if (t == "Conv")
    for (const auto &attr : op.attribute())
      *integer.add_attribute() = attr;
  f.nodes.push_back(std::move(integer));
  onnx::NodeProto toFloat =
      makeNode("Cast", prefix + "/float", {prefix + "/acc"}, prefix + "/accf");
  onnx::AttributeProto *to = toFloat.add_attribute();
  to->set_name("to");
  to->set_type(onnx::AttributeProto::INT);
  to->set_i(onnx::TensorProto::FLOAT);
  f.nodes.push_back(std::move(toFloat));
  // a_scale * b_scale, per output channel where b's scale is; a Conv's
  // as [M, 1, 1] against its [N, M, H, W] result.
  std::vector<double> scale(bs->size());
  for (size_t i = 0; i < bs->size(); ++i)
    scale[i] = double(float((*as)[0]) * float((*bs)[i]));
  std::vector<int64_t> dims;
  if (bs->size() > 1) {
    dims.push_back(int64_t(bs->size()));
    if (t == "Conv")
      for (int i = 2; i < bq->dims_size(); ++i)
        dims.push_back(1);
  }
  f.initializers.push_back(floatTensor(prefix + "/scale", dims, scale));
  bool hasBias = op.input_size() > 2 && !op.input(2).empty();
  const std::string product = hasBias ? prefix + "/y" : op.output(0);
  f.nodes.push_back(makeNode("Mul", prefix + "/scaled",
                             {prefix + "/accf", prefix + "/scale"}, product));
  if (hasBias) {
    std::string bias = op.input(2);
    if (t == "Conv") { // [M] against [N, M, H, W]
      std::vector<int64_t> shape = {-1};
      for (int i = 2; i < bq->dims_size(); ++i)
        shape.push_back(1);
      f.initializers.push_back(int64s(prefix + "/bias_shape", shape));
      f.nodes.push_back(makeNode("Reshape", prefix + "/bias",
                                 {bias, prefix + "/bias_shape"},
                                 prefix + "/bias"));
      bias = prefix + "/bias";
    }
    f.nodes.push_back(
        makeNode("Add", prefix + "/add", {product, bias}, op.output(0)));
  }
  return f;
}

} // namespace

unsigned fuseQdqChains(onnx::GraphProto &g) {
  GraphIndex ix(g);
  std::set<int> drop;
  std::map<int, Fused> replaced;
  for (int i = 0; i < g.node_size(); ++i) {
    const onnx::NodeProto &q = g.node(i);
    if (!isDefault(q) || q.op_type() != "QuantizeLinear" || q.input_size() < 1)
      continue;
    auto p = ix.producer.find(q.input(0));
    if (p == ix.producer.end() || ix.uses.lookup(q.input(0)) != 1)
      continue;
    const onnx::NodeProto &op = g.node(p->second);
    if (!isDefault(op) || op.output_size() != 1)
      continue;
    auto f = fuse(ix, g, op, q);
    if (!f)
      continue;
    // The fused nodes take the QuantizeLinear's place: every input they
    // read is defined before that.
    drop.insert(p->second);
    replaced[i] = std::move(*f);
  }
  // Products whose float result is not quantised again (or whose chain
  // did not fit exactly) take the place of the op itself.
  for (int i = 0; i < g.node_size(); ++i) {
    const onnx::NodeProto &op = g.node(i);
    if (drop.count(i) || !isDefault(op))
      continue;
    if (auto f = fuseToFloat(ix, g, op)) {
      drop.insert(i);
      replaced[i] = std::move(*f);
    }
  }
  if (replaced.empty())
    return 0;
  // Remove the float ops, then DequantizeLinear nodes nothing reads now.
  auto rebuild = [&](const std::set<int> &gone) {
    google::protobuf::RepeatedPtrField<onnx::NodeProto> kept;
    for (int i = 0; i < g.node_size(); ++i) {
      auto r = replaced.find(i);
      if (r != replaced.end())
        for (onnx::NodeProto &n : r->second.nodes)
          *kept.Add() = std::move(n);
      else if (!gone.count(i))
        *kept.Add() = std::move(*g.mutable_node(i));
    }
    g.mutable_node()->Swap(&kept);
  };
  for (auto &[i, f] : replaced)
    for (onnx::TensorProto &t : f.initializers)
      *g.add_initializer() = std::move(t);
  unsigned fused = unsigned(replaced.size());
  rebuild(drop);
  replaced.clear();
  GraphIndex after(g);
  std::set<int> dead;
  for (int i = 0; i < g.node_size(); ++i)
    if (g.node(i).op_type() == "DequantizeLinear" && isDefault(g.node(i)) &&
        after.uses.lookup(g.node(i).output(0)) == 0)
      dead.insert(i);
  rebuild(dead);
  return fused;
}

} // namespace lpx::onnximport
