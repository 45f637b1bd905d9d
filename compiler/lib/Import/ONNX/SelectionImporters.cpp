//===- SelectionImporters.cpp - TopK, GatherND, OneHot, scatters, LRN -----===//
//
// TopK is the `top_k` instruction (indices) plus a gather_elements (values).
// GatherND becomes a gather over the data flattened at the indexed dims, by
// linear indices computed from the index tuples; OneHot an equal against a
// constant range and a where. The scatters are their own instructions. LRN
// is square, windowed average along the channels (an average pool over a
// [N, 1, C, spatial] view), then scale, bias, pow and divide.
//
//===----------------------------------------------------------------------===//
#include "OpImporters.h"
#include "Tensors.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace lpx::graph;

namespace lpx::onnximport {
namespace {

/// A constant i64 tensor of `shape` holding `values`.
Value i64Const(NodeContext &n, ArrayRef<int64_t> shape,
               ArrayRef<int64_t> values) {
  auto t = RankedTensorType::get(shape, n.builder().getI64Type());
  return n.create<ConstantOp>(DenseElementsAttr::get(t, values));
}

/// A scalar constant of element type `elt` (float or integer).
Value scalarOf(NodeContext &n, Type elt, double v) {
  auto t = RankedTensorType::get({}, elt);
  if (llvm::isa<FloatType>(elt))
    return n.create<ConstantOp>(DenseElementsAttr::get(t, FloatAttr::get(elt, v)));
  return n.create<ConstantOp>(
      DenseElementsAttr::get(t, IntegerAttr::get(elt, int64_t(v))));
}

/// Broadcasting comparison `fn` ("less", "equal", ...): a bool tensor.
FailureOr<Value> compare(NodeContext &n, llvm::StringRef fn, Value a, Value b) {
  return n.create<BinaryFnOp>(a, b, n.builder().getStringAttr(fn));
}

/// `idx` as i64 (cast when it is another integer or float type).
Value toI64(NodeContext &n, Value idx) {
  auto t = n.typeOf(idx);
  if (t.getElementType().isInteger(64))
    return idx;
  return n.create<CastOp>(n.tensorOf(t.getShape(), n.builder().getI64Type()),
                          idx);
}

/// Negative i64 indices wrapped once: idx < 0 ? idx + dims : idx, with
/// `dims` broadcasting against idx.
FailureOr<Value> wrapNegative(NodeContext &n, Value idx, Value dims) {
  Value zero = scalarOf(n, n.builder().getI64Type(), 0);
  auto neg = compare(n, "less", idx, zero);
  auto wrapped = n.create<AddOp>(idx, dims);
  if (failed(neg) || failed(wrapped))
    return failure();
  return n.create<WhereOp>(*neg, *wrapped, idx);
}

//===----------------------------------------------------------------------===//
// TopK
//===----------------------------------------------------------------------===//

LogicalResult importTopK(NodeContext &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  int64_t k;
  if (n.opset() < 10) {
    const onnx::AttributeProto *a = n.attr("k");
    if (!a)
      return n.fail("attribute 'k' is missing");
    k = a->i();
  } else {
    auto kv = n.constInts(1);
    if (failed(kv))
      return failure();
    if (kv->size() != 1)
      return n.fail("k must hold one value");
    k = (*kv)[0];
  }
  auto t = n.typeOf(*x);
  if (t.getRank() < 1)
    return n.fail("input must have rank 1 or more");
  if (t.getElementType().isInteger(1))
    return n.fail("bool input is not supported");
  auto axis = n.axis(n.intAttr("axis", -1), t.getRank(), "axis");
  if (failed(axis))
    return failure();
  OpBuilder &b = n.builder();
  auto idx = n.create<TopKOp>(*x, b.getI64IntegerAttr(*axis),
                              b.getI64IntegerAttr(k),
                              b.getBoolAttr(n.intAttr("largest", 1) != 0),
                              b.getBoolAttr(n.intAttr("sorted", 1) != 0));
  if (failed(idx))
    return failure();
  auto values =
      n.create<GatherElementsOp>(*x, *idx, b.getI64IntegerAttr(*axis));
  if (failed(values))
    return failure();
  n.setOutput(0, *values);
  n.setOutput(1, *idx);
  return success();
}

//===----------------------------------------------------------------------===//
// GatherND
//===----------------------------------------------------------------------===//

LogicalResult importGatherND(NodeContext &n) {
  auto data = n.input(0), indices = n.input(1);
  if (failed(data) || failed(indices))
    return failure();
  auto dt = n.typeOf(*data), it = n.typeOf(*indices);
  if (!llvm::isa<IntegerType>(it.getElementType()))
    return n.fail("indices must be integers");
  int64_t r = dt.getRank(), q = it.getRank();
  int64_t b = n.intAttr("batch_dims", 0);
  if (r < 1 || q < 1)
    return n.fail("data and indices must have rank 1 or more");
  if (b < 0 || b >= std::min(r, q))
    return n.fail("batch_dims " + llvm::Twine(b) +
                  " must be below both ranks");
  ArrayRef<int64_t> ds = dt.getShape(), is = it.getShape();
  if (ds.take_front(b) != is.take_front(b))
    return n.fail("batch dims of data " + shapeString(ds) + " and indices " +
                  shapeString(is) + " differ");
  int64_t k = is.back();
  if (k < 1 || k > r - b)
    return n.fail("index tuples of length " + llvm::Twine(k) +
                  " do not fit data " + shapeString(ds) + " with batch_dims " +
                  llvm::Twine(b));
  // Linear index into the data flattened to [batch * indexed, rest...]:
  // sum_j idx[..., j] * stride_j (strides of the indexed dims), plus the
  // batch position times the indexed block size.
  ArrayRef<int64_t> indexed = ds.slice(b, k);
  SmallVector<int64_t> strides(k, 1);
  for (int64_t j = k - 1; j > 0; --j)
    strides[j - 1] = strides[j] * indexed[j];
  int64_t block = product(indexed);
  auto idx = wrapNegative(n, toI64(n, *indices), i64Const(n, {k}, indexed));
  if (failed(idx))
    return failure();
  SmallVector<int64_t> linShape(is.drop_back());
  FailureOr<Value> lin = *idx;
  if (k == 1) {
    lin = n.reshape(*idx, linShape);
  } else {
    auto scaled = n.create<MulOp>(*idx, i64Const(n, {k}, strides));
    if (failed(scaled))
      return failure();
    lin = Value(n.create<ReduceOp>(*scaled, "sum", ArrayRef<int64_t>{q - 1},
                                   /*keepdims=*/false));
  }
  int64_t batch = product(ds.take_front(b));
  if (batch > 1) {
    SmallVector<int64_t> offShape(ds.take_front(b));
    offShape.append(q - 1 - b, 1);
    SmallVector<int64_t> offsets;
    for (int64_t i = 0; i < batch; ++i)
      offsets.push_back(i * block);
    lin = n.create<AddOp>(*lin, i64Const(n, offShape, offsets));
    if (failed(lin))
      return failure();
  }
  SmallVector<int64_t> flatShape{batch * block};
  flatShape.append(ds.begin() + b + k, ds.end());
  Value flat = n.reshape(*data, flatShape);
  auto out = n.create<GatherOp>(flat, *lin, n.builder().getI64IntegerAttr(0));
  if (failed(out))
    return failure();
  n.setOutput(0, *out);
  return success();
}

//===----------------------------------------------------------------------===//
// OneHot
//===----------------------------------------------------------------------===//

LogicalResult importOneHot(NodeContext &n) {
  auto indices = n.input(0), values = n.input(2);
  if (failed(indices) || failed(values))
    return failure();
  const onnx::TensorProto *dt = n.constTensor(1);
  if (!dt)
    return n.fail("depth must be a compile-time constant");
  auto bytes = decodeTensor(*dt);
  if (!bytes)
    return n.fail(llvm::toString(bytes.takeError()));
  auto attr = toElementsAttr(*n.ctx(), *bytes);
  if (!attr)
    return n.fail("depth: " + llvm::toString(attr.takeError()));
  if (attr->getNumElements() != 1)
    return n.fail("depth must hold one value");
  int64_t depth =
      llvm::isa<FloatType>(attr->getElementType())
          ? int64_t((*attr->getValues<APFloat>().begin()).convertToDouble())
          : (*attr->getValues<APInt>().begin()).getSExtValue();
  if (depth < 1)
    return n.fail("depth " + llvm::Twine(depth) + " must be positive");
  auto vt = n.typeOf(*values);
  if (vt.getNumElements() != 2)
    return n.fail("values must hold two elements [off, on]");
  auto it = n.typeOf(*indices);
  if (it.getElementType().isInteger(1))
    return n.fail("bool indices are not supported");
  int64_t r = it.getRank();
  auto axis = n.axis(n.intAttr("axis", -1), r + 1, "axis");
  if (failed(axis))
    return failure();
  // Float indices are truncated to integers; negative ones count from the
  // end; anything outside [-depth, depth) matches no position.
  auto idx = wrapNegative(n, toI64(n, *indices),
                          scalarOf(n, n.builder().getI64Type(), depth));
  if (failed(idx))
    return failure();
  SmallVector<int64_t> unsq(it.getShape());
  unsq.insert(unsq.begin() + *axis, 1);
  SmallVector<int64_t> rangeShape(r + 1, 1);
  rangeShape[*axis] = depth;
  SmallVector<int64_t> range;
  for (int64_t i = 0; i < depth; ++i)
    range.push_back(i);
  auto hit = compare(n, "equal", n.reshape(*idx, unsq),
                     i64Const(n, rangeShape, range));
  if (failed(hit))
    return failure();
  Value flat = n.reshape(*values, {2});
  OpBuilder &b = n.builder();
  auto one = n.tensorOf({1}, vt.getElementType());
  Value off = n.create<SliceOp>(one, flat, b.getDenseI64ArrayAttr({0}),
                                b.getDenseI64ArrayAttr({1}));
  Value on = n.create<SliceOp>(one, flat, b.getDenseI64ArrayAttr({1}),
                               b.getDenseI64ArrayAttr({1}));
  auto out = n.create<WhereOp>(*hit, on, off);
  if (failed(out))
    return failure();
  n.setOutput(0, *out);
  return success();
}

//===----------------------------------------------------------------------===//
// Scatter, ScatterElements, ScatterND
//===----------------------------------------------------------------------===//

/// The `reduction` attribute (opset 16+), checked.
FailureOr<std::string> scatterReduction(NodeContext &n) {
  const onnx::AttributeProto *a = n.attr("reduction");
  std::string r = a ? a->s() : "none";
  if (r != "none" && r != "add" && r != "mul" && r != "max" && r != "min") {
    (void)n.fail("unknown reduction '" + r + "'");
    return failure();
  }
  return r;
}

/// The operands every scatter shares (data, integer indices, updates of the
/// data's element type) and its reduction.
struct ScatterOperands {
  Value data, indices, updates;
  RankedTensorType dt, it, ut;
  std::string reduction;
};

FailureOr<ScatterOperands> scatterOperands(NodeContext &n) {
  auto data = n.input(0), indices = n.input(1), updates = n.input(2);
  if (failed(data) || failed(indices) || failed(updates))
    return failure();
  auto red = scatterReduction(n);
  if (failed(red))
    return failure();
  ScatterOperands s{*data, *indices, *updates, n.typeOf(*data),
                    n.typeOf(*indices), n.typeOf(*updates), *red};
  if (!llvm::isa<IntegerType>(s.it.getElementType()) ||
      s.it.getElementType().isInteger(1))
    return n.fail("indices must be integers");
  if (s.ut.getElementType() != s.dt.getElementType())
    return n.fail("updates and data have different element types");
  return s;
}

LogicalResult importScatterElements(NodeContext &n) {
  auto ops = scatterOperands(n);
  if (failed(ops))
    return failure();
  auto [data, indices, updates, dt, it, ut, red] = *ops;
  if (it.getShape() != ut.getShape() || it.getRank() != dt.getRank())
    return n.fail("indices " + shapeString(it.getShape()) + " and updates " +
                  shapeString(ut.getShape()) +
                  " must have one shape of the data's rank");
  if (dt.getRank() < 1)
    return n.fail("data must have rank 1 or more");
  auto axis = n.axis(n.intAttr("axis", 0), dt.getRank(), "axis");
  if (failed(axis))
    return failure();
  for (int64_t d = 0; d < dt.getRank(); ++d)
    if (d != *axis && it.getDimSize(d) > dt.getDimSize(d))
      return n.fail("indices dim " + llvm::Twine(d) + " exceeds the data's");
  n.setOutput(0, n.create<ScatterElementsOp>(
                     dt, data, indices, updates,
                     n.builder().getI64IntegerAttr(*axis),
                     n.builder().getStringAttr(red)));
  return success();
}

LogicalResult importScatterND(NodeContext &n) {
  auto ops = scatterOperands(n);
  if (failed(ops))
    return failure();
  auto [data, indices, updates, dt, it, ut, red] = *ops;
  if (it.getRank() < 1)
    return n.fail("indices must have rank 1 or more");
  int64_t k = it.getShape().back();
  if (k < 1 || k > dt.getRank())
    return n.fail("index tuples of length " + llvm::Twine(k) +
                  " do not fit data of rank " + llvm::Twine(dt.getRank()));
  SmallVector<int64_t> want(it.getShape().drop_back());
  llvm::append_range(want, dt.getShape().drop_front(k));
  if (ut.getShape() != ArrayRef<int64_t>(want))
    return n.fail("updates " + shapeString(ut.getShape()) + " should be " +
                  shapeString(want));
  n.setOutput(0, n.create<ScatterNDOp>(dt, data, indices, updates,
                                       n.builder().getStringAttr(red)));
  return success();
}

//===----------------------------------------------------------------------===//
// LRN
//===----------------------------------------------------------------------===//

LogicalResult importLRN(NodeContext &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  auto t = n.typeOf(*x);
  Type elt = t.getElementType();
  if (!llvm::isa<FloatType>(elt))
    return n.fail("input must be floating-point");
  if (t.getRank() < 2)
    return n.fail("input must be [N, C, ...]");
  const onnx::AttributeProto *sizeAttr = n.attr("size");
  if (!sizeAttr)
    return n.fail("attribute 'size' is missing");
  int64_t size = sizeAttr->i();
  if (size < 1)
    return n.fail("size must be positive");
  double alpha = n.floatAttr("alpha", 1e-4f), beta = n.floatAttr("beta", 0.75f);
  double bias = n.floatAttr("bias", 1.0f);
  ArrayRef<int64_t> s = t.getShape();
  int64_t N = s[0], C = s[1], S = product(s.drop_front(2));
  // square_sum[c] = sum of x^2 over channels [c - (size-1)/2 (floor),
  // c + (size-1)/2 (ceil)]; an average pool with zero padding counted gives
  // that sum / size, and the formula needs alpha / size * sum.
  auto sq = n.create<MulOp>(*x, *x);
  if (failed(sq))
    return failure();
  Value view = n.reshape(*sq, {N, 1, C, S});
  int64_t lo = (size - 1) / 2, hi = size - 1 - lo;
  OpBuilder &b = n.builder();
  Value mean = n.create<PoolOp>(
      view.getType(), view, b.getStringAttr("avg"),
      b.getDenseI64ArrayAttr({size, 1}), b.getDenseI64ArrayAttr({1, 1}),
      b.getDenseI64ArrayAttr({1, 1}), b.getDenseI64ArrayAttr({lo, 0, hi, 0}),
      b.getBoolAttr(true));
  mean = n.reshape(mean, s);
  Value biasConst = scalarOf(n, elt, bias);
  auto scaled = n.create<MulOp>(mean, scalarOf(n, elt, alpha));
  if (failed(scaled))
    return failure();
  auto base = n.create<AddOp>(*scaled, biasConst);
  if (failed(base))
    return failure();
  auto denom = n.create<PowOp>(*base, scalarOf(n, elt, beta));
  if (failed(denom))
    return failure();
  auto out = n.create<DivOp>(*x, *denom);
  if (failed(out))
    return failure();
  n.setOutput(0, *out);
  return success();
}

} // namespace

void addSelectionImporters(llvm::StringMap<OpImporter> &table) {
  table["TopK"] = importTopK;
  table["GatherND"] = importGatherND;
  table["OneHot"] = importOneHot;
  table["Scatter"] = importScatterElements;
  table["ScatterElements"] = importScatterElements;
  table["ScatterND"] = importScatterND;
  table["LRN"] = importLRN;
}

} // namespace lpx::onnximport
