//===- QuantConv.cpp - An int8 conv with zero points by correction terms --===//
//
// ConvInteger / QLinearConv of an int8 x and a constant int8 weight with
// non-zero compile-time zero points, kept in the matrix unit's int8 mode
// (QuantImporters.cpp does the same for MatMul). With x padded by its zero
// point (what the centred x's zero padding is), K = C_in x kernel volume
// and wsum(x) the sum of x over each window (a conv by ones):
//   conv(x - zx, w - zw) = conv(x, w) - zx sum(w[c]) - zw[c] wsum(x)
//                          + K zx zw[c]
// sum(w[c]) and K zx zw[c] are folded now, one int32 per output channel.
//
//===----------------------------------------------------------------------===//
#include "OpImporters.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"

using namespace mlir;
using namespace lpx::graph;

namespace lpx::onnximport {
namespace {

/// The constant zero point at input `i` as `count` values (one broadcast),
/// zeros when absent; nullopt when it is not a constant of 1 or `count`.
std::optional<std::vector<int64_t>> zeroPointsOf(NodeContext &n, unsigned i,
                                                 int64_t count) {
  if (!n.hasInput(i))
    return std::vector<int64_t>(count, 0);
  const onnx::TensorProto *t = n.constTensor(i);
  if (!t || t->data_type() != onnx::TensorProto::INT8)
    return std::nullopt;
  auto z = n.constInts(i);
  if (failed(z) || (z->size() != 1 && int64_t(z->size()) != count))
    return std::nullopt;
  if (z->size() == 1)
    return std::vector<int64_t>(count, (*z)[0]);
  return *z;
}

/// An int32 constant of one value per output channel, shaped to broadcast
/// against a conv result of `rank` dims ([1, C, 1, ...]).
Value perChannel(NodeContext &n, ArrayRef<int32_t> v, int64_t rank) {
  SmallVector<int64_t> shape(rank, 1);
  shape[1] = int64_t(v.size());
  return n.create<ConstantOp>(DenseElementsAttr::get(
      n.tensorOf(shape, n.builder().getI32Type()), v));
}

} // namespace

FailureOr<Value> correctedConv(NodeContext &n, unsigned xZp, unsigned wIdx,
                               unsigned wZp, Value bias) {
  auto x = n.input(0);
  const onnx::TensorProto *wc = n.constTensor(wIdx);
  if (failed(x) || !wc || wc->data_type() != onnx::TensorProto::INT8 ||
      !n.typeOf(*x).getElementType().isSignlessInteger(8) || wc->dims_size() < 3)
    return Value();
  const int64_t cout = wc->dims(0), rank = wc->dims_size();
  auto zx = zeroPointsOf(n, xZp, 1), zw = zeroPointsOf(n, wZp, cout);
  if (!zx || !zw || (n.hasInput(xZp) && n.constTensor(xZp)->dims_size() > 1))
    return Value();
  const bool wZero = llvm::all_of(*zw, [](int64_t z) { return z == 0; });
  // The window sum is one per group's input channels; one group only.
  if (!wZero && n.intAttr("group", 1) != 1)
    return Value();
  auto w = n.input(wIdx);
  auto wv = n.constInts(wIdx);
  if (failed(w) || failed(wv))
    return failure();
  const int64_t za = (*zx)[0], k = int64_t(wv->size()) / cout;
  // Padded by zx, as the centred x is by zero (ONNX and onnxruntime).
  std::optional<double> pad = za ? std::optional<double>(za) : std::nullopt;
  Value padded;
  auto acc = buildConv(n, *x, *w, bias, pad, &padded);
  if (failed(acc))
    return failure();
  auto resultType = n.typeOf(*acc);
  if (za != 0) {
    SmallVector<int32_t> term(cout);
    for (int64_t c = 0; c < cout; ++c) {
      int64_t sum = 0;
      for (int64_t i = 0; i < k; ++i)
        sum += (*wv)[c * k + i];
      term[c] = int32_t(k * za * (*zw)[c] - za * sum);
    }
    acc = Value(n.create<AddOp>(resultType, *acc, perChannel(n, term, rank)));
  }
  if (!wZero) {
    SmallVector<int64_t> onesShape(wc->dims().begin(), wc->dims().end());
    onesShape[0] = 1;
    Type i8 = n.builder().getIntegerType(8);
    Value ones = n.create<ConstantOp>(DenseElementsAttr::get(
        n.tensorOf(onesShape, i8),
        ArrayRef<Attribute>{n.builder().getIntegerAttr(i8, 1)}));
    auto sums = buildConv(n, *x, ones, Value(), pad, &padded);
    if (failed(sums))
      return failure();
    SmallVector<int32_t> z(zw->begin(), zw->end());
    auto t = n.create<MulOp>(*sums, perChannel(n, z, rank));
    if (failed(t))
      return failure();
    acc = Value(n.create<SubOp>(resultType, *acc, *t));
  }
  return acc;
}

} // namespace lpx::onnximport
