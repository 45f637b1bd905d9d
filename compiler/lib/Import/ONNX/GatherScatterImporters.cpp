//===- GatherScatterImporters.cpp - ReverseSequence, MaxUnpool, GridSample -===//
//
// Both move elements to positions known at compile time (ReverseSequence,
// whose sequence_lens must be a compile-time constant) or given by an index
// tensor (MaxUnpool), so both decompose into existing data movement:
//
// - ReverseSequence: one gather of the [batch * time, ...] view by a constant
//   index vector (each batch entry's first len[b] time steps reversed, the
//   rest kept);
// - MaxUnpool: a scatter of the values into a zero tensor of the unpooled
//   element count at the pooled indices (MaxPool's Indices count over the
//   whole tensor), reshaped, and zero-extended when output_shape is larger.
//
// GridSample reads its taps at run-time positions: one SXM instruction,
// grid_sample (Opcodes.def).
//
//===----------------------------------------------------------------------===//
#include "OpImporters.h"
#include "Tensors.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"

using namespace mlir;
using namespace lpx::graph;

namespace lpx::onnximport {
namespace {

LogicalResult importReverseSequence(NodeContext &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  auto t = n.typeOf(*x);
  if (t.getRank() < 2)
    return n.fail("the input must have rank 2 or more");
  const int64_t batchAxis = n.intAttr("batch_axis", 1);
  const int64_t timeAxis = n.intAttr("time_axis", 0);
  if (!((batchAxis == 0 && timeAxis == 1) || (batchAxis == 1 && timeAxis == 0)))
    return n.fail("batch_axis and time_axis must be 0 and 1 in some order");
  if (!n.hasInput(1))
    return n.fail("input 1 (sequence_lens) is required but missing");
  auto lens = n.constInts(1);
  if (failed(lens))
    return failure();
  const int64_t batch = t.getDimSize(batchAxis), time = t.getDimSize(timeAxis);
  if (int64_t(lens->size()) != batch)
    return n.fail("sequence_lens has " + llvm::Twine(lens->size()) +
                  " entries, the batch " + llvm::Twine(batch));
  for (int64_t l : *lens)
    if (l < 0 || l > time)
      return n.fail("sequence length " + llvm::Twine(l) +
                    " is outside [0, " + llvm::Twine(time) + "]");
  // Output row p = i0 * d1 + i1 of the [d0 * d1, ...] view reads row idx[p].
  const int64_t d0 = t.getDimSize(0), d1 = t.getDimSize(1);
  std::vector<int64_t> idx;
  for (int64_t i0 = 0; i0 < d0; ++i0)
    for (int64_t i1 = 0; i1 < d1; ++i1) {
      int64_t b = batchAxis == 0 ? i0 : i1, s = batchAxis == 0 ? i1 : i0;
      int64_t len = (*lens)[b];
      int64_t src = s < len ? len - 1 - s : s;
      idx.push_back(batchAxis == 0 ? b * time + src : src * batch + b);
    }
  SmallVector<int64_t> flat{d0 * d1};
  flat.append(t.getShape().begin() + 2, t.getShape().end());
  Value view = n.reshape(*x, flat);
  auto it = RankedTensorType::get({d0 * d1}, n.builder().getI64Type());
  Value indices =
      n.create<ConstantOp>(DenseElementsAttr::get(it, ArrayRef<int64_t>(idx)));
  auto g = n.create<GatherOp>(view, indices, n.builder().getI64IntegerAttr(0));
  if (failed(g))
    return failure();
  n.setOutput(0, n.reshape(*g, t.getShape()));
  return success();
}

LogicalResult importMaxUnpool(NodeContext &n) {
  auto x = n.input(0);
  auto ind = n.input(1);
  if (failed(x) || failed(ind))
    return failure();
  auto xt = n.typeOf(*x);
  auto it = n.typeOf(*ind);
  const int64_t rank = xt.getRank(), s = rank - 2;
  if (s < 1)
    return n.fail("the input must be [N, C, spatial...]");
  if (it.getShape() != xt.getShape())
    return n.fail("the indices must have the input's shape " +
                  shapeString(xt.getShape()));
  auto kernel = n.intsAttr("kernel_shape");
  if (!kernel || int64_t(kernel->size()) != s)
    return n.fail("kernel_shape must give one size per spatial axis");
  std::vector<int64_t> strides =
      n.intsAttr("strides").value_or(std::vector<int64_t>(s, 1));
  std::vector<int64_t> pads =
      n.intsAttr("pads").value_or(std::vector<int64_t>(2 * s, 0));
  if (int64_t(strides.size()) != s || int64_t(pads.size()) != 2 * s)
    return n.fail("strides and pads must match the spatial rank");
  // The indices count over the shape MaxPool was applied to, the default
  // output shape; a larger output_shape holds that tensor in its leading
  // corner, zeros after it (as the ONNX test data shows).
  std::vector<int64_t> def = {xt.getDimSize(0), xt.getDimSize(1)};
  for (int64_t i = 0; i < s; ++i)
    def.push_back((xt.getDimSize(2 + i) - 1) * strides[i] - pads[i] -
                  pads[s + i] + (*kernel)[i]);
  std::vector<int64_t> out = def;
  if (n.hasInput(2)) {
    auto os = n.constInts(2);
    if (failed(os))
      return failure();
    out = *os;
    if (int64_t(out.size()) != rank)
      return n.fail("output_shape must have the input's rank");
    for (int64_t d = 0; d < rank; ++d)
      if (out[d] < def[d] || (d < 2 && out[d] != def[d]))
        return n.fail("output_shape " + shapeString(out) +
                      " is smaller than the unpooled shape " +
                      shapeString(def) + " or changes N or C");
  }
  int64_t total = 1;
  for (int64_t d : def) {
    if (d <= 0)
      return n.fail("the unpooled shape " + shapeString(def) +
                    " has an empty dimension");
    total *= d;
  }
  Type elt = xt.getElementType();
  auto zeros = [&](ArrayRef<int64_t> shape) -> Value {
    auto zt = RankedTensorType::get(shape, elt);
    return n.create<ConstantOp>(
        DenseElementsAttr::get(zt, n.builder().getZeroAttr(elt)));
  };
  auto flatType = RankedTensorType::get({total}, elt);
  const int64_t k = xt.getNumElements();
  Value idx = n.reshape(*ind, {k});
  Value upd = n.reshape(*x, {k});
  Value r = n.create<ScatterElementsOp>(flatType, zeros({total}), idx, upd,
                                        n.builder().getI64IntegerAttr(0),
                                        n.builder().getStringAttr("none"));
  r = n.reshape(r, def);
  SmallVector<int64_t> cur(def.begin(), def.end());
  for (int64_t d = 2; d < rank; ++d) {
    if (out[d] == cur[d])
      continue;
    SmallVector<int64_t> zshape = cur;
    zshape[d] = out[d] - cur[d];
    cur[d] = out[d];
    auto extended = n.create<ConcatOp>(ValueRange{r, zeros(zshape)},
                                       n.builder().getI64IntegerAttr(d));
    if (failed(extended))
      return failure();
    r = *extended;
  }
  n.setOutput(0, n.copy(r));
  return success();
}

LogicalResult importGridSample(NodeContext &n) {
  auto x = n.input(0);
  auto g = n.input(1);
  if (failed(x) || failed(g))
    return failure();
  auto xt = n.typeOf(*x), gt = n.typeOf(*g);
  if (xt.getRank() != 4)
    return n.fail("only 2-D sampling (X of rank 4) is supported");
  if (gt.getRank() != 4 || gt.getDimSize(3) != 2 ||
      gt.getDimSize(0) != xt.getDimSize(0))
    return n.fail("the grid must be [N, H_out, W_out, 2] with X's N");
  if (!llvm::isa<FloatType>(xt.getElementType()))
    return n.fail("X must be floating-point");
  auto str = [&](const char *name, const char *dflt) {
    const onnx::AttributeProto *a = n.attr(name);
    return a ? a->s() : std::string(dflt);
  };
  std::string mode = str("mode", "bilinear"),
              padding = str("padding_mode", "zeros");
  if (mode != "bilinear" && mode != "nearest" && mode != "bicubic")
    return n.fail("mode '" + mode + "' is not supported");
  if (padding != "zeros" && padding != "border" && padding != "reflection")
    return n.fail("padding_mode '" + padding + "' is not supported");
  Value grid = *g;
  if (gt.getElementType() != xt.getElementType())
    grid = n.create<CastOp>(
        RankedTensorType::get(gt.getShape(), xt.getElementType()), grid);
  OpBuilder &b = n.builder();
  return n.setOutput(
      0, n.create<GridSampleOp>(
             *x, grid, b.getStringAttr(mode), b.getStringAttr(padding),
             b.getBoolAttr(n.intAttr("align_corners", 0) != 0)));
}

} // namespace

void addGatherScatterImporters(llvm::StringMap<OpImporter> &table) {
  table["ReverseSequence"] = importReverseSequence;
  table["MaxUnpool"] = importMaxUnpool;
  table["GridSample"] = importGridSample;
}

} // namespace lpx::onnximport
