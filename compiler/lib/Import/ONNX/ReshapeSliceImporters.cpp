//===- ReshapeSliceImporters.cpp - Reshape-like, Slice, Concat, Gather ----===//
#include "OpImporters.h"
#include "Tensors.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace lpx::graph;

namespace lpx::onnximport {

LogicalResult importReshape(NodeContext &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> in = n.typeOf(*x).getShape();
  std::vector<int64_t> target;
  if (n.opset() < 5) {
    auto attr = n.intsAttr("shape");
    if (!attr)
      return n.fail("attribute 'shape' is missing");
    target = *attr;
  } else {
    auto shape = n.constInts(1);
    if (failed(shape))
      return failure();
    target = *shape;
  }
  bool allowZero = n.intAttr("allowzero", 0) != 0;
  SmallVector<int64_t> out;
  int inferred = -1;
  bool hasZero = false;
  for (size_t i = 0; i < target.size(); ++i) {
    int64_t s = target[i];
    if (s == 0 && !allowZero) {
      // 0 copies the input dim at the same position.
      if (i >= in.size())
        return n.fail("shape entry " + llvm::Twine(i) +
                      " is 0 but the input has rank " + llvm::Twine(in.size()));
      out.push_back(in[i]);
    } else if (s == -1) {
      if (inferred >= 0)
        return n.fail("shape has more than one -1");
      inferred = int(i);
      out.push_back(1);
    } else if (s < 0) {
      return n.fail("shape entry " + llvm::Twine(s) + " is invalid");
    } else {
      hasZero |= s == 0;
      out.push_back(s);
    }
  }
  if (allowZero && hasZero && inferred >= 0)
    return n.fail("shape has both 0 and -1 with allowzero=1");
  int64_t total = product(in), known = product(out);
  if (total == kTooManyElements || known == kTooManyElements)
    return n.fail("reshape from " + shapeString(in) + " to " +
                  shapeString(target) + ": more elements than 64 bits count");
  if (inferred >= 0) {
    if (known == 0 || total % known != 0)
      return n.fail("cannot infer the -1 dim reshaping " + shapeString(in) +
                    " to " + shapeString(target));
    out[inferred] = total / known;
  } else if (known != total) {
    return n.fail("reshape from " + shapeString(in) + " to " +
                  shapeString(out) + " changes the element count");
  }
  n.setOutput(0, n.create<ReshapeOp>(
                     n.tensorOf(out, n.typeOf(*x).getElementType()), *x));
  return success();
}

/// `axes` of Squeeze/Unsqueeze: an attribute before opset 13, then an input.
static FailureOr<std::optional<std::vector<int64_t>>>
squeezeAxes(NodeContext &n) {
  if (n.opset() < 13)
    return n.intsAttr("axes");
  if (!n.hasInput(1))
    return std::optional<std::vector<int64_t>>();
  auto axes = n.constInts(1);
  if (failed(axes))
    return failure();
  return std::optional<std::vector<int64_t>>(*axes);
}


LogicalResult importSqueeze(NodeContext &n) {
  auto x = n.input(0);
  auto axesOpt = squeezeAxes(n);
  if (failed(x) || failed(axesOpt))
    return failure();
  ArrayRef<int64_t> in = n.typeOf(*x).getShape();
  SmallVector<int64_t> out;
  if (!*axesOpt) {
    for (int64_t d : in)
      if (d != 1)
        out.push_back(d);
  } else {
    auto axes = n.axes(**axesOpt, in.size());
    if (failed(axes))
      return failure();
    for (int64_t d = 0; d < int64_t(in.size()); ++d) {
      bool squeezed = llvm::is_contained(*axes, d);
      if (squeezed && in[d] != 1)
        return n.fail("cannot squeeze dim " + llvm::Twine(d) + " of size " +
                      llvm::Twine(in[d]));
      if (!squeezed)
        out.push_back(in[d]);
    }
  }
  n.setOutput(0, n.create<ReshapeOp>(
                     n.tensorOf(out, n.typeOf(*x).getElementType()), *x));
  return success();
}

LogicalResult importUnsqueeze(NodeContext &n) {
  auto x = n.input(0);
  auto axesOpt = squeezeAxes(n);
  if (failed(x) || failed(axesOpt))
    return failure();
  if (!*axesOpt)
    return n.fail("axes are missing");
  ArrayRef<int64_t> in = n.typeOf(*x).getShape();
  // Axes index the output, whose rank counts the new dims.
  int64_t outRank = in.size() + (*axesOpt)->size();
  auto axes = n.axes(**axesOpt, outRank);
  if (failed(axes))
    return failure();
  SmallVector<int64_t> out;
  size_t next = 0;
  for (int64_t d = 0; d < outRank; ++d)
    out.push_back(llvm::is_contained(*axes, d) ? 1 : in[next++]);
  n.setOutput(0, n.create<ReshapeOp>(
                     n.tensorOf(out, n.typeOf(*x).getElementType()), *x));
  return success();
}

LogicalResult importTranspose(NodeContext &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> in = n.typeOf(*x).getShape();
  int64_t rank = in.size();
  std::vector<int64_t> perm;
  if (auto attr = n.intsAttr("perm")) {
    perm = *attr;
  } else {
    for (int64_t d = rank - 1; d >= 0; --d)
      perm.push_back(d);
  }
  return n.setOutput(0, n.create<TransposeOp>(*x, perm));
}

LogicalResult importConcat(NodeContext &n) {
  auto present = n.presentInputs();
  if (failed(present))
    return failure();
  SmallVector<Value> inputs = std::move(*present);
  // Concat-1 defaulted the axis to 1; from opset 4 it is required.
  const onnx::AttributeProto *axisAttr = n.attr("axis");
  if (!axisAttr && n.opset() >= 4)
    return n.fail("attribute 'axis' is missing");
  auto first = n.typeOf(inputs[0]);
  int64_t rank = first.getRank();
  auto axis = n.axis(axisAttr ? axisAttr->i() : 1, rank, "axis");
  if (failed(axis))
    return failure();
  return n.setOutput(0, n.create<ConcatOp>(inputs, *axis));
  return success();
}

SliceDim resolveSliceDim(int64_t start, int64_t end, int64_t step,
                         int64_t dim) {
  // ONNX Slice: negative indices count from the end, then clamp to
  // [0, dim] going forward and to [-1, dim-1] going backward.
  if (dim == 0)
    return {0, 0};
  if (start < 0)
    start += dim;
  if (end < 0)
    end += dim;
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, dim);
    end = std::clamp<int64_t>(end, 0, dim);
  } else {
    start = std::clamp<int64_t>(start, 0, dim - 1);
    end = std::clamp<int64_t>(end, -1, dim - 1);
  }
  int64_t count = 0;
  if (step > 0 && end > start)
    count = (end - start - 1) / step + 1;
  else if (step < 0 && start > end) {
    // -step overflows for INT64_MIN; any step past the dim takes one element.
    int64_t mag = step == std::numeric_limits<int64_t>::min()
                      ? std::numeric_limits<int64_t>::max()
                      : -step;
    count = (start - end - 1) / mag + 1;
  }
  if (count == 0)
    start = 0;
  return {start, count};
}

LogicalResult importSlice(NodeContext &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> in = n.typeOf(*x).getShape();
  int64_t rank = in.size();
  std::vector<int64_t> starts, ends, axes, steps;
  bool haveAxes = false, haveSteps = false;
  if (n.opset() < 10) {
    auto s = n.intsAttr("starts"), e = n.intsAttr("ends");
    if (!s || !e)
      return n.fail("attributes 'starts' and 'ends' are required");
    starts = *s;
    ends = *e;
    if (auto a = n.intsAttr("axes")) {
      axes = *a;
      haveAxes = true;
    }
  } else {
    auto s = n.constInts(1);
    if (failed(s))
      return failure();
    auto e = n.constInts(2);
    if (failed(e))
      return failure();
    starts = *s;
    ends = *e;
    if (n.hasInput(3)) {
      auto a = n.constInts(3);
      if (failed(a))
        return failure();
      axes = *a;
      haveAxes = true;
    }
    if (n.hasInput(4)) {
      auto st = n.constInts(4);
      if (failed(st))
        return failure();
      steps = *st;
      haveSteps = true;
    }
  }
  size_t k = starts.size();
  if (!haveAxes)
    for (size_t i = 0; i < k; ++i)
      axes.push_back(i);
  if (!haveSteps)
    steps.assign(k, 1);
  if (ends.size() != k || axes.size() != k || steps.size() != k)
    return n.fail("starts, ends, axes and steps have different lengths");

  // Untouched dims are read whole: start 0, step 1.
  SmallVector<int64_t> outStarts(rank, 0), outSteps(rank, 1), out(in);
  SmallVector<bool> seen(rank, false);
  for (size_t i = 0; i < k; ++i) {
    auto axis = n.axis(axes[i], rank, "axis");
    if (failed(axis))
      return failure();
    if (seen[*axis])
      return n.fail("axis " + llvm::Twine(*axis) + " is sliced twice");
    seen[*axis] = true;
    if (steps[i] == 0)
      return n.fail("step of axis " + llvm::Twine(*axis) + " is 0");
    SliceDim r = resolveSliceDim(starts[i], ends[i], steps[i], in[*axis]);
    outStarts[*axis] = r.start;
    outSteps[*axis] = r.count == 0 ? 1 : steps[i];
    out[*axis] = r.count;
  }
  OpBuilder &b = n.builder();
  n.setOutput(0, n.create<SliceOp>(
                     n.tensorOf(out, n.typeOf(*x).getElementType()), *x,
                     b.getDenseI64ArrayAttr(outStarts),
                     b.getDenseI64ArrayAttr(outSteps)));
  return success();
}

LogicalResult importGather(NodeContext &n) {
  auto data = n.input(0);
  if (failed(data))
    return failure();
  ArrayRef<int64_t> ds = n.typeOf(*data).getShape();
  if (ds.empty())
    return n.fail("data must have rank 1 or more");
  auto axis = n.axis(n.intAttr("axis", 0), ds.size(), "axis");
  if (failed(axis))
    return failure();

  Value indices;
  if (const onnx::TensorProto *t = n.constTensor(1)) {
    // Constant indices: check the range now and make them non-negative, so
    // later stages never see the wrap-around form.
    auto bytes = decodeTensor(*t);
    if (!bytes)
      return n.fail(llvm::toString(bytes.takeError()));
    auto values = toInt64s(*bytes);
    if (!values)
      return n.fail("indices: " + llvm::toString(values.takeError()));
    int64_t dim = ds[*axis];
    bool anyNegative = false;
    for (int64_t v : *values) {
      if (v < -dim || v >= dim)
        return n.fail("index " + llvm::Twine(v) + " is out of range for dim " +
                      llvm::Twine(*axis) + " of size " + llvm::Twine(dim));
      anyNegative |= v < 0;
    }
    if (anyNegative) {
      auto elt = elementTypeOf(*n.ctx(), bytes->dataType);
      if (!elt || !llvm::isa<IntegerType>(*elt))
        return n.fail("indices must be integers");
      unsigned width = cast<IntegerType>(*elt).getWidth();
      SmallVector<APInt> fixed;
      for (int64_t v : *values)
        fixed.emplace_back(width, uint64_t(v < 0 ? v + dim : v),
                           /*isSigned=*/true);
      auto type = n.tensorOf(bytes->shape, *elt);
      indices = n.create<ConstantOp>(type, DenseElementsAttr::get(type, fixed));
    }
  }
  if (!indices) {
    auto idx = n.input(1);
    if (failed(idx))
      return failure();
    indices = *idx;
  }
  return n.setOutput(0, n.create<GatherOp>(*data, indices, *axis));
}

} // namespace lpx::onnximport
