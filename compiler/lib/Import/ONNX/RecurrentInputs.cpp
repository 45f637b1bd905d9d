//===- RecurrentInputs.cpp - A recurrent node's inputs, read and prepared -===//
//
// The activations with their parameters, the weights transposed per
// direction, the initial states, the shapes and attributes, sequence_lens,
// and each direction's input projection (RecurrentUnroller.h).
//
//===----------------------------------------------------------------------===//
#include "RecurrentUnroller.h"

#include "lpx/Dialect/Graph/IR/WeightBlobs.h"

#include "llvm/ADT/StringExtras.h"

#include <cstring>

using namespace mlir;
using namespace lpx::graph;
using namespace lpx::onnximport;
using namespace lpx::onnximport::recurrent;

namespace {
//===----------------------------------------------------------------------===//
// Activations
//===----------------------------------------------------------------------===//

/// ONNX activation names, their parameter use and defaults.
struct ActivationInfo {
  const char *name;
  bool alpha, beta;
  double dAlpha, dBeta;
};
constexpr ActivationInfo kActivations[] = {
    {"Relu", false, false, 0, 0},
    {"Tanh", false, false, 0, 0},
    {"Sigmoid", false, false, 0, 0},
    {"Affine", true, true, 1.0, 0.0},
    {"LeakyRelu", true, false, 0.01, 0},
    {"ThresholdedRelu", true, false, 1.0, 0},
    {"ScaledTanh", true, true, 1.0, 1.0},
    {"HardSigmoid", true, true, 0.2, 0.5},
    {"Elu", true, false, 1.0, 0},
    {"Softsign", false, false, 0, 0},
    {"Softplus", false, false, 0, 0},
};
} // namespace

FailureOr<std::vector<Activation>> Unroller::activations(int64_t perDir) {
  std::vector<std::string> names;
  if (const onnx::AttributeProto *a = n.attr("activations"))
    for (const std::string &s : a->strings())
      names.push_back(s);
  if (names.empty()) {
    switch (cell) {
    case Cell::RNN: names = {"Tanh"}; break;
    case Cell::GRU: names = {"Sigmoid", "Tanh"}; break;
    case Cell::LSTM: names = {"Sigmoid", "Tanh", "Tanh"}; break;
    }
  }
  if (int64_t(names.size()) == perDir && dirs == 2) {
    std::vector<std::string> forward = names; // the same for both directions
    names.insert(names.end(), forward.begin(), forward.end());
  }
  if (int64_t(names.size()) != perDir * dirs) {
    (void)n.fail("activations lists " + llvm::Twine(names.size()) +
                 " functions, expected " + llvm::Twine(perDir * dirs) + " (" +
                 llvm::Twine(perDir) + " per direction)");
    return failure();
  }
  std::vector<float> alphas, betas;
  if (const onnx::AttributeProto *a = n.attr("activation_alpha"))
    alphas.assign(a->floats().begin(), a->floats().end());
  if (const onnx::AttributeProto *a = n.attr("activation_beta"))
    betas.assign(a->floats().begin(), a->floats().end());
  size_t ai = 0, bi = 0;
  std::vector<Activation> out;
  for (const std::string &name : names) {
    const ActivationInfo *info = nullptr;
    for (const ActivationInfo &k : kActivations)
      if (llvm::StringRef(name).equals_insensitive(k.name))
        info = &k;
    if (!info) {
      (void)n.fail("activation '" + name +
                   "' is not supported (supported: Relu, Tanh, Sigmoid, "
                   "Affine, LeakyRelu, ThresholdedRelu, ScaledTanh, "
                   "HardSigmoid, Elu, Softsign, Softplus)");
      return failure();
    }
    Activation act{info->name, info->dAlpha, info->dBeta};
    if (info->alpha && ai < alphas.size())
      act.alpha = alphas[ai++];
    if (info->beta && bi < betas.size())
      act.beta = betas[bi++];
    out.push_back(act);
  }
  return out;
}

Value Unroller::activate(const Activation &a, Value x) {
  if (clip)
    x = unary(x, "clip", {-*clip, *clip});
  llvm::StringRef name = a.name;
  auto t = x.getType();
  if (name == "Relu")
    return n.create<ReluOp>(t, x);
  if (name == "Tanh")
    return n.create<TanhOp>(t, x);
  if (name == "Sigmoid")
    return n.create<SigmoidOp>(t, x);
  if (name == "Affine")
    return add(mul(x, scalar(a.alpha)), scalar(a.beta));
  if (name == "ScaledTanh")
    return mul(n.create<TanhOp>(t, mul(x, scalar(a.beta))), scalar(a.alpha));
  if (name == "LeakyRelu")
    return unary(x, "leaky_relu", {a.alpha});
  if (name == "ThresholdedRelu")
    return unary(x, "thresholded_relu", {a.alpha});
  if (name == "HardSigmoid")
    return unary(x, "hard_sigmoid", {a.alpha, a.beta});
  if (name == "Elu")
    return unary(x, "elu", {a.alpha});
  if (name == "Softsign")
    return unary(x, "softsign", {});
  return unary(x, "softplus", {}); // the list is closed (activations())
}

//===----------------------------------------------------------------------===//
// Operands
//===----------------------------------------------------------------------===//

FailureOr<Value> Unroller::weightT(unsigned i, int64_t d, int64_t row,
                                   int64_t count) {
  auto w = n.input(i);
  if (failed(w))
    return failure();
  auto s = n.typeOf(*w).getShape(); // [dirs, rows, k]
  int64_t rows = s[1], k = s[2];
  auto type = n.tensorOf({k, count}, elt);
  if (auto c = w->getDefiningOp<ConstantOp>()) {
    auto dense = llvm::dyn_cast<DenseElementsAttr>(c.getValue());
    if (dense && dense.isSplat())
      return Value(n.create<ConstantOp>(
          DenseElementsAttr::get(type, dense.getSplatValue<Attribute>())));
    // Dense or in a blob (WeightBlobs.h); the result is of the same kind.
    if (std::optional<ArrayRef<char>> raw = weightBytes(c.getValue())) {
      size_t eb = elt.getIntOrFloatBitWidth() / 8;
      auto fill = [&](MutableArrayRef<char> out) {
        for (int64_t r = 0; r < count; ++r)
          for (int64_t c2 = 0; c2 < k; ++c2)
            std::memcpy(&out[size_t(c2 * count + r) * eb],
                        &(*raw)[size_t((d * rows + row + r) * k + c2) * eb], eb);
      };
      return Value(n.create<ConstantOp>(deriveWeight(
          c.getValue(), type,
          ".d" + llvm::Twine(d) + ".r" + llvm::Twine(row) + ".T", fill)));
    }
  }
  Value part = n.reshape(slice(*w, {d, row, 0}, {1, count, k}), {count, k});
  return transpose(part, {1, 0});
}

FailureOr<Value> Unroller::initialState(unsigned i) {
  if (!n.hasInput(i))
    return Value();
  auto v = n.input(i);
  if (failed(v))
    return failure();
  SmallVector<int64_t> want = layout1 ? SmallVector<int64_t>{batch, dirs, hidden}
                                      : SmallVector<int64_t>{dirs, batch, hidden};
  auto t = n.typeOf(*v);
  if (t.getShape() != ArrayRef<int64_t>(want) || t.getElementType() != elt) {
    (void)n.fail("input " + llvm::Twine(i) + " '" + n.node.input(i) +
                 "' should be " + shapeString(want) + " of X's type, got " +
                 shapeString(t.getShape()));
    return failure();
  }
  return layout1 ? transpose(*v, {1, 0, 2}) : *v;
}

/// X, W and R, their shapes, and the attributes: layout, hidden_size,
/// direction, clip, linear_before_reset, input_forget.
LogicalResult Unroller::readShapesAndAttributes() {
  gates = cell == Cell::RNN ? 1 : cell == Cell::GRU ? 3 : 4;
  perDir = cell == Cell::RNN ? 1 : cell == Cell::GRU ? 2 : 3;
  auto xv = n.input(0), wv = n.input(1), rv = n.input(2);
  if (failed(xv) || failed(wv) || failed(rv))
    return failure();
  x = *xv, w = *wv, r = *rv;
  auto xt = n.typeOf(x), wt = n.typeOf(w), rt = n.typeOf(r);
  elt = xt.getElementType();
  if (!llvm::isa<FloatType>(elt))
    return n.fail("X must be a floating-point tensor");
  if (wt.getElementType() != elt || rt.getElementType() != elt)
    return n.fail("W and R must have X's element type");
  if (xt.getRank() != 3 || wt.getRank() != 3 || rt.getRank() != 3)
    return n.fail("X, W and R must be 3-D, got " + shapeString(xt.getShape()) +
                  ", " + shapeString(wt.getShape()) + " and " +
                  shapeString(rt.getShape()));

  int64_t layout = n.intAttr("layout", 0);
  if (layout != 0 && layout != 1)
    return n.fail("layout " + llvm::Twine(layout) + " is not 0 or 1");
  layout1 = layout == 1;
  seq = xt.getDimSize(layout1 ? 1 : 0);
  batch = xt.getDimSize(layout1 ? 0 : 1);
  inputSize = xt.getDimSize(2);
  hidden = n.intAttr("hidden_size", rt.getDimSize(2));

  if (const onnx::AttributeProto *a = n.attr("direction"))
    direction = a->s();
  if (direction != "forward" && direction != "reverse" &&
      direction != "bidirectional")
    return n.fail("direction '" + direction +
                  "' is not forward, reverse or bidirectional");
  dirs = direction == "bidirectional" ? 2 : 1;

  SmallVector<int64_t> wWant{dirs, gates * hidden, inputSize};
  SmallVector<int64_t> rWant{dirs, gates * hidden, hidden};
  if (wt.getShape() != ArrayRef<int64_t>(wWant))
    return n.fail("W should be " + shapeString(wWant) + ", got " +
                  shapeString(wt.getShape()));
  if (rt.getShape() != ArrayRef<int64_t>(rWant))
    return n.fail("R should be " + shapeString(rWant) + ", got " +
                  shapeString(rt.getShape()));

  if (const onnx::AttributeProto *a = n.attr("clip")) {
    if (!(a->f() >= 0))
      return n.fail("clip " + std::to_string(a->f()) + " must be non-negative");
    clip = double(a->f());
  }
  lbr = cell == Cell::GRU && n.intAttr("linear_before_reset", 0) != 0;
  inputForget = cell == Cell::LSTM && n.intAttr("input_forget", 0) != 0;
  return success();
}

/// sequence_lens: a compile-time constant, one length per batch entry.
LogicalResult Unroller::readSequenceLens() {
  lens.assign(batch, seq);
  if (!n.hasInput(4))
    return success();
  auto l = n.constInts(4);
  if (failed(l))
    return failure();
  if (int64_t(l->size()) != batch)
    return n.fail("sequence_lens has " + llvm::Twine(l->size()) +
                  " entries, the batch is " + llvm::Twine(batch));
  for (int64_t v : *l)
    if (v < 0 || v > seq)
      return n.fail("sequence_lens value " + llvm::Twine(v) +
                    " is outside [0, " + llvm::Twine(seq) + "]");
  lens = *l;
  return success();
}

/// B, P (LSTM), initial_h and initial_c (LSTM), each optional.
LogicalResult Unroller::readOptionalInputs() {
  auto optional = [&](unsigned i, const char *what,
                      SmallVector<int64_t> want) -> FailureOr<Value> {
    if (!n.hasInput(i))
      return Value();
    auto v = n.input(i);
    if (failed(v))
      return failure();
    if (n.typeOf(*v).getShape() != ArrayRef<int64_t>(want) ||
        n.typeOf(*v).getElementType() != elt)
      return n.fail(llvm::Twine(what) + " should be " + shapeString(want) +
                    " of X's type, got " + shapeString(n.typeOf(*v).getShape()));
    return *v;
  };
  auto b = optional(3, "B", {dirs, 2 * gates * hidden});
  if (failed(b))
    return failure();
  bias = *b;
  if (cell == Cell::LSTM) {
    auto p = optional(7, "P", {dirs, 3 * hidden});
    if (failed(p))
      return failure();
    peep = *p;
  }
  auto h = initialState(5);
  if (failed(h))
    return failure();
  h0 = *h;
  if (cell == Cell::LSTM) {
    auto c = initialState(6);
    if (failed(c))
      return failure();
    c0 = *c;
  }
  return success();
}

/// Direction `d`'s weights, biases, peepholes and initial states, and in
/// `xw` the input projection of all its steps (biases outside the
/// recurrence folded in).
FailureOr<Direction> Unroller::prepareDirection(int64_t d, Value xs,
                                                Value &xw) {
  Direction dir;
  dir.reverse = direction == "reverse" || d == 1;
  dir.acts.assign(acts.begin() + d * perDir, acts.begin() + (d + 1) * perDir);
  int64_t gh = gates * hidden;
  auto wT = weightT(1, d, 0, gh);
  if (failed(wT))
    return failure();
  xw = matmul(xs, *wT); // [seq, batch, gates*hidden]
  if (bias) {
    Value wb = rowPart(bias, d, 0, gh);
    Value b;
    if (lbr) // Rbh is added inside rt (.) (...)
      b = add(wb, build<ConcatOp>(wb,
                                  ValueRange{rowPart(bias, d, gh, 2 * hidden),
                                             splat({1, hidden}, 0.0)},
                                  n.builder().getI64IntegerAttr(1)));
    else
      b = add(wb, rowPart(bias, d, gh, gh));
    xw = add(xw, b);
    if (lbr)
      dir.rbh = rowPart(bias, d, gh + 2 * hidden, hidden);
  }
  if (lbr && !dir.rbh)
    dir.rbh = splat({1, hidden}, 0.0);
  if (cell == Cell::GRU && !lbr) {
    auto zr = weightT(2, d, 0, 2 * hidden), hh = weightT(2, d, 2 * hidden, hidden);
    if (failed(zr) || failed(hh))
      return failure();
    dir.rt = *zr;
    dir.rhT = *hh;
  } else {
    auto all = weightT(2, d, 0, gh);
    if (failed(all))
      return failure();
    dir.rt = *all;
  }
  if (peep) {
    dir.pi = rowPart(peep, d, 0, hidden);
    dir.po = rowPart(peep, d, hidden, hidden);
    dir.pf = rowPart(peep, d, 2 * hidden, hidden);
  }
  dir.h0 = h0 ? stateOf(h0, d) : splat({batch, hidden}, 0.0);
  if (cell == Cell::LSTM)
    dir.c0 = c0 ? stateOf(c0, d) : splat({batch, hidden}, 0.0);
  return dir;
}
