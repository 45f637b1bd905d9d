//===- DataMovementImporters.cpp - Flatten, Expand, Tile, Split, Pad, ... -===//
//
// Data movement beyond reshapes, slices, concats and gathers
// (ReshapeSliceImporters.cpp): Flatten, Expand, Tile, Split, Pad,
// DepthToSpace / SpaceToDepth, GatherElements, Trilu, EyeLike.
//
//===----------------------------------------------------------------------===//
#include "OpImporters.h"
#include "Tensors.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"

#include "llvm/ADT/STLExtras.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace lpx::graph;

namespace lpx::onnximport {
namespace {

LogicalResult importFlatten(NodeContext &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> s = n.typeOf(*x).getShape();
  int64_t rank = s.size();
  int64_t axis = n.intAttr("axis", 1);
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis > rank)
    return n.fail("axis is out of range");
  int64_t outer = product(s.take_front(axis)), inner = product(s.drop_front(axis));
  n.setOutput(0, n.create<ReshapeOp>(
                     n.tensorOf({outer, inner}, n.typeOf(*x).getElementType()),
                     *x));
  return success();
}

Value broadcastTo(NodeContext &n, Value x, ArrayRef<int64_t> shape) {
  auto t = n.typeOf(x);
  if (t.getShape() == shape)
    return n.copy(x);
  return n.create<BroadcastOp>(n.tensorOf(shape, t.getElementType()), x);
}

LogicalResult importExpand(NodeContext &n) {
  auto x = n.input(0);
  auto shape = n.constInts(1);
  if (failed(x) || failed(shape))
    return failure();
  auto out = broadcastShapes(n.typeOf(*x).getShape(), *shape);
  if (failed(out))
    return n.fail("shape " + shapeString(*shape) + " and input shape " +
                  shapeString(n.typeOf(*x).getShape()) +
                  " cannot be broadcast");
  n.setOutput(0, broadcastTo(n, *x, *out));
  return success();
}

LogicalResult importTile(NodeContext &n) {
  auto x = n.input(0);
  auto repeats = n.constInts(1);
  if (failed(x) || failed(repeats))
    return failure();
  ArrayRef<int64_t> s = n.typeOf(*x).getShape();
  if (repeats->size() != s.size())
    return n.fail("repeats has " + llvm::Twine(repeats->size()) +
                  " entries for rank " + llvm::Twine(s.size()));
  // [d0, d1] tiled by [r0, r1]: view as [1, d0, 1, d1], broadcast to
  // [r0, d0, r1, d1], then merge pairs.
  SmallVector<int64_t> split, wide, out;
  for (size_t d = 0; d < s.size(); ++d) {
    if ((*repeats)[d] < 0)
      return n.fail("repeats must not be negative");
    split.append({1, s[d]});
    wide.append({(*repeats)[d], s[d]});
    out.push_back((*repeats)[d] * s[d]);
  }
  Value v = n.reshape(*x, split);
  v = broadcastTo(n, v, wide);
  n.setOutput(0, n.create<ReshapeOp>(
                     n.tensorOf(out, n.typeOf(*x).getElementType()), v));
  return success();
}

LogicalResult importSplit(NodeContext &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> s = n.typeOf(*x).getShape();
  auto axis = n.axis(n.intAttr("axis", 0), s.size(), "axis");
  if (failed(axis))
    return failure();
  std::vector<int64_t> sizes;
  if (n.opset() >= 13 && n.hasInput(1)) {
    auto v = n.constInts(1);
    if (failed(v))
      return failure();
    sizes = *v;
  } else if (n.opset() < 13) {
    if (n.hasInput(1)) {
      auto v = n.constInts(1);
      if (failed(v))
        return failure();
      sizes = *v;
    } else {
      sizes = n.intsAttr("split").value_or(std::vector<int64_t>{});
    }
  }
  int64_t outputs = n.node.output_size();
  if (sizes.empty()) {
    if (s[*axis] % outputs != 0)
      return n.fail("dim " + llvm::Twine(s[*axis]) + " does not split into " +
                    llvm::Twine(outputs) + " equal parts");
    sizes.assign(outputs, s[*axis] / outputs);
  }
  if (int64_t(sizes.size()) != outputs)
    return n.fail("split has " + llvm::Twine(sizes.size()) + " sizes for " +
                  llvm::Twine(outputs) + " outputs");
  int64_t total = 0;
  for (int64_t v : sizes)
    total += v;
  if (total != s[*axis])
    return n.fail("split sizes do not add up to the dim");
  OpBuilder &b = n.builder();
  int64_t offset = 0;
  for (int64_t i = 0; i < outputs; ++i) {
    SmallVector<int64_t> starts(s.size(), 0), steps(s.size(), 1), out(s);
    starts[*axis] = sizes[i] ? offset : 0;
    out[*axis] = sizes[i];
    n.setOutput(i, n.create<SliceOp>(
                       n.tensorOf(out, n.typeOf(*x).getElementType()), *x,
                       b.getDenseI64ArrayAttr(starts),
                       b.getDenseI64ArrayAttr(steps)));
    offset += sizes[i];
  }
  return success();
}

LogicalResult importPad(NodeContext &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  auto t = n.typeOf(*x);
  int64_t rank = t.getRank();
  std::vector<int64_t> pads;
  double value = 0;
  if (n.opset() < 11) {
    pads = n.intsAttr(n.opset() < 2 ? "paddings" : "pads")
               .value_or(std::vector<int64_t>{});
    value = n.numberAttr("value", 0);
  } else {
    auto p = n.constInts(1);
    if (failed(p))
      return failure();
    pads = *p;
    if (n.hasInput(2)) {
      auto v = n.constNumber(2);
      if (failed(v))
        return failure();
      value = *v;
    }
    if (n.hasInput(3))
      return n.fail("the axes input (opset 18) is not supported");
  }
  if (int64_t(pads.size()) != 2 * rank)
    return n.fail("pads has " + llvm::Twine(pads.size()) + " entries for rank " +
                  llvm::Twine(rank));
  const onnx::AttributeProto *m = n.attr("mode");
  std::string mode = m ? m->s() : "constant";
  std::optional<PadMode> padMode = symbolizePadMode(mode);
  if (!padMode)
    return n.fail("mode '" + mode + "' is not supported");
  OpBuilder &b = n.builder();
  return n.setOutput(0, n.create<PadOp>(*x, PadModeAttr::get(n.ctx(), *padMode),
                                        b.getDenseI64ArrayAttr(pads),
                                        b.getF64FloatAttr(value)));
}


LogicalResult importDepthSpace(NodeContext &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  auto t = n.typeOf(*x);
  if (t.getRank() != 4)
    return n.fail("input must be 4-D");
  int64_t b = n.intAttr("blocksize", 0);
  if (b <= 0)
    return n.fail("blocksize must be positive");
  int64_t N = t.getDimSize(0), C = t.getDimSize(1), H = t.getDimSize(2),
          W = t.getDimSize(3);
  // Blocks move by a reshape to 6-D, a transpose and a reshape back.
  FailureOr<Value> v;
  SmallVector<int64_t> outShape;
  if (n.node.op_type() == "DepthToSpace") {
    if (C % (b * b))
      return n.fail("channels are not a multiple of blocksize^2");
    int64_t c = C / (b * b);
    const onnx::AttributeProto *m = n.attr("mode");
    if (m && m->s() == "CRD")
      v = n.create<TransposeOp>(n.reshape(*x, {N, c, b, b, H, W}),
                                ArrayRef<int64_t>{0, 1, 4, 2, 5, 3});
    else
      v = n.create<TransposeOp>(n.reshape(*x, {N, b, b, c, H, W}),
                                ArrayRef<int64_t>{0, 3, 4, 1, 5, 2});
    outShape = {N, c, H * b, W * b};
  } else {
    if (H % b || W % b)
      return n.fail("spatial dims are not multiples of blocksize");
    v = n.create<TransposeOp>(n.reshape(*x, {N, C, H / b, b, W / b, b}),
                              ArrayRef<int64_t>{0, 3, 5, 1, 2, 4});
    outShape = {N, C * b * b, H / b, W / b};
  }
  if (failed(v))
    return failure();
  n.setOutput(0, n.reshape(*v, outShape));
  return success();
}

LogicalResult importGatherElements(NodeContext &n) {
  auto data = n.input(0), idx = n.input(1);
  if (failed(data) || failed(idx))
    return failure();
  auto dt = n.typeOf(*data), it = n.typeOf(*idx);
  if (dt.getRank() != it.getRank())
    return n.fail("data and indices must have the same rank");
  auto axis = n.axis(n.intAttr("axis", 0), dt.getRank(), "axis");
  if (failed(axis))
    return failure();
  return n.setOutput(0, n.create<GatherElementsOp>(
                            *data, *idx, n.builder().getI64IntegerAttr(*axis)));
}

Value zeroLike(NodeContext &n, Type elt) {
  auto t = RankedTensorType::get({}, elt);
  if (llvm::isa<FloatType>(elt))
    return n.create<ConstantOp>(DenseElementsAttr::get(t, FloatAttr::get(elt, 0.0)));
  return n.create<ConstantOp>(DenseElementsAttr::get(t, IntegerAttr::get(elt, 0)));
}

LogicalResult importTrilu(NodeContext &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  int64_t k = 0;
  if (n.hasInput(1)) {
    auto kv = n.constInts(1);
    if (failed(kv))
      return failure();
    if (kv->size() != 1)
      return n.fail("k must be a scalar");
    k = (*kv)[0];
  }
  auto t = n.typeOf(*x);
  if (t.getRank() < 2)
    return n.fail("input must have rank 2 or more");
  if (t.getElementType().isInteger(1))
    return n.fail("bool input is not supported");
  bool upper = n.intAttr("upper", 1) != 0;
  int64_t rows = t.getDimSize(t.getRank() - 2), cols = t.getDimSize(t.getRank() - 1);
  SmallVector<bool> mask;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      mask.push_back(upper ? j - i >= k : j - i <= k);
  auto mt = RankedTensorType::get({rows, cols}, n.builder().getI1Type());
  Value m = n.create<ConstantOp>(DenseElementsAttr::get(mt, ArrayRef<bool>(mask)));
  n.setOutput(0, n.create<WhereOp>(t, m, *x, zeroLike(n, t.getElementType())));
  return success();
}

LogicalResult importEyeLike(NodeContext &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  auto t = n.typeOf(*x);
  if (t.getRank() != 2)
    return n.fail("input must be 2-D");
  int32_t dtype = 0;
  if (const onnx::AttributeProto *a = n.attr("dtype"))
    dtype = int32_t(a->i());
  else if (const onnx::TypeProto *tp = n.st.onnxTypes.lookup(n.node.input(0)))
    dtype = tp->tensor_type().elem_type();
  Type elt = t.getElementType();
  if (dtype) {
    auto e = elementTypeOf(*n.ctx(), dtype);
    if (!e)
      return n.fail(llvm::toString(e.takeError()));
    elt = *e;
  }
  int64_t k = n.intAttr("k", 0);
  auto rt = RankedTensorType::get(t.getShape(), elt);
  int64_t rows = t.getDimSize(0), cols = t.getDimSize(1);
  Attribute value;
  if (llvm::isa<FloatType>(elt)) {
    SmallVector<APFloat> v;
    const auto &sem = cast<FloatType>(elt).getFloatSemantics();
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        v.push_back(APFloat(sem, j - i == k ? 1 : 0));
    value = DenseElementsAttr::get(rt, v);
  } else {
    unsigned w = cast<IntegerType>(elt).getWidth();
    SmallVector<APInt> v;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        v.push_back(APInt(w, j - i == k ? 1 : 0));
    value = DenseElementsAttr::get(rt, v);
  }
  n.setOutput(0, n.copy(n.create<ConstantOp>(cast<ElementsAttr>(value))));
  return success();
}
} // namespace

void addDataMovementImporters(llvm::StringMap<OpImporter> &table) {
  table["Flatten"] = importFlatten;
  table["Expand"] = importExpand;
  table["Tile"] = importTile;
  table["Split"] = importSplit;
  table["Pad"] = importPad;
  table["DepthToSpace"] = importDepthSpace;
  table["SpaceToDepth"] = importDepthSpace;
  table["GatherElements"] = importGatherElements;
  table["Trilu"] = importTrilu;
  table["EyeLike"] = importEyeLike;
}

} // namespace lpx::onnximport
