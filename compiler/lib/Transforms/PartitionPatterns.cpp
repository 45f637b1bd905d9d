//===- PartitionPatterns.cpp - What placement recognises in a graph -------===//
//
// See PartitionPatterns.h.
//
//===----------------------------------------------------------------------===//
#include "PartitionPatterns.h"

#include "lpx/Dialect/Graph/IR/ShapeOnly.h"
#include "lpx/Dialect/Graph/IR/WeightBlobs.h"

#include "mlir/IR/Builders.h"
#include <cstring>

using namespace mlir;
using namespace lpx;
using namespace lpx::graph;

static RankedTensorType rankedOf(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// Ops that apply one function per element with numpy broadcasting: split
/// along any axis they do not broadcast.
bool lpx::isPointwise(Operation *op) {
  return llvm::isa<AddOp, SubOp, MulOp, DivOp, PowOp, WhereOp, SqrtOp, NegOp,
                   ReluOp, SigmoidOp, TanhOp, CastOp, UnaryFnOp, BinaryFnOp,
                   RescaleOp>(
      op);
}

/// A MatMul's or an embedding Gather's constant 2-D weight that can be cut.
ConstantOp lpx::splittableWeight(Operation *op) {
  ConstantOp c;
  if (auto m = dyn_cast<MatMulOp>(op))
    c = m.getRhs().getDefiningOp<ConstantOp>();
  else if (auto g = dyn_cast<GatherOp>(op); g && g.getAxis() == 0)
    c = g.getData().getDefiningOp<ConstantOp>();
  if (!c || rankedOf(c).getRank() != 2)
    return nullptr;
  return isSliceableWeight(c.getValue()) ? c : nullptr;
}

/// The add of a constant bias that is `v`'s only reader, or null.
static AddOp biasAddOf(Value v) {
  if (!v.hasOneUse())
    return nullptr;
  auto add = dyn_cast<AddOp>(*v.getUsers().begin());
  Value other = add && add.getLhs() == v ? add.getRhs()
                : add                    ? add.getLhs()
                                         : Value();
  return other && other.getDefiningOp<ConstantOp>() &&
                 rankedOf(other).getRank() == 1 && add.getType() == v.getType()
             ? add
             : nullptr;
}

/// Heads a MatMul's result (plus a bias) is reshaped into by its only
/// reader, and the size of one head; {0, 0} if it is not.
std::pair<int64_t, int64_t> lpx::headsOf(Operation *op) {
  Value r = op->getResult(0);
  if (AddOp bias = biasAddOf(r))
    r = bias.getResult();
  if (!r.hasOneUse())
    return {0, 0};
  auto reshape = dyn_cast<ReshapeOp>(*r.getUsers().begin());
  if (!reshape)
    return {0, 0};
  auto from = rankedOf(r).getShape();
  auto to = reshape.getType().getShape();
  if (to.size() != from.size() + 1 || to.drop_back(2) != from.drop_back() ||
      to[to.size() - 2] < 2)
    return {0, 0};
  return {to[to.size() - 2], to.back()};
}

Value lpx::returnedAs(Value v) {
  while (v.hasOneUse()) {
    Operation *user = *v.getUsers().begin();
    if (llvm::isa<func::ReturnOp>(user))
      return v;
    if (!isPointwise(user) || user->getNumResults() != 1)
      return nullptr;
    v = user->getResult(0);
  }
  return nullptr;
}

ConstantOp lpx::spreadableTable(Operation *op) {
  bool table = llvm::isa<GatherOp>(op) ||
               (llvm::isa<MatMulOp>(op) && returnedAs(op->getResult(0)));
  return table ? splittableWeight(op) : nullptr;
}

int64_t lpx::projectionHeads(func::FuncOp f) {
  int64_t fewest = 0;
  f.walk([&](MatMulOp m) {
    if (!splittableWeight(m))
      return;
    if (int64_t h = headsOf(m).first)
      fewest = fewest ? std::min(fewest, h) : h;
  });
  return fewest;
}

/// A fused projection (GPT-2's c_attn: one MatMul for Q, K and V, plus a
/// bias) read only through slices of its columns, each reshaped into
/// heads, becomes one MatMul (and bias) per slice with those columns of the
/// weight, so each can be split on its own heads.
void lpx::unfuseProjections(func::FuncOp f) {
  SmallVector<MatMulOp> fused;
  f.walk([&](MatMulOp m) {
    if (!splittableWeight(m))
      return;
    Value r = m.getResult();
    if (AddOp bias = biasAddOf(r))
      r = bias.getResult();
    int64_t last = rankedOf(r).getRank() - 1;
    bool ok = !r.use_empty();
    for (Operation *user : r.getUsers()) {
      auto slice = dyn_cast<SliceOp>(user);
      ok = ok && slice && llvm::all_of(slice.getSteps(), [](int64_t x) {
             return x == 1;
           });
      for (int64_t a = 0; ok && a < last; ++a)
        ok = slice.getType().getDimSize(a) == rankedOf(r).getDimSize(a);
      ok = ok && slice.getResult().hasOneUse() && headsOf(slice).first;
    }
    if (ok)
      fused.push_back(m);
  });
  for (MatMulOp m : fused) {
    AddOp bias = biasAddOf(m.getResult());
    Value r = bias ? bias.getResult() : m.getResult();
    auto w = m.getRhs().getDefiningOp<ConstantOp>();
    int64_t last = rankedOf(r).getRank() - 1, part = 0;
    for (Operation *user : llvm::make_early_inc_range(r.getUsers())) {
      auto slice = cast<SliceOp>(user);
      int64_t lo = slice.getStarts()[last];
      int64_t hi = lo + slice.getType().getDimSize(last);
      OpBuilder b(slice);
      auto cols = b.create<ConstantOp>(
          w.getLoc(), sliceElements(w.getValue(), 1, lo, hi, part++));
      Value v = b.create<MatMulOp>(m.getLoc(), slice.getType(), m.getLhs(),
                                   cols);
      if (bias) {
        Value c = bias.getLhs() == m.getResult() ? bias.getRhs()
                                                 : bias.getLhs();
        auto cut = b.create<ConstantOp>(
            c.getLoc(), sliceElements(c.getDefiningOp<ConstantOp>().getValue(),
                                      0, lo, hi, part++));
        v = b.create<AddOp>(bias.getLoc(), v, cut);
      }
      slice.getResult().replaceAllUsesWith(v);
      slice.erase();
    }
    if (bias)
      bias.erase();
    m.erase();
  }
}

int64_t lpx::headDivisor(int64_t heads, int64_t limit) {
  if (heads <= 0)
    return std::max<int64_t>(limit, 1);
  for (int64_t d = std::min(heads, limit); d > 1; --d)
    if (heads % d == 0)
      return d;
  return 1;
}

ElementsAttr lpx::sliceElements(ElementsAttr value, int64_t axis, int64_t lo,
                                int64_t hi, int64_t part) {
  auto whole = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(whole.getShape());
  shape[axis] = hi - lo;
  auto type = RankedTensorType::get(shape, value.getElementType());
  if (isShapeOnly(value))
    return shapeOnlyFrom(value, type, ".part" + llvm::Twine(part));
  if (auto dense = dyn_cast<DenseElementsAttr>(value); dense && dense.isSplat())
    return DenseElementsAttr::get(type, dense.getSplatValue<Attribute>());
  std::optional<ArrayRef<char>> raw = weightBytes(value);
  if (!raw)
    return nullptr;
  unsigned bits = value.getElementType().getIntOrFloatBitWidth();
  ArrayRef<int64_t> dims = whole.getShape();
  int64_t inner =
      ShapedType::getNumElements(dims.drop_front(axis + 1)) * (bits / 8);
  int64_t outer = ShapedType::getNumElements(dims.take_front(axis));
  int64_t extent = whole.getDimSize(axis);
  size_t run = size_t((hi - lo) * inner);
  return deriveWeight(value, type, ".part" + llvm::Twine(part),
                      [&](MutableArrayRef<char> out) {
                        for (int64_t o = 0; o < outer; ++o)
                          std::memcpy(out.data() + o * run,
                                      raw->data() + (o * extent + lo) * inner,
                                      run);
                      });
}
