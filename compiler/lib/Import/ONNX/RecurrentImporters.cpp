//===- RecurrentImporters.cpp - RNN, GRU and LSTM by unrolling ------------===//
//
// The sequence length is static, so a recurrent node is unrolled at import
// into existing lpx_graph ops, following the ONNX operator spec's equations
// (gate order: GRU z, r, h; LSTM i, o, f, c; peepholes i, o, f):
//
//  - once per direction: the weights transposed (W^T: [input, gates*hidden],
//    R^T: [hidden, gates*hidden]; a constant weight is transposed at compile
//    time), and the input projection of every step in one MatMul,
//    X [seq, batch, input] x W^T, plus the biases that are added outside the
//    recurrence (Wb + Rb; for GRU with linear_before_reset, Rbh stays in the
//    step);
//  - per step: a Slice of that projection, the recurrent MatMul H x R^T,
//    Adds, the gate activations and the elementwise gate equations
//    (rnnStep, gruStep, lstmStep below);
//  - the outputs: Y is a Concat of the steps ([seq, dirs, batch, hidden]),
//    Y_h (and Y_c) the last state of each direction; layout 1 transposes
//    X, the initial states and the outputs.
//
// A constant sequence_lens masks the steps past a batch entry's length with
// Where: Y is zero there and the state is carried unchanged, so Y_h holds the
// last valid step. The reverse direction of entries shorter than the sequence
// runs over X permuted per entry (a Gather: step s reads time len-1-s) and
// permutes its Y back the same way. An entry of length 0 keeps its initial
// state (Y_h = initial_h) and has zeros in Y.
//
// input_forget couples the gates as ft = 1 - it (onnxruntime's reading; the
// spec only says "couple").
//
// `clip` bounds the input of every activation to [-clip, clip]. The
// activation parameters (activation_alpha / activation_beta) are consumed in
// order by the activations that take them (as onnxruntime does); absent
// ones take the defaults of the ONNX operator of that name.
//
//===----------------------------------------------------------------------===//
#include "OpImporters.h"
#include "Tensors.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Dialect/Graph/IR/WeightBlobs.h"

#include "llvm/ADT/StringExtras.h"

#include <cstring>
#include <map>

using namespace mlir;
using namespace lpx::graph;

namespace lpx::onnximport {
namespace {

enum class Cell { RNN, GRU, LSTM };

/// One activation function with its parameters resolved.
struct Activation {
  std::string name; // canonical ONNX spelling
  double alpha = 0, beta = 0;
};

/// The recurrence of one direction, as the unrolled steps need it.
struct Direction {
  bool reverse = false;
  Value rt;  // R^T [hidden, gates*hidden] (GRU without lbr: z and r only)
  Value rhT; // GRU without linear_before_reset: Rh^T [hidden, hidden]
  Value rbh;                // GRU with linear_before_reset: Rbh [1, hidden]
  Value pi, po, pf;         // LSTM peepholes [1, hidden], null if absent
  Value h0, c0;             // initial states [batch, hidden]
  std::vector<Activation> acts; // f (, g (, h))
};

class Unroller {
public:
  Unroller(NodeContext &n, Cell cell) : n(n), cell(cell) {}
  LogicalResult run();

private:
  NodeContext &n;
  Cell cell;
  int64_t perDir = 1; // activations per direction
  std::string direction = "forward";
  Value x, w, r, bias, peep; // bias and peepholes may be null
  Value h0, c0;              // initial states as given; may be null
  std::vector<Activation> acts;
  /// The outputs by direction: Y [seq, 1, batch, hidden], Y_h and Y_c
  /// [batch, hidden].
  SmallVector<Value> ySeqs, hLast, cLast;

  // --- the steps of run() -------------------------------------------------
  LogicalResult readShapesAndAttributes();
  LogicalResult readSequenceLens();
  LogicalResult readOptionalInputs();
  FailureOr<Direction> prepareDirection(int64_t d, Value xs, Value &xw);
  void unrollDirection(const Direction &dir, Value xw, bool wantY);
  Value permuteSteps(Value v, ArrayRef<int64_t> perm, ArrayRef<int64_t> shape);
  void setOutputs(bool wantY);
  Type elt;
  int64_t seq = 0, batch = 0, inputSize = 0, hidden = 0, dirs = 1;
  int64_t gates = 1;
  bool layout1 = false, lbr = false, inputForget = false;
  std::optional<double> clip;
  std::vector<int64_t> lens; // per batch entry; all `seq` when absent

  // --- small builders -----------------------------------------------------
  Value splat(ArrayRef<int64_t> shape, double v) {
    auto t = n.tensorOf(shape, elt);
    return n.create<ConstantOp>(DenseElementsAttr::get(t, FloatAttr::get(elt, v)));
  }
  /// A scalar constant, built once per value.
  Value scalar(double v) {
    Value &c = scalars[v];
    if (!c)
      c = splat({}, v);
    return c;
  }
  std::map<double, Value> scalars;
  /// The cell equations read as expressions: run() fails when one of
  /// their ops was rejected.
  ExpressionBuilder expr{n};
  template <typename OpT, typename... Args>
  Value build(Value fallback, Args &&...args) {
    return expr.build<OpT>(fallback, std::forward<Args>(args)...);
  }
  Value binary(char op, Value a, Value b) {
    return op == '+'   ? build<AddOp>(a, a, b)
           : op == '-' ? build<SubOp>(a, a, b)
                       : build<MulOp>(a, a, b);
  }
  Value add(Value a, Value b) { return binary('+', a, b); }
  Value sub(Value a, Value b) { return binary('-', a, b); }
  Value mul(Value a, Value b) { return binary('*', a, b); }
  Value matmul(Value a, Value b) { return build<MatMulOp>(a, a, b); }
  /// Unit-step slice of `v` at `starts` with result shape `sizes`.
  Value slice(Value v, ArrayRef<int64_t> starts, ArrayRef<int64_t> sizes) {
    SmallVector<int64_t> steps(starts.size(), 1);
    auto t = n.typeOf(v);
    return n.create<SliceOp>(n.tensorOf(sizes, t.getElementType()), v,
                             n.builder().getDenseI64ArrayAttr(starts),
                             n.builder().getDenseI64ArrayAttr(steps));
  }
  /// Columns [start, start+count) of a 2-D value.
  Value cols(Value v, int64_t start, int64_t count) {
    return slice(v, {0, start}, {n.typeOf(v).getDimSize(0), count});
  }
  /// Row `d` of a 2-D [dirs, k] value, columns [start, start+count): [1, count].
  Value rowPart(Value v, int64_t d, int64_t start, int64_t count) {
    return slice(v, {d, start}, {1, count});
  }
  /// Direction `d` of a 3-D [dirs, batch, hidden] state: [batch, hidden].
  Value stateOf(Value v, int64_t d) {
    auto s = n.typeOf(v).getShape();
    return n.reshape(slice(v, {d, 0, 0}, {1, s[1], s[2]}), {s[1], s[2]});
  }
  Value transpose(Value v, ArrayRef<int64_t> perm) {
    return build<TransposeOp>(v, v, perm);
  }

  Value unary(Value x, llvm::StringRef fn, ArrayRef<double> params) {
    return n.create<UnaryFnOp>(x.getType(), x, n.builder().getStringAttr(fn),
                               n.builder().getDenseF64ArrayAttr(params));
  }
  /// `a` applied to `x`, after the clip when the node has one.
  Value activate(const Activation &a, Value x);

  // --- operands -------------------------------------------------------------
  FailureOr<std::vector<Activation>> activations(int64_t perDir);
  /// Rows [row, row+count) of direction `d` of weight input `i`
  /// ([dirs, gates*hidden, k]), transposed: [k, count]. A constant is
  /// transposed at compile time.
  FailureOr<Value> weightT(unsigned i, int64_t d, int64_t row, int64_t count);
  /// Input `i` as [dirs, batch, hidden] (layout 1 transposed), or null.
  FailureOr<Value> initialState(unsigned i);

  // --- the gate equations, one step each ------------------------------------
  /// Ht = f(Xt*Wi^T + Ht-1*Ri^T + Wbi + Rbi); `xw` holds the input part.
  Value rnnStep(const Direction &dir, Value xw, Value h);
  /// zt, rt, ht and Ht = (1 - zt) (.) ht + zt (.) Ht-1.
  Value gruStep(const Direction &dir, Value xw, Value h);
  /// it, ft, ct, Ct, ot and Ht = ot (.) h(Ct); returns {Ht, Ct}.
  std::pair<Value, Value> lstmStep(const Direction &dir, Value xw, Value h,
                                   Value c);

  /// Where batch entries are active at step `s` (s < len) keep `fresh`,
  /// elsewhere `old` (a null `old` means zero).
  Value masked(int64_t s, Value fresh, Value old);
};

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

//===----------------------------------------------------------------------===//
// Gate equations
//===----------------------------------------------------------------------===//

Value Unroller::rnnStep(const Direction &dir, Value xw, Value h) {
  return activate(dir.acts[0], add(xw, matmul(h, dir.rt)));
}

Value Unroller::gruStep(const Direction &dir, Value xw, Value h) {
  const Activation &f = dir.acts[0], &g = dir.acts[1];
  // zt = f(Xt*Wz^T + Ht-1*Rz^T + Wbz + Rbz), rt likewise.
  // With linear_before_reset, Ht-1*R^T of all three gates is one MatMul.
  Value hr = matmul(h, dir.rt);
  Value zr = add(cols(xw, 0, 2 * hidden), lbr ? cols(hr, 0, 2 * hidden) : hr);
  Value z = activate(f, cols(zr, 0, hidden));
  Value r = activate(f, cols(zr, hidden, hidden));
  Value xh = cols(xw, 2 * hidden, hidden); // Xt*Wh^T + Wbh (+ Rbh)
  Value ht;
  if (lbr) // ht = g(Xt*Wh^T + (rt (.) (Ht-1*Rh^T + Rbh)) + Wbh)
    ht = activate(g, add(xh, mul(r, add(cols(hr, 2 * hidden, hidden), dir.rbh))));
  else // ht = g(Xt*Wh^T + (rt (.) Ht-1)*Rh^T + Rbh + Wbh)
    ht = activate(g, add(xh, matmul(mul(r, h), dir.rhT)));
  // Ht = (1 - zt) (.) ht + zt (.) Ht-1
  return add(mul(sub(scalar(1.0), z), ht), mul(z, h));
}

std::pair<Value, Value> Unroller::lstmStep(const Direction &dir, Value xw,
                                           Value h, Value c) {
  const Activation &f = dir.acts[0], &g = dir.acts[1], &hAct = dir.acts[2];
  Value all = add(xw, matmul(h, dir.rt)); // gates i, o, f, c
  // it = f(Xt*Wi^T + Ht-1*Ri^T + Pi (.) Ct-1 + Wbi + Rbi)
  Value iPre = cols(all, 0, hidden);
  if (dir.pi)
    iPre = add(iPre, mul(dir.pi, c));
  Value it = activate(f, iPre);
  // ft = f(Xt*Wf^T + Ht-1*Rf^T + Pf (.) Ct-1 + Wbf + Rbf), or 1 - it when
  // the input and forget gates are coupled.
  Value ft;
  if (inputForget) {
    ft = sub(scalar(1.0), it);
  } else {
    Value fPre = cols(all, 2 * hidden, hidden);
    if (dir.pf)
      fPre = add(fPre, mul(dir.pf, c));
    ft = activate(f, fPre);
  }
  // ct = g(Xt*Wc^T + Ht-1*Rc^T + Wbc + Rbc)
  Value ct = activate(g, cols(all, 3 * hidden, hidden));
  // Ct = ft (.) Ct-1 + it (.) ct
  Value cNew = add(mul(ft, c), mul(it, ct));
  // ot = f(Xt*Wo^T + Ht-1*Ro^T + Po (.) Ct + Wbo + Rbo)
  Value oPre = cols(all, hidden, hidden);
  if (dir.po)
    oPre = add(oPre, mul(dir.po, cNew));
  Value ot = activate(f, oPre);
  // Ht = ot (.) h(Ct)
  return {mul(ot, activate(hAct, cNew)), cNew};
}

Value Unroller::masked(int64_t s, Value fresh, Value old) {
  std::vector<char> active(batch);
  bool all = true;
  for (int64_t b = 0; b < batch; ++b) {
    active[b] = s < lens[b];
    all = all && active[b];
  }
  if (all)
    return fresh;
  auto mt = n.tensorOf({batch, 1}, n.builder().getI1Type());
  SmallVector<bool> bits(active.begin(), active.end());
  Value m = n.create<ConstantOp>(DenseElementsAttr::get(mt, ArrayRef<bool>(bits)));
  if (!old)
    old = scalar(0.0);
  return n.create<WhereOp>(fresh.getType(), m, fresh, old);
}

//===----------------------------------------------------------------------===//
// The node
//===----------------------------------------------------------------------===//

LogicalResult Unroller::run() {
  if (failed(readShapesAndAttributes()) || failed(readSequenceLens()))
    return failure();
  auto a = activations(perDir);
  if (failed(a) || failed(readOptionalInputs()))
    return failure();
  acts = std::move(*a);

  bool wantY = n.node.output_size() > 0 && !n.node.output(0).empty();
  Value xs = layout1 ? transpose(x, {1, 0, 2}) : x; // [seq, batch, input]
  for (int64_t d = 0; d < dirs; ++d) {
    Value xw;
    auto dir = prepareDirection(d, xs, xw);
    if (failed(dir))
      return failure();
    unrollDirection(*dir, xw, wantY);
  }
  setOutputs(wantY);
  return failure(expr.rejected());
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

/// `v` ([seq, ..., batch, width]) with its (step, batch entry) rows
/// gathered by `perm`, reshaped to `shape`.
Value Unroller::permuteSteps(Value v, ArrayRef<int64_t> perm,
                             ArrayRef<int64_t> shape) {
  auto it = n.tensorOf({seq * batch}, n.builder().getI64Type());
  Value idx = n.create<ConstantOp>(DenseElementsAttr::get(it, perm));
  Value flat = n.reshape(v, {seq * batch, shape.back()});
  return n.reshape(n.create<GatherOp>(flat.getType(), flat, idx,
                                      n.builder().getI64IntegerAttr(0)),
                   shape);
}

/// The steps of one direction; appends its Y, Y_h and Y_c.
void Unroller::unrollDirection(const Direction &dir, Value xw, bool wantY) {
  int64_t gh = gates * hidden;
  bool uniform = llvm::all_equal(lens);
  int64_t uniformLen = lens.empty() ? seq : lens[0];
  // Step s reads time timeOf(s) of `xw`. Reverse steps of entries of
  // different lengths read X permuted per entry (time len-1-s, padding in
  // place), and Y is permuted back with the same (self-inverse) Gather.
  bool permuted = dir.reverse && !uniform;
  SmallVector<int64_t> perm;
  if (permuted) {
    for (int64_t s = 0; s < seq; ++s)
      for (int64_t b = 0; b < batch; ++b)
        perm.push_back((s < lens[b] ? lens[b] - 1 - s : s) * batch + b);
    xw = permuteSteps(xw, perm, {seq, batch, gh});
  }
  auto timeOf = [&](int64_t s) {
    if (!dir.reverse || permuted)
      return s;
    return uniformLen - 1 - s;
  };

  Value h = dir.h0, c = dir.c0;
  SmallVector<Value> yAt(seq); // [batch, hidden] by time position
  int64_t maxLen = *llvm::max_element(lens);
  for (int64_t s = 0; s < maxLen; ++s) {
    int64_t t = timeOf(s);
    Value xwT = n.reshape(slice(xw, {t, 0, 0}, {1, batch, gh}), {batch, gh});
    Value hNew, cNew;
    switch (cell) {
    case Cell::RNN: hNew = rnnStep(dir, xwT, h); break;
    case Cell::GRU: hNew = gruStep(dir, xwT, h); break;
    case Cell::LSTM: std::tie(hNew, cNew) = lstmStep(dir, xwT, h, c); break;
    }
    if (wantY)
      yAt[t] = masked(s, hNew, Value());
    h = masked(s, hNew, h);
    if (cNew)
      c = masked(s, cNew, c);
  }
  hLast.push_back(h);
  cLast.push_back(c);
  if (!wantY)
    return;

  SmallVector<Value> parts;
  for (int64_t t = 0; t < seq; ++t)
    parts.push_back(yAt[t] ? n.reshape(yAt[t], {1, 1, batch, hidden})
                           : splat({1, 1, batch, hidden}, 0.0));
  Value y = parts.size() == 1
                ? parts[0]
                : build<ConcatOp>(parts[0], parts,
                                  n.builder().getI64IntegerAttr(0));
  if (permuted)
    y = permuteSteps(y, perm, {seq, 1, batch, hidden});
  ySeqs.push_back(y);
}

/// Y [seq, dirs, batch, hidden] (layout 1: [batch, seq, dirs, hidden]);
/// Y_h, Y_c [dirs, batch, hidden] (layout 1: [batch, dirs, hidden]).
void Unroller::setOutputs(bool wantY) {
  if (wantY) {
    Value y = ySeqs.size() == 1
                  ? ySeqs[0]
                  : build<ConcatOp>(ySeqs[0], ySeqs,
                                    n.builder().getI64IntegerAttr(1));
    if (layout1)
      y = transpose(y, {2, 0, 1, 3});
    else if (y.getDefiningOp<ConstantOp>())
      y = n.copy(y); // every step past the lengths: an output, not a constant
    n.setOutput(0, y);
  }
  auto lastStates = [&](ArrayRef<Value> states) {
    if (layout1 && dirs == 1) // [batch, 1, hidden]: the same bytes
      return n.reshape(states[0], {batch, 1, hidden});
    SmallVector<Value> parts;
    for (Value v : states)
      parts.push_back(n.reshape(v, {1, batch, hidden}));
    Value all = parts.size() == 1
                    ? parts[0]
                    : build<ConcatOp>(parts[0], parts,
                                      n.builder().getI64IntegerAttr(0));
    return layout1 ? transpose(all, {1, 0, 2}) : all;
  };
  if (n.node.output_size() > 1 && !n.node.output(1).empty())
    n.setOutput(1, lastStates(hLast));
  if (cell == Cell::LSTM && n.node.output_size() > 2 &&
      !n.node.output(2).empty())
    n.setOutput(2, lastStates(cLast));
}

LogicalResult importRNN(NodeContext &n) { return Unroller(n, Cell::RNN).run(); }
LogicalResult importGRU(NodeContext &n) { return Unroller(n, Cell::GRU).run(); }
LogicalResult importLSTM(NodeContext &n) {
  return Unroller(n, Cell::LSTM).run();
}

} // namespace

void addRecurrentImporters(llvm::StringMap<OpImporter> &table) {
  table["RNN"] = importRNN;
  table["GRU"] = importGRU;
  table["LSTM"] = importLSTM;
}

} // namespace lpx::onnximport
