//===- ReductionImporters.cpp - reductions, softmax family, norms, losses -===//
#include "OpImporters.h"
#include "Tensors.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"

using namespace mlir;
using namespace lpx::graph;

//===----------------------------------------------------------------------===//
// Reductions, arg reductions, axis ops and normalisations.
//===----------------------------------------------------------------------===//

namespace lpx::onnximport {
namespace {

/// Normalised, sorted reduction axes: the `axes` attribute, or input 1 from
/// `inputFromOpset` on; all axes when none are given (unless `noop` says
/// that means none).
FailureOr<std::vector<int64_t>> reductionAxes(NodeContext &n, int64_t rank,
                                              int64_t inputFromOpset) {
  std::vector<int64_t> axes;
  if (n.opset() >= inputFromOpset) {
    if (n.hasInput(1)) {
      auto a = n.constInts(1);
      if (failed(a))
        return failure();
      axes = *a;
    }
  } else {
    axes = n.intsAttr("axes").value_or(std::vector<int64_t>{});
  }
  if (axes.empty()) {
    if (n.intAttr("noop_with_empty_axes", 0))
      return axes;
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  }
  return n.axes(std::move(axes), rank);
}

} // namespace

LogicalResult importReduceMean(NodeContext &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  // Opset 18 made `axes` an input; OpsetDowngrade.cpp rewrites it back.
  auto axes = reductionAxes(n, n.typeOf(*x).getRank(), 18);
  if (failed(axes))
    return failure();
  bool keepdims = n.intAttr("keepdims", 1) != 0;
  n.setOutput(0, axes->empty()
                     ? n.copy(*x)
                     : Value(n.create<ReduceMeanOp>(*x, *axes, keepdims)));
  return success();
}

namespace {

Value reduceOp(NodeContext &n, Value x, llvm::StringRef fn,
               ArrayRef<int64_t> axes, bool keepdims) {
  return n.create<ReduceOp>(x, fn, axes, keepdims);
}

LogicalResult importReduceFamily(NodeContext &n) {
  static const std::pair<const char *, const char *> kinds[] = {
      {"ReduceSum", "sum"},         {"ReduceMax", "max"},
      {"ReduceMin", "min"},         {"ReduceProd", "prod"},
      {"ReduceL1", "l1"},           {"ReduceL2", "l2"},
      {"ReduceLogSum", "log_sum"},  {"ReduceLogSumExp", "log_sum_exp"},
      {"ReduceSumSquare", "sum_square"}};
  llvm::StringRef fn;
  for (auto &[onnx, f] : kinds)
    if (n.node.op_type() == onnx)
      fn = f;
  auto x = n.input(0);
  if (fn.empty() || failed(x))
    return failure();
  auto t = n.typeOf(*x);
  if (t.getElementType().isInteger(1))
    return n.fail("reductions of bool are not supported");
  // ReduceSum took `axes` as an input from opset 13, the others from 18.
  auto axes =
      reductionAxes(n, t.getRank(), n.node.op_type() == "ReduceSum" ? 13 : 18);
  if (failed(axes))
    return failure();
  for (int64_t a : *axes)
    if (t.getDimSize(a) == 0)
      return n.fail("reduction over an empty dimension");
  bool keepdims = n.intAttr("keepdims", 1) != 0;
  n.setOutput(0, axes->empty() ? n.copy(*x)
                               : reduceOp(n, *x, fn, *axes, keepdims));
  return success();
}

/// Input 0 (rank 1 or more) and the node's `axis` attribute (`dflt` when
/// absent) normalised for it.
struct AxisOperand {
  Value x;
  int64_t axis;
};
FailureOr<AxisOperand> inputAndAxis(NodeContext &n, int64_t dflt) {
  auto x = n.inputOfRank(0, 1);
  if (failed(x))
    return failure();
  auto axis = n.axis(n.intAttr("axis", dflt), n.typeOf(*x).getRank(), "axis");
  if (failed(axis))
    return failure();
  return AxisOperand{*x, *axis};
}

LogicalResult importArgReduce(NodeContext &n) {
  auto in = inputAndAxis(n, 0);
  if (failed(in))
    return failure();
  bool keepdims = n.intAttr("keepdims", 1) != 0;
  n.setOutput(0, n.create<ArgReduceOp>(
                     in->x, n.node.op_type() == "ArgMax" ? "max" : "min",
                     in->axis, keepdims,
                     n.intAttr("select_last_index", 0) != 0));
  return success();
}

/// Softmax, LogSoftmax and Hardmax: one axis from opset 13; before that,
/// whole rows of the input flattened at `axis`.
LogicalResult importAxisNormalization(NodeContext &n) {
  bool coerce2D = n.opset() < 13;
  auto in = inputAndAxis(n, coerce2D ? 1 : -1);
  if (failed(in))
    return failure();
  Value x = in->x;
  int64_t axis = in->axis;
  auto type = n.typeOf(x);
  int64_t rank = type.getRank();
  llvm::StringRef op = n.node.op_type();
  auto make = [&](Value v, int64_t ax) -> FailureOr<Value> {
    auto a = n.builder().getI64IntegerAttr(ax);
    if (op == "Softmax")
      return n.create<SoftmaxOp>(v, a);
    if (op == "LogSoftmax")
      return n.create<LogSoftmaxOp>(v, a);
    return n.create<HardmaxOp>(v, a);
  };
  // The flattened form is the one-axis op only when `axis` is the last dim;
  // otherwise reshape around it.
  if (!coerce2D || axis == rank - 1)
    return n.setOutput(0, make(x, axis));
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < rank; ++d)
    (d < axis ? outer : inner) *= type.getDimSize(d);
  auto y = make(n.reshape(x, {outer, inner}), 1);
  if (failed(y))
    return failure();
  n.setOutput(0, n.reshape(*y, type.getShape()));
  return success();
}

LogicalResult importCumSum(NodeContext &n) {
  auto x = n.input(0);
  auto axisV = n.constInts(1);
  if (failed(x) || failed(axisV))
    return failure();
  if (axisV->size() != 1)
    return n.fail("axis must be a scalar");
  auto t = n.typeOf(*x);
  auto axis = n.axis((*axisV)[0], std::max<int64_t>(t.getRank(), 1), "axis");
  if (failed(axis))
    return failure();
  OpBuilder &b = n.builder();
  return n.setOutput(0, n.create<CumSumOp>(
                            *x, b.getI64IntegerAttr(*axis),
                            b.getBoolAttr(n.intAttr("exclusive", 0)),
                            b.getBoolAttr(n.intAttr("reverse", 0))));
}

/// A scalar constant of `elt`.
Value scalarConst(NodeContext &n, Type elt, double v) {
  auto t = RankedTensorType::get({}, elt);
  if (llvm::isa<FloatType>(elt))
    return n.create<ConstantOp>(
        DenseElementsAttr::get(t, FloatAttr::get(elt, v)));
  return n.create<ConstantOp>(
      DenseElementsAttr::get(t, IntegerAttr::get(elt, int64_t(v))));
}

/// a op b with numpy broadcasting; operands that do not broadcast (a scale
/// or bias the model supplies) are the node's error.
FailureOr<Value> binop(NodeContext &n, char op, Value a, Value b) {
  switch (op) {
  case '+': return n.create<AddOp>(a, b);
  case '-': return n.create<SubOp>(a, b);
  case '*': return n.create<MulOp>(a, b);
  default: return n.create<DivOp>(a, b);
  }
}

Value reduceMean(NodeContext &n, Value x, ArrayRef<int64_t> axes) {
  return n.create<ReduceMeanOp>(x, axes, /*keepdims=*/true);
}

/// sqrt(var + eps).
FailureOr<Value> stdDev(NodeContext &n, Value var, double eps) {
  auto sum = binop(n, '+', var, scalarConst(n, n.typeOf(var).getElementType(),
                                            eps));
  if (failed(sum))
    return failure();
  return n.create<SqrtOp>(*sum);
}

/// (x - mean) / sqrt(var + eps) over `axes`; also gives mean and
/// 1 / sqrt(var + eps) (keepdims shapes). Without `invStd` the division is
/// a Div by sqrt(var + eps), as exporters write a decomposed LayerNorm (so
/// LayerNormalization and that form import to the same ops); with it, a
/// multiplication by the reciprocal it needs anyway.
struct Normalized {
  Value y, mean, invStd;
};
FailureOr<Normalized> normalize(NodeContext &n, Value x,
                                ArrayRef<int64_t> axes, double eps,
                                bool invStd = true) {
  Value mean = reduceMean(n, x, axes);
  auto centered = binop(n, '-', x, mean);
  if (failed(centered))
    return failure();
  auto square = binop(n, '*', *centered, *centered);
  if (failed(square))
    return failure();
  auto std = stdDev(n, reduceMean(n, *square, axes), eps);
  if (failed(std))
    return failure();
  if (!invStd) {
    auto y = binop(n, '/', *centered, *std);
    if (failed(y))
      return failure();
    return Normalized{*y, mean, Value()};
  }
  auto inv = n.create<UnaryFnOp>(*std, n.builder().getStringAttr("reciprocal"),
                                 n.builder().getDenseF64ArrayAttr({}));
  if (failed(inv))
    return failure();
  auto y = binop(n, '*', *centered, *inv);
  if (failed(y))
    return failure();
  return Normalized{*y, mean, *inv};
}

LogicalResult importLayerNormalization(NodeContext &n) {
  auto x = n.input(0), scale = n.input(1);
  if (failed(x) || failed(scale))
    return failure();
  auto t = n.typeOf(*x);
  if (!llvm::isa<FloatType>(t.getElementType()))
    return n.fail("input must be floating-point");
  int64_t rank = t.getRank();
  auto axis = n.axis(n.intAttr("axis", -1), rank, "axis");
  if (failed(axis))
    return failure();
  if (n.intAttr("stash_type", 1) != 1 && !t.getElementType().isF32())
    return n.fail("stash_type other than float is not supported");
  SmallVector<int64_t> axes;
  for (int64_t d = *axis; d < rank; ++d)
    axes.push_back(d);
  bool wantsInvStd = n.node.output_size() > 2 && !n.node.output(2).empty();
  auto r = normalize(n, *x, axes, n.numberAttr("epsilon", 1e-5), wantsInvStd);
  if (failed(r))
    return failure();
  auto y = binop(n, '*', r->y, *scale);
  if (failed(y))
    return failure();
  if (n.hasInput(2)) {
    auto b = n.input(2);
    if (failed(b))
      return failure();
    y = binop(n, '+', *y, *b);
    if (failed(y))
      return failure();
  }
  if (n.typeOf(*y).getShape() != t.getShape())
    return n.fail("scale and bias must broadcast to the input");
  n.setOutput(0, *y);
  n.setOutput(1, r->mean);
  if (wantsInvStd)
    n.setOutput(2, r->invStd);
  return success();
}

/// Per-channel parameter [C] reshaped to [C, 1, ...] against NCHW input.
Value channelParam(NodeContext &n, Value p, int64_t rank) {
  SmallVector<int64_t> shape(std::max<int64_t>(rank - 1, 1), 1);
  shape[0] = n.typeOf(p).getNumElements();
  return n.reshape(p, shape);
}

LogicalResult importBatchNormalization(NodeContext &n) {
  if (n.intAttr("training_mode", 0) || n.node.output_size() > 1)
    return n.fail("training mode (running statistics) is not supported");
  if (n.opset() < 6 && n.intAttr("is_test", 0) == 0)
    return n.fail("training mode (is_test=0) is not supported");
  SmallVector<Value> in;
  for (unsigned i = 0; i < 5; ++i) {
    auto v = n.input(i);
    if (failed(v))
      return failure();
    in.push_back(*v);
  }
  auto t = n.typeOf(in[0]);
  int64_t rank = t.getRank();
  if (rank < 2)
    return n.fail("input must have rank 2 or more");
  Type elt = t.getElementType();
  Value scale = channelParam(n, in[1], rank), bias = channelParam(n, in[2], rank);
  Value mean = channelParam(n, in[3], rank), var = channelParam(n, in[4], rank);
  for (Value v : {scale, bias, mean, var})
    if (n.typeOf(v).getElementType() != elt)
      return n.fail("scale, bias, mean and var must have the input's "
                    "element type");
  auto std = stdDev(n, var, n.numberAttr("epsilon", 1e-5));
  auto centered = binop(n, '-', in[0], mean);
  if (failed(std) || failed(centered))
    return failure();
  auto y = binop(n, '/', *centered, *std);
  if (failed(y))
    return failure();
  auto scaled = binop(n, '*', *y, scale);
  if (failed(scaled))
    return failure();
  auto out = binop(n, '+', *scaled, bias);
  if (failed(out))
    return failure();
  n.setOutput(0, *out);
  return success();
}

/// The spatial axes of `x` [N, C, d...]: 2 to its rank (3 or more).
FailureOr<SmallVector<int64_t>> spatialAxes(NodeContext &n, Value x) {
  int64_t rank = n.typeOf(x).getRank();
  if (rank < 3)
    return n.fail("input must have rank 3 or more");
  return llvm::to_vector(llvm::seq<int64_t>(2, rank));
}

LogicalResult importInstanceNormalization(NodeContext &n) {
  auto x = n.input(0), scale = n.input(1), bias = n.input(2);
  if (failed(x) || failed(scale) || failed(bias))
    return failure();
  auto axes = spatialAxes(n, *x);
  if (failed(axes))
    return failure();
  int64_t rank = n.typeOf(*x).getRank();
  auto r = normalize(n, *x, *axes, n.numberAttr("epsilon", 1e-5));
  if (failed(r))
    return failure();
  auto y = binop(n, '*', r->y, channelParam(n, *scale, rank));
  if (failed(y))
    return failure();
  auto out = binop(n, '+', *y, channelParam(n, *bias, rank));
  if (failed(out))
    return failure();
  n.setOutput(0, *out);
  return success();
}

LogicalResult importMeanVarianceNormalization(NodeContext &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  auto axes = n.axes(n.intsAttr("axes").value_or(std::vector<int64_t>{0, 2, 3}),
                     n.typeOf(*x).getRank());
  if (failed(axes))
    return failure();
  // ONNX's function uses sqrt(var) + 1e-9 rather than sqrt(var + eps); the
  // difference is far below the comparison tolerance.
  auto r = normalize(n, *x, *axes, 1e-18);
  if (failed(r))
    return failure();
  n.setOutput(0, r->y);
  return success();
}

LogicalResult importGlobalPool(NodeContext &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  auto axes = spatialAxes(n, *x);
  if (failed(axes))
    return failure();
  if (n.node.op_type() == "GlobalAveragePool")
    n.setOutput(0, reduceMean(n, *x, *axes));
  else
    n.setOutput(0, reduceOp(n, *x, "max", *axes, true));
  return success();
}
/// NegativeLogLikelihoodLoss on log-probabilities `x` [N, C, d...] and
/// integer `target` [N, d...]: -x[n, target, d...] * weight[target], zero
/// where target == ignore_index; then none / sum / weighted mean.
FailureOr<Value> nllLoss(NodeContext &n, Value x, Value target, Value weight) {
  auto xt = n.typeOf(x), tt = n.typeOf(target);
  Type elt = xt.getElementType();
  if (xt.getRank() < 2 || tt.getRank() != xt.getRank() - 1) {
    (void)n.fail("input must be [N, C, ...] and target [N, ...]");
    return failure();
  }
  Type it = tt.getElementType();
  if (!llvm::isa<IntegerType>(it)) {
    (void)n.fail("target must be integers");
    return failure();
  }
  OpBuilder &b = n.builder();
  auto intConst = [&](int64_t v) {
    auto t = RankedTensorType::get({}, it);
    return Value(n.create<ConstantOp>(
        DenseElementsAttr::get(t, IntegerAttr::get(it, v))));
  };
  ArrayRef<int64_t> ts = tt.getShape();
  auto boolT = n.tensorOf(ts, b.getI1Type());
  Value ignored;
  Value safe = target;
  if (const onnx::AttributeProto *ig = n.attr("ignore_index")) {
    ignored = n.create<BinaryFnOp>(boolT, target, intConst(ig->i()),
                                   b.getStringAttr("equal"));
    safe = n.create<WhereOp>(tt, ignored, intConst(0), target);
  }
  // x[n, t, d...] by gather_elements along the class axis.
  SmallVector<int64_t> idxShape(ts);
  idxShape.insert(idxShape.begin() + 1, 1);
  Value idx = n.reshape(safe, idxShape);
  auto picked = n.create<GatherElementsOp>(x, idx, b.getI64IntegerAttr(1));
  if (failed(picked))
    return failure();
  auto negated = n.create<NegOp>(n.reshape(*picked, ts));
  if (failed(negated))
    return failure();
  Value loss = *negated;
  Value w;
  if (weight) {
    auto gathered = n.create<GatherOp>(weight, safe, b.getI64IntegerAttr(0));
    if (failed(gathered))
      return failure();
    w = *gathered;
  }
  if (ignored) {
    Value zero = scalarConst(n, elt, 0), one = scalarConst(n, elt, 1);
    auto keep = n.create<WhereOp>(ignored, zero, w ? w : one);
    if (failed(keep))
      return failure();
    w = *keep;
  }
  if (w) {
    auto weighted = binop(n, '*', loss, w);
    if (failed(weighted))
      return failure();
    loss = *weighted;
  }
  const onnx::AttributeProto *red = n.attr("reduction");
  std::string reduction = red ? red->s() : "mean";
  if (reduction == "none")
    return loss;
  SmallVector<int64_t> all;
  for (int64_t d = 0; d < int64_t(ts.size()); ++d)
    all.push_back(d);
  Value sum = reduceOp(n, loss, "sum", all, false);
  if (reduction == "sum")
    return sum;
  if (reduction != "mean") {
    (void)n.fail("unknown reduction '" + reduction + "'");
    return failure();
  }
  if (!w) {
    int64_t count = tt.getNumElements();
    return binop(n, '/', sum, scalarConst(n, elt, double(count)));
  }
  return binop(n, '/', sum, reduceOp(n, w, "sum", all, false));
}

LogicalResult importNllLoss(NodeContext &n) {
  auto x = n.input(0), t = n.input(1);
  if (failed(x) || failed(t))
    return failure();
  auto w = n.optionalInput(2);
  if (failed(w))
    return failure();
  auto loss = nllLoss(n, *x, *t, *w);
  if (failed(loss))
    return failure();
  n.setOutput(0, *loss);
  return success();
}

LogicalResult importSoftmaxCrossEntropy(NodeContext &n) {
  auto x = n.input(0), t = n.input(1);
  if (failed(x) || failed(t))
    return failure();
  if (n.typeOf(*x).getRank() < 2)
    return n.fail("scores must be [N, C, ...]");
  auto w = n.optionalInput(2);
  if (failed(w))
    return failure();
  Value logp = n.create<LogSoftmaxOp>(x->getType(), *x,
                                      n.builder().getI64IntegerAttr(1));
  auto loss = nllLoss(n, logp, *t, *w);
  if (failed(loss))
    return failure();
  n.setOutput(0, *loss);
  n.setOutput(1, logp);
  return success();
}
} // namespace

void addReductionImporters(llvm::StringMap<OpImporter> &table) {
  table["NegativeLogLikelihoodLoss"] = importNllLoss;
  table["SoftmaxCrossEntropyLoss"] = importSoftmaxCrossEntropy;
  addImporters(table,
               {"ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1",
                "ReduceL2", "ReduceLogSum", "ReduceLogSumExp",
                "ReduceSumSquare"},
               importReduceFamily);
  addImporters(table, {"ArgMax", "ArgMin"}, importArgReduce);
  addImporters(table, {"Softmax", "LogSoftmax", "Hardmax"},
               importAxisNormalization);
  table["CumSum"] = importCumSum;
  table["LayerNormalization"] = importLayerNormalization;
  table["BatchNormalization"] = importBatchNormalization;
  table["InstanceNormalization"] = importInstanceNormalization;
  table["MeanVarianceNormalization"] = importMeanVarianceNormalization;
  addImporters(table, {"GlobalAveragePool", "GlobalMaxPool"}, importGlobalPool);
}

} // namespace lpx::onnximport
