//===- PartitionGroups.cpp - Reductions split inside and across groups ----===//
//
// See PartitionGroups.h.
//
//===----------------------------------------------------------------------===//
#include "PartitionGroups.h"

#include "lpx/Dialect/Graph/IR/ShapeOnly.h"
#include "lpx/Dialect/Graph/IR/WeightBlobs.h"
#include "lpx/Dialect/Part/IR/PartOps.h"
#include "lpx/Target/ISABridge.h"

#include <cstring>

using namespace mlir;
using namespace lpx;
using namespace lpx::graph;

std::pair<int64_t, int64_t> lpx::blockRange(int64_t extent, int64_t parts,
                                            int64_t i) {
  int64_t base = extent / parts, extra = extent % parts;
  int64_t lo = i * base + std::min(i, extra);
  return {lo, lo + base + (i < extra ? 1 : 0)};
}

ElementsAttr lpx::sliceWeight(ElementsAttr value, int64_t part, int64_t r0,
                              int64_t r1, int64_t c0, int64_t c1) {
  auto type =
      RankedTensorType::get({r1 - r0, c1 - c0}, value.getElementType());
  if (isShapeOnly(value))
    return shapeOnlyFrom(value, type, ".part" + llvm::Twine(part));
  if (auto w = dyn_cast<DenseElementsAttr>(value); w && w.isSplat())
    return DenseElementsAttr::get(type, w.getSplatValue<Attribute>());
  unsigned eb = value.getElementType().getIntOrFloatBitWidth() / 8;
  int64_t cols = cast<RankedTensorType>(value.getType()).getDimSize(1);
  ArrayRef<char> raw = *weightBytes(value);
  return deriveWeight(value, type, ".part" + llvm::Twine(part),
                      [&](MutableArrayRef<char> out) {
                        size_t rowBytes = size_t(c1 - c0) * eb;
                        for (int64_t r = r0; r < r1; ++r)
                          std::memcpy(out.data() + (r - r0) * rowBytes,
                                      raw.data() + (r * cols + c0) * eb,
                                      rowBytes);
                      });
}

Value lpx::reduceScatter(OpBuilder &b, Location loc,
                         ArrayRef<SmallVector<Value>> blocks,
                         RankedTensorType type, int64_t home, int64_t group,
                         int64_t base) {
  const int64_t parts = int64_t(blocks.size());
  group = std::clamp<int64_t>(group, 1, parts);
  const int64_t groups = (parts + group - 1) / group;
  auto chainAdd = [&](Value sum, Value v, int64_t node) -> Value {
    if (!sum)
      return v;
    auto add = b.create<AddOp>(loc, v.getType(), sum, v);
    part::setNode(add, base + node);
    return add;
  };
  SmallVector<Value> sums;
  for (int64_t j = 0; j < parts; ++j) {
    Value total;
    for (int64_t g = 0; g < groups; ++g) {
      int64_t first = ((j / group + g) % groups) * group; // j's group first
      int64_t last = std::min(first + group, parts);
      int64_t collector = std::min(first + j % group, last - 1);
      Value sum = blocks[collector][j]; // the collector's own block first
      for (int64_t i = first; i < last; ++i)
        if (i != collector)
          sum = chainAdd(sum, blocks[i][j], collector);
      total = chainAdd(total, sum, j);
    }
    sums.push_back(total);
  }
  auto cat = b.create<ConcatOp>(loc, type, sums,
                                b.getI64IntegerAttr(type.getRank() - 1));
  part::setNode(cat, home);
  return cat;
}

int64_t lpx::rowGroupsFor(MatMulOp op, ConstantOp w, int64_t nodes,
                          int64_t group, uint64_t capacity) {
  auto lhs = cast<RankedTensorType>(op.getLhs().getType());
  auto wt = cast<RankedTensorType>(w.getType());
  if (group < 2 || nodes <= group || nodes % group || lhs.getRank() < 2 ||
      wt.getDimSize(1) < group ||
      tensorDescOf(op.getType()).bytes() < kReduceScatterBytes)
    return 1;
  const int64_t groups = nodes / group;
  const uint64_t perChip = tensorDescOf(wt).bytes() / uint64_t(group);
  if (lhs.getDimSize(lhs.getRank() - 2) < groups || perChip > capacity / 2)
    return 1;
  return groups;
}

Value lpx::splitRowsAcrossGroups(MatMulOp op, ElementsAttr w, int64_t group,
                                 int64_t groups, int64_t home) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
  auto resType = op.getType();
  auto wt = cast<RankedTensorType>(w.getType());
  const int64_t rank = lhsType.getRank(), rowAxis = rank - 2;
  const int64_t rows = lhsType.getDimSize(rowAxis);
  const int64_t k = wt.getDimSize(0), n = wt.getDimSize(1);
  // Chip p's blocks of the weight, the same in every group: cut once.
  SmallVector<SmallVector<ElementsAttr>> weights(group);
  for (int64_t p = 0; p < group; ++p)
    for (int64_t j = 0; j < group; ++j) {
      auto [r0, r1] = blockRange(k, group, p);
      auto [c0, c1] = blockRange(n, group, j);
      weights[p].push_back(sliceWeight(w, p * group + j, r0, r1, c0, c1));
    }
  SmallVector<Value> rowBlocks;
  for (int64_t g = 0; g < groups; ++g) {
    auto [m0, m1] = blockRange(rows, groups, g);
    SmallVector<SmallVector<Value>> blocks(group);
    for (int64_t p = 0; p < group; ++p) {
      const int64_t node = g * group + p;
      auto [k0, k1] = blockRange(k, group, p);
      SmallVector<int64_t> starts(rank, 0), steps(rank, 1);
      SmallVector<int64_t> shape(lhsType.getShape());
      starts[rowAxis] = m0;
      starts.back() = k0;
      shape[rowAxis] = m1 - m0;
      shape.back() = k1 - k0;
      auto lhs = b.create<SliceOp>(
          loc, RankedTensorType::get(shape, lhsType.getElementType()),
          op.getLhs(), b.getDenseI64ArrayAttr(starts),
          b.getDenseI64ArrayAttr(steps));
      part::setNode(lhs, home);
      for (int64_t j = 0; j < group; ++j) {
        auto c = b.create<ConstantOp>(loc, weights[p][j]);
        part::setNode(c, node);
        SmallVector<int64_t> out(resType.getShape());
        out[rowAxis] = m1 - m0;
        out.back() = cast<RankedTensorType>(c.getType()).getDimSize(1);
        auto mm = b.create<MatMulOp>(
            loc, RankedTensorType::get(out, resType.getElementType()), lhs, c);
        part::setNode(mm, node);
        blocks[p].push_back(mm);
      }
    }
    SmallVector<int64_t> shape(resType.getShape());
    shape[rowAxis] = m1 - m0;
    rowBlocks.push_back(reduceScatter(
        b, loc, blocks, RankedTensorType::get(shape, resType.getElementType()),
        g * group, group, g * group));
  }
  auto cat = b.create<ConcatOp>(loc, resType, rowBlocks,
                                b.getI64IntegerAttr(rowAxis));
  part::setNode(cat, home);
  return cat;
}
