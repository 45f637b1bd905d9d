//===- ElementwiseImporters.cpp - Broadcasting and unary ONNX ops ---------===//
#include "OpImporters.h"
#include "Tensors.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/isa/ElementwiseFunctions.h"

#include <limits>

using namespace mlir;
using namespace lpx::graph;

namespace lpx::onnximport {

/// Before opset 7, binary ops only broadcast when `broadcast=1`, and then
/// align the rhs at `axis` (or at the end). Rewrites the rhs so numpy
/// broadcasting gives the same result.
static FailureOr<Value> legacyBroadcastRhs(NodeContext &n, Value lhs,
                                           Value rhs) {
  ArrayRef<int64_t> ls = n.typeOf(lhs).getShape();
  ArrayRef<int64_t> rs = n.typeOf(rhs).getShape();
  if (n.intAttr("broadcast", 0) == 0) {
    if (ls != rs)
      return n.fail("operand shapes " + shapeString(ls) + " and " +
                    shapeString(rs) +
                    " differ and broadcast=0 (opset < 7 does not broadcast)");
    return rhs;
  }
  const onnx::AttributeProto *axisAttr = n.attr("axis");
  if (!axisAttr)
    return rhs; // Suffix alignment is what numpy does.
  int64_t rank = ls.size(), rrank = rs.size();
  auto axis = n.axis(axisAttr->i(), rank, "axis");
  if (failed(axis))
    return failure();
  if (*axis + rrank > rank)
    return n.fail("rhs shape " + shapeString(rs) + " does not fit lhs shape " +
                  shapeString(ls) + " at axis " + llvm::Twine(*axis));
  SmallVector<int64_t> shape(rank, 1);
  llvm::copy(rs, shape.begin() + *axis);
  return n.reshape(rhs, shape);
}

template <typename OpT>
static LogicalResult importBinary(NodeContext &n, bool mixedTypes) {
  auto lhs = n.input(0);
  auto rhs = n.input(1);
  if (failed(lhs) || failed(rhs))
    return failure();
  auto lt = n.typeOf(*lhs), rt = n.typeOf(*rhs);
  if (!mixedTypes && lt.getElementType() != rt.getElementType())
    return n.fail("operand element types differ");
  Value r = *rhs;
  if (n.opset() < 7) {
    auto legacy = legacyBroadcastRhs(n, *lhs, r);
    if (failed(legacy))
      return failure();
    r = *legacy;
  }
  auto result = n.create<OpT>(*lhs, r);
  if (failed(result))
    return failure();
  n.setOutput(0, *result);
  return success();
}

LogicalResult importAdd(NodeContext &n) { return importBinary<AddOp>(n, false); }
LogicalResult importSub(NodeContext &n) { return importBinary<SubOp>(n, false); }
LogicalResult importMul(NodeContext &n) { return importBinary<MulOp>(n, false); }
LogicalResult importDiv(NodeContext &n) { return importBinary<DivOp>(n, false); }
/// x^2 by a constant exponent 2 is x * x, the same value (the square is
/// rounded once either way) in one pass of the vector unit where Pow takes
/// the transcendental passes. Exporters write norms' squares so; the
/// opset-23 decompositions (RMSNormalization) and LayerNormalization square
/// by Mul, so both forms of a model import to the same ops.
LogicalResult importPow(NodeContext &n) {
  const onnx::TensorProto *e = n.constTensor(1);
  if (e && n.hasInput(0)) {
    int64_t count = 1;
    for (int64_t d : e->dims())
      count *= d;
    auto x = n.input(0);
    if (failed(x))
      return failure();
    if (count == 1 && e->dims_size() <= n.typeOf(*x).getRank() &&
        llvm::isa<FloatType>(n.typeOf(*x).getElementType())) {
      auto exponent = n.constNumber(1);
      if (failed(exponent))
        return failure();
      if (*exponent == 2.0)
        return n.setOutput(0, n.create<MulOp>(*x, *x));
    }
  }
  return importBinary<PowOp>(n, true);
}

template <typename OpT> static LogicalResult importUnary(NodeContext &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  n.setOutput(0, n.create<OpT>(x->getType(), *x));
  return success();
}

LogicalResult importSqrt(NodeContext &n) { return importUnary<SqrtOp>(n); }
LogicalResult importNeg(NodeContext &n) { return importUnary<NegOp>(n); }
LogicalResult importRelu(NodeContext &n) { return importUnary<ReluOp>(n); }
LogicalResult importSigmoid(NodeContext &n) { return importUnary<SigmoidOp>(n); }
LogicalResult importTanh(NodeContext &n) { return importUnary<TanhOp>(n); }

LogicalResult importCast(NodeContext &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  const onnx::AttributeProto *to = n.attr("to");
  if (!to)
    return n.fail("attribute 'to' is missing");
  int32_t target = 0;
  if (to->type() == onnx::AttributeProto::STRING) {
    // Cast-1 names the type ("FLOAT"); later opsets use the enum.
    onnx::TensorProto::DataType dt;
    if (!onnx::TensorProto::DataType_Parse(to->s(), &dt))
      return n.fail("unknown target type '" + to->s() + "'");
    target = dt;
  } else {
    target = int32_t(to->i());
  }
  auto elt = elementTypeOf(*n.ctx(), target);
  if (!elt)
    return n.fail("cast target: " + llvm::toString(elt.takeError()));
  n.setOutput(0, n.create<CastOp>(
                     n.tensorOf(n.typeOf(*x).getShape(), *elt), *x));
  return success();
}

/// ai.lpx CastFloat8 (Float8Activations.cpp): the value rounded to one of
/// the chip's FP8 formats, an f8E4M3FN or f8E5M2 tensor from here on.
LogicalResult importCastFloat8(NodeContext &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  int64_t to = n.intAttr("to", kFloat8E4M3FN);
  if (to != kFloat8E4M3FN && to != kFloat8E5M2)
    return n.fail("to must be 17 (FLOAT8E4M3FN) or 19 (FLOAT8E5M2)");
  Type f8 = to == kFloat8E4M3FN ? Type(Float8E4M3FNType::get(n.ctx()))
                     : Type(Float8E5M2Type::get(n.ctx()));
  n.setOutput(0, n.create<CastOp>(n.tensorOf(n.typeOf(*x).getShape(), f8),
                                  *x));
  return success();
}

LogicalResult importWhere(NodeContext &n) {
  auto c = n.input(0), x = n.input(1), y = n.input(2);
  if (failed(c) || failed(x) || failed(y))
    return failure();
  if (!n.typeOf(*c).getElementType().isInteger(1))
    return n.fail("condition must be a bool tensor");
  Type elt = n.typeOf(*x).getElementType();
  if (n.typeOf(*y).getElementType() != elt)
    return n.fail("X and Y have different element types");
  auto result = n.create<WhereOp>(*c, *x, *y);
  if (failed(result))
    return failure();
  n.setOutput(0, *result);
  return success();
}

} // namespace lpx::onnximport

//===----------------------------------------------------------------------===//
// Generic families: lpx_graph.unary and lpx_graph.binary. The tables map an
// ONNX op type to a function of isa/include/lpx/isa/ElementwiseFunctions.def
// (by mnemonic) and its ONNX attributes to the function's parameters.
//===----------------------------------------------------------------------===//

namespace lpx::onnximport {
namespace {
struct ParamSpec {
  const char *attr;
  double dflt;
};
struct UnaryMapping {
  const char *onnx;
  const char *fn;
  std::vector<ParamSpec> params;
};

const std::vector<UnaryMapping> &unaryMappings() {
  static const std::vector<UnaryMapping> m = {
      {"Abs", "abs", {}},
      {"Ceil", "ceil", {}},
      {"Floor", "floor", {}},
      {"Round", "round", {}},
      {"Sign", "sign", {}},
      {"Exp", "exp", {}},
      {"Log", "log", {}},
      {"Reciprocal", "reciprocal", {}},
      {"Sin", "sin", {}},
      {"Cos", "cos", {}},
      {"Tan", "tan", {}},
      {"Asin", "asin", {}},
      {"Acos", "acos", {}},
      {"Atan", "atan", {}},
      {"Sinh", "sinh", {}},
      {"Cosh", "cosh", {}},
      {"Asinh", "asinh", {}},
      {"Acosh", "acosh", {}},
      {"Atanh", "atanh", {}},
      {"Erf", "erf", {}},
      {"Softplus", "softplus", {}},
      {"Softsign", "softsign", {}},
      {"Not", "not", {}},
      {"IsNaN", "isnan", {}},
      {"IsInf", "isinf", {{"detect_positive", 1}, {"detect_negative", 1}}},
      {"Elu", "elu", {{"alpha", 1.0}}},
      {"Selu",
       "selu",
       {{"alpha", 1.67326319217681884765625},
        {"gamma", 1.05070102214813232421875}}},
      {"LeakyRelu", "leaky_relu", {{"alpha", 0.01f}}},
      {"HardSigmoid", "hard_sigmoid", {{"alpha", 0.2f}, {"beta", 0.5}}},
      {"HardSwish", "hard_swish", {}},
      {"ThresholdedRelu", "thresholded_relu", {{"alpha", 1.0}}},
      {"Celu", "celu", {{"alpha", 1.0}}},
      {"Mish", "mish", {}},
      {"Shrink", "shrink", {{"bias", 0.0}, {"lambd", 0.5}}},
      {"BitwiseNot", "bitwise_not", {}},
  };
  return m;
}

Type boolType(NodeContext &n) { return n.builder().getI1Type(); }

/// lpx_graph.unary `fn` of `x` (the op infers its type from the function).
FailureOr<Value> unaryFn(NodeContext &n, Value x, llvm::StringRef fn,
                         llvm::ArrayRef<double> params = {}) {
  return n.create<UnaryFnOp>(x, n.builder().getStringAttr(fn),
                             n.builder().getDenseF64ArrayAttr(params));
}

/// Domain check against the function table, reported the ONNX way.
LogicalResult checkUnaryDomain(NodeContext &n, llvm::StringRef fn, Type elt) {
  const isa::FnInfo *info =
      isa::unaryFnInfo(int64_t(*isa::unaryFnFromMnemonic(fn.str())));
  bool isBool = elt.isInteger(1), isFloat = llvm::isa<FloatType>(elt);
  if (!info->accepts(isBool, isFloat, !isBool && !isFloat)) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << elt;
    return n.fail("element type " + s + " is not supported");
  }
  return success();
}

LogicalResult importUnaryFamily(NodeContext &n) {
  const UnaryMapping *m = nullptr;
  for (const UnaryMapping &u : unaryMappings())
    if (n.node.op_type() == u.onnx)
      m = &u;
  auto x = n.input(0);
  if (!m || failed(x))
    return failure();
  if (failed(checkUnaryDomain(n, m->fn, n.typeOf(*x).getElementType())))
    return failure();
  SmallVector<double> params;
  for (const ParamSpec &p : m->params)
    params.push_back(n.numberAttr(p.attr, p.dflt));
  return n.setOutput(0, unaryFn(n, *x, m->fn, params));
}

/// Broadcast `fn` of two operands (with the opset < 7 rules).
FailureOr<Value> binaryFn(NodeContext &n, Value lhs, Value rhs,
                          llvm::StringRef fn) {
  auto lt = n.typeOf(lhs), rt = n.typeOf(rhs);
  if (lt.getElementType() != rt.getElementType()) {
    (void)n.fail("operand element types differ");
    return failure();
  }
  const isa::FnInfo *info =
      isa::binaryFnInfo(int64_t(*isa::binaryFnFromMnemonic(fn.str())));
  bool isBool = lt.getElementType().isInteger(1);
  bool isFloat = llvm::isa<FloatType>(lt.getElementType());
  if (!info->accepts(isBool, isFloat, !isBool && !isFloat)) {
    (void)n.fail("element type not supported by " + fn);
    return failure();
  }
  return n.create<BinaryFnOp>(lhs, rhs, n.builder().getStringAttr(fn));
}

struct BinaryMapping {
  const char *onnx;
  const char *fn;
};
const BinaryMapping kBinaryMappings[] = {
    {"And", "and"},     {"Or", "or"},         {"Xor", "xor"},
    {"Equal", "equal"}, {"Less", "less"},     {"Greater", "greater"},
    {"LessOrEqual", "less_equal"}, {"GreaterOrEqual", "greater_equal"},
    // Opset 18's, imported from the ai.lpx domain (OpsetDowngrade.cpp).
    {"BitwiseAnd", "bitwise_and"}, {"BitwiseOr", "bitwise_or"},
    {"BitwiseXor", "bitwise_xor"},
};

LogicalResult importBinaryFamily(NodeContext &n) {
  llvm::StringRef fn;
  for (const BinaryMapping &b : kBinaryMappings)
    if (n.node.op_type() == b.onnx)
      fn = b.fn;
  if (n.node.op_type() == "Mod")
    fn = n.intAttr("fmod", 0) ? "fmod" : "mod";
  if (n.node.op_type() == "BitShift") {
    const onnx::AttributeProto *d = n.attr("direction");
    if (!d)
      return n.fail("attribute 'direction' is missing");
    fn = d->s() == "LEFT" ? "shift_left" : "shift_right";
  }
  if (n.node.op_type() == "PRelu")
    fn = "prelu";
  auto lhs = n.input(0), rhs = n.input(1);
  if (fn.empty() || failed(lhs) || failed(rhs))
    return failure();
  Value r = *rhs;
  if (n.opset() < 7 && fn == "prelu") {
    // PRelu-6 has no broadcast attribute: a one-element slope is shared
    // across channels, any other slope has X's shape.
    if (n.typeOf(r).getNumElements() == 1)
      r = n.reshape(r, {});
    else if (n.typeOf(r).getShape() != n.typeOf(*lhs).getShape())
      return n.fail("slope shape " + shapeString(n.typeOf(r).getShape()) +
                    " is neither one element nor X's shape " +
                    shapeString(n.typeOf(*lhs).getShape()) +
                    " (PRelu before opset 7)");
  } else if (n.opset() < 7) {
    auto legacy = legacyBroadcastRhs(n, *lhs, r);
    if (failed(legacy))
      return failure();
    r = *legacy;
  }
  if (fn == "mod" && llvm::isa<FloatType>(n.typeOf(*lhs).getElementType()))
    return n.fail("Mod of floats needs fmod=1");
  auto v = binaryFn(n, *lhs, r, fn);
  if (failed(v))
    return failure();
  n.setOutput(0, *v);
  return success();
}

/// Max, Min, Sum, Mean: a left-to-right chain over the inputs.
LogicalResult importVariadic(NodeContext &n) {
  auto present = n.presentInputs();
  if (failed(present))
    return failure();
  SmallVector<Value> xs = std::move(*present);
  const std::string &op = n.node.op_type();
  Value acc = xs[0];
  for (size_t i = 1; i < xs.size(); ++i) {
    auto lt = n.typeOf(acc), rt = n.typeOf(xs[i]);
    if (lt.getElementType() != rt.getElementType())
      return n.fail("inputs have different element types");
    if (op == "Sum" || op == "Mean") {
      auto sum = n.create<AddOp>(acc, xs[i]);
      if (failed(sum))
        return failure();
      acc = *sum;
    } else {
      auto v = binaryFn(n, acc, xs[i], op == "Max" ? "max" : "min");
      if (failed(v))
        return failure();
      acc = *v;
    }
  }
  if (op == "Mean" && xs.size() > 1) {
    auto t = n.typeOf(acc);
    if (!llvm::isa<FloatType>(t.getElementType()))
      return n.fail("Mean of integers is not supported");
    auto scalar = RankedTensorType::get({}, t.getElementType());
    Value count = n.create<ConstantOp>(DenseElementsAttr::get(
        scalar, FloatAttr::get(t.getElementType(), double(xs.size()))));
    acc = n.create<DivOp>(t, acc, count);
  }
  n.setOutput(0, xs.size() == 1 ? n.copy(acc) : acc);
  return success();
}

LogicalResult importClip(NodeContext &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  Type elt = n.typeOf(*x).getElementType();
  if (elt.isInteger(1))
    return n.fail("Clip is not defined for bool");
  const double inf = std::numeric_limits<double>::infinity();
  double bounds[2] = {-inf, inf};
  SmallVector<Value, 2> tensorBounds(2);
  if (n.opset() < 11) {
    bounds[0] = n.numberAttr("min", -inf);
    bounds[1] = n.numberAttr("max", inf);
  } else {
    for (unsigned i = 0; i < 2; ++i) {
      if (!n.hasInput(1 + i))
        continue;
      if (const onnx::TensorProto *t = n.constTensor(1 + i)) {
        auto bytes = decodeTensor(*t);
        if (!bytes)
          return n.fail(llvm::toString(bytes.takeError()));
        auto attr = toElementsAttr(*n.ctx(), *bytes);
        if (!attr)
          return n.fail(llvm::toString(attr.takeError()));
        if (attr->getNumElements() != 1)
          return n.fail("min and max must be scalars");
        if (llvm::isa<FloatType>(attr->getElementType()))
          bounds[i] = (*attr->getValues<APFloat>().begin()).convertToDouble();
        else
          bounds[i] = double((*attr->getValues<APInt>().begin()).getSExtValue());
        continue;
      }
      auto v = n.input(1 + i);
      if (failed(v))
        return failure();
      tensorBounds[i] = *v;
    }
  }
  auto clipped = unaryFn(n, *x, "clip", {bounds[0], bounds[1]});
  if (failed(clipped))
    return failure();
  Value r = *clipped;
  // Bounds only known at run time: max then min, as ONNX defines Clip.
  for (unsigned i = 0; i < 2; ++i) {
    if (!tensorBounds[i])
      continue;
    auto v = binaryFn(n, r, tensorBounds[i], i == 0 ? "max" : "min");
    if (failed(v))
      return failure();
    r = *v;
  }
  n.setOutput(0, r);
  return success();
}

LogicalResult importIdentity(NodeContext &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  n.setOutput(0, n.copy(*x));
  return success();
}

LogicalResult importDropout(NodeContext &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  bool training = false;
  if (n.hasInput(2)) {
    auto t = n.constInts(2);
    if (failed(t))
      return failure();
    training = !t->empty() && (*t)[0] != 0;
  }
  if (n.opset() < 7 && n.intAttr("is_test", 0) == 0)
    training = true;
  if (training) {
    double ratio = 0.5;
    if (n.opset() >= 12 && n.hasInput(1)) {
      if (const onnx::TensorProto *t = n.constTensor(1))
        if (t->float_data_size() == 1)
          ratio = t->float_data(0);
    } else {
      ratio = n.numberAttr("ratio", 0.5);
    }
    if (ratio != 0)
      return n.fail("training mode draws random numbers (random generator)");
  }
  n.setOutput(0, n.copy(*x));
  if (n.node.output_size() > 1 && !n.node.output(1).empty()) {
    auto t = RankedTensorType::get(n.typeOf(*x).getShape(), boolType(n));
    Value ones = n.create<ConstantOp>(
        DenseElementsAttr::get(t, n.builder().getBoolAttr(true)));
    n.setOutput(1, ones);
  }
  return success();
}

LogicalResult importCastLike(NodeContext &n) {
  auto x = n.input(0), like = n.input(1);
  if (failed(x) || failed(like))
    return failure();
  n.setOutput(0, n.create<CastOp>(
                     n.tensorOf(n.typeOf(*x).getShape(),
                                n.typeOf(*like).getElementType()),
                     *x));
  return success();
}
} // namespace

void addElementwiseImporters(llvm::StringMap<OpImporter> &table) {
  for (const UnaryMapping &u : unaryMappings())
    table[u.onnx] = importUnaryFamily;
  for (const BinaryMapping &b : kBinaryMappings)
    table[b.onnx] = importBinaryFamily;
  addImporters(table, {"Mod", "BitShift", "PRelu"}, importBinaryFamily);
  addImporters(table, {"Max", "Min", "Sum", "Mean"}, importVariadic);
  table["Clip"] = importClip;
  table["CastFloat8"] = importCastFloat8;
  table["Identity"] = importIdentity;
  table["Dropout"] = importDropout;
  table["CastLike"] = importCastLike;
}

} // namespace lpx::onnximport
