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
#include "RecurrentUnroller.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Dialect/Graph/IR/WeightBlobs.h"

#include "llvm/ADT/StringExtras.h"

#include <cstring>
#include <map>

using namespace mlir;
using namespace lpx::graph;

using namespace lpx::onnximport::recurrent;

namespace lpx::onnximport {
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

namespace {

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
