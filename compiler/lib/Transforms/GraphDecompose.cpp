//===- GraphDecompose.cpp - Composite graph ops into chip ops -------------===//
#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Dialect/Graph/IR/ShapeOnly.h"
#include "lpx/Dialect/Graph/IR/WeightBlobs.h"
#include "lpx/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include <cstring>
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace lpx {
#define GEN_PASS_DEF_GRAPHDECOMPOSE
#include "lpx/Transforms/Passes.h.inc"
} // namespace lpx

using namespace mlir;
using namespace lpx::graph;

namespace {

/// A scalar constant of `elementType` holding `value`.
Value scalarConstant(PatternRewriter &rewriter, Location loc, Type elementType,
                     double value) {
  auto type = RankedTensorType::get({}, elementType);
  Attribute attr;
  if (isa<FloatType>(elementType))
    attr = DenseElementsAttr::get(type, rewriter.getFloatAttr(elementType, value));
  else
    attr = DenseElementsAttr::get(
        type, rewriter.getIntegerAttr(elementType, static_cast<int64_t>(value)));
  return rewriter.create<ConstantOp>(loc, cast<ElementsAttr>(attr));
}

/// The transpose of a 2-D dense constant, or null when it cannot be built
/// by moving bytes (sub-byte elements).
ElementsAttr transposedConstant(ConstantOp c, RankedTensorType type) {
  if (isShapeOnly(c.getValue()))
    return type.getElementType().getIntOrFloatBitWidth() % 8 == 0
               ? shapeOnlyFrom(c.getValue(), type, ".T")
               : nullptr;
  auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
  if (dense && dense.isSplat())
    return DenseElementsAttr::get(type, dense.getSplatValue<Attribute>());
  std::optional<ArrayRef<char>> raw = weightBytes(c.getValue());
  if (!raw)
    return nullptr;
  size_t eb = type.getElementType().getIntOrFloatBitWidth() / 8;
  int64_t rows = type.getDimSize(1), cols = type.getDimSize(0); // of input
  return deriveWeight(c.getValue(), type, ".T", [&](MutableArrayRef<char> out) {
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c2 = 0; c2 < cols; ++c2)
        std::memcpy(&out[(c2 * rows + r) * eb], &(*raw)[(r * cols + c2) * eb],
                    eb);
  });
}

/// Transposes a 2-D value; a constant (a Gemm weight with transB, the
/// common case) is transposed at compile time so it stays a weight that
/// the partitioner can split.
Value transpose2d(PatternRewriter &rewriter, Location loc, Value v) {
  auto t = cast<RankedTensorType>(v.getType());
  auto type = RankedTensorType::get({t.getDimSize(1), t.getDimSize(0)},
                                    t.getElementType());
  if (auto c = v.getDefiningOp<ConstantOp>())
    if (ElementsAttr folded = transposedConstant(c, type))
      return rewriter.create<ConstantOp>(loc, folded);
  return rewriter.create<TransposeOp>(loc, type, v,
                                      rewriter.getDenseI64ArrayAttr({1, 0}));
}

/// Gemm(A, B, C) = alpha * op(A) @ op(B) + beta * C.
struct DecomposeGemm : OpRewritePattern<GemmOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GemmOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type elem = resultType.getElementType();
    Value a = op.getA(), b = op.getB();
    if (cast<RankedTensorType>(a.getType()).getRank() != 2 ||
        cast<RankedTensorType>(b.getType()).getRank() != 2)
      return rewriter.notifyMatchFailure(op, "Gemm operands must be 2-D");
    if (op.getTransA())
      a = transpose2d(rewriter, loc, a);
    if (op.getTransB())
      b = transpose2d(rewriter, loc, b);
    Value r = rewriter.create<MatMulOp>(loc, resultType, a, b);
    double alpha = op.getAlpha().convertToDouble();
    if (alpha != 1.0)
      r = rewriter.create<MulOp>(loc, resultType, r,
                                 scalarConstant(rewriter, loc, elem, alpha));
    double beta = op.getBeta().convertToDouble();
    if (Value c = op.getC(); c && beta != 0.0) {
      if (beta != 1.0) {
        auto cType = cast<RankedTensorType>(c.getType());
        c = rewriter.create<MulOp>(loc, cType, c,
                                   scalarConstant(rewriter, loc, elem, beta));
      }
      r = rewriter.create<AddOp>(loc, resultType, r, c);
    }
    rewriter.replaceOp(op, r);
    return success();
  }
};

struct GraphDecomposePass
    : lpx::impl::GraphDecomposeBase<GraphDecomposePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<DecomposeGemm>(&getContext());
    // Weights that a transposed copy replaced are freed at the end.
    SmallVector<ElementsAttr> weights = blobWeightsUnder(getOperation());
    if (failed(applyPatternsAndFoldGreedily(getOperation(),
                                            std::move(patterns))))
      signalPassFailure();
    releaseUnusedWeights(getOperation(), weights);
  }
};

} // namespace
