//===- FuseRescale.cpp - QDQ's rescaling chains as one vector pass --------===//
//
// A QuantizeLinear imports as div, round, add, clip and cast, and the
// float product of two DequantizeLinear'd int8 operands as cast and mul
// (docs/architecture.md, "Import"): each op one VXM instruction, each
// waiting for the last. With per-tensor (scalar) scales and zero points the
// whole chain is one `lpx_graph.rescale`, and so are the dequantising mul
// and the Relu before a quantize: the requantise between two int8 products
// is then one pass over the accumulator's stream. Every step keeps its f32
// rounding, so the values are those of the ops replaced.
//
//===----------------------------------------------------------------------===//
#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Transforms/Passes.h"

#include "llvm/ADT/SetVector.h"
#include <cmath>

namespace lpx {
#define GEN_PASS_DEF_FUSERESCALE
#include "lpx/Transforms/Passes.h.inc"
} // namespace lpx

using namespace mlir;
using namespace lpx::graph;

namespace {

bool isF32Tensor(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && t.getElementType().isF32();
}

bool isIntTensor(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && isa<IntegerType>(t.getElementType()) &&
         !t.getElementType().isInteger(1);
}

/// The finite value of an f32 constant holding one value (any shape).
std::optional<double> splatOf(Value v) {
  auto c = v.getDefiningOp<ConstantOp>();
  if (!c)
    return std::nullopt;
  auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
  if (!dense || !dense.isSplat() || !dense.getElementType().isF32())
    return std::nullopt;
  double d = dense.getSplatValue<APFloat>().convertToDouble();
  return std::isfinite(d) ? std::optional<double>(d) : std::nullopt;
}

/// `op`'s other operand when one of its two (the second unless
/// `eitherSide`) is a constant of one value that does not widen the
/// result; that value in `c`.
Value byScalar(Operation *op, double &c, bool eitherSide) {
  for (unsigned i = 0; i < (eitherSide ? 2u : 1u); ++i) {
    Value k = op->getOperand(1 - i), other = op->getOperand(i);
    std::optional<double> s = splatOf(k);
    if (s && other.getType() == op->getResult(0).getType()) {
      c = *s;
      return other;
    }
  }
  return nullptr;
}

/// The single-use op of type `Op` that defines `v`, or null.
template <typename Op> Op onlyUse(Value v) {
  auto op = v.getDefiningOp<Op>();
  return op && op->hasOneUse() ? op : Op();
}

UnaryFnOp onlyUseFn(Value v, StringRef fn) {
  auto op = onlyUse<UnaryFnOp>(v);
  return op && op.getFn() == fn ? op : UnaryFnOp();
}

/// cast(clip(round(div(x, s)) [+ zp])) to an integer type: QuantizeLinear
/// with per-tensor parameters, then what feeds it that the quantize can
/// take over: a Relu (the saturation's floor rises to the zero point), a
/// multiply by a scalar (`pre`) and a cast from an integer.
bool fuseQuantize(CastOp cast, SmallVectorImpl<Operation *> &dead) {
  if (!isIntTensor(cast.getResult()) || !isF32Tensor(cast.getInput()))
    return false;
  UnaryFnOp clip = onlyUseFn(cast.getInput(), "clip");
  if (!clip || clip.getParams().size() != 2)
    return false;
  double zp = 0, scale = 0, pre = 1;
  Value v = clip.getInput();
  SmallVector<Operation *> chain{cast, clip};
  if (auto add = onlyUse<AddOp>(v)) {
    Value other = byScalar(add, zp, true);
    if (!other || zp != std::nearbyint(zp))
      return false;
    chain.push_back(add);
    v = other;
  }
  UnaryFnOp round = onlyUseFn(v, "round");
  DivOp div = round ? onlyUse<DivOp>(round.getInput()) : DivOp();
  Value x = div ? byScalar(div, scale, false) : Value();
  if (!x || !(scale > 0))
    return false;
  chain.append({round, div});
  double lo = clip.getParams()[0], hi = clip.getParams()[1];
  if (auto relu = onlyUse<ReluOp>(x)) {
    lo = std::max(lo, zp); // round(max(t, 0) / s) + zp = max(round(t / s), 0) + zp
    chain.push_back(relu);
    x = relu.getInput();
  }
  if (auto mul = onlyUse<MulOp>(x)) {
    if (Value other = byScalar(mul, pre, true)) {
      chain.push_back(mul);
      x = other;
    }
  }
  if (auto from = onlyUse<CastOp>(x); from && isIntTensor(from.getInput())) {
    chain.push_back(from);
    x = from.getInput();
  }
  OpBuilder b(cast);
  auto q = b.create<RescaleOp>(cast.getLoc(), cast.getType(), x,
                               b.getStringAttr("quantize"),
                               b.getDenseF64ArrayAttr({pre, scale, zp, lo, hi}));
  cast.getResult().replaceAllUsesWith(q.getResult());
  dead.append(chain);
  return true;
}

/// mul(cast(x) [- zp], s) of an integer x by a scalar scale: a
/// DequantizeLinear with per-tensor parameters.
bool fuseDequantize(MulOp mul, SmallVectorImpl<Operation *> &dead) {
  double scale = 0, zp = 0;
  Value v = byScalar(mul, scale, true);
  if (!v || !isF32Tensor(v))
    return false;
  SmallVector<Operation *> chain{mul};
  if (auto sub = onlyUse<SubOp>(v)) {
    Value other = byScalar(sub, zp, false);
    if (!other)
      return false;
    chain.push_back(sub);
    v = other;
  }
  auto from = onlyUse<CastOp>(v);
  if (!from || !isIntTensor(from.getInput()))
    return false;
  chain.push_back(from);
  OpBuilder b(mul);
  auto dq = b.create<RescaleOp>(mul.getLoc(), mul.getType(), from.getInput(),
                                b.getStringAttr("dequantize"),
                                b.getDenseF64ArrayAttr({scale, zp}));
  mul.getResult().replaceAllUsesWith(dq.getResult());
  dead.append(chain);
  return true;
}

/// Erases the replaced chains, then the scalar constants only they read.
void eraseChains(SmallVectorImpl<Operation *> &dead) {
  llvm::SetVector<Operation *> constants;
  for (Operation *op : dead)
    for (Value in : op->getOperands())
      if (auto c = in.getDefiningOp<ConstantOp>())
        constants.insert(c);
  for (Operation *op : dead)
    op->erase();
  for (Operation *c : constants)
    if (c->use_empty())
      c->erase();
  dead.clear();
}

struct FuseRescalePass : lpx::impl::FuseRescaleBase<FuseRescalePass> {
  void runOnOperation() override {
    func::FuncOp f = getOperation();
    SmallVector<Operation *> dead;
    // Quantizes first: a dequantising mul inside a requantise is theirs.
    SmallVector<CastOp> casts;
    f.walk([&](CastOp c) { casts.push_back(c); });
    for (CastOp c : casts)
      fuseQuantize(c, dead);
    eraseChains(dead);
    SmallVector<MulOp> muls;
    f.walk([&](MulOp m) { muls.push_back(m); });
    for (MulOp m : muls)
      fuseDequantize(m, dead);
    eraseChains(dead);
  }
};

} // namespace
