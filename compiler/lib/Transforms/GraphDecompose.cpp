//===- GraphDecompose.cpp - Composite graph ops into chip ops -------------===//
#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
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

Value transpose2d(PatternRewriter &rewriter, Location loc, Value v) {
  auto t = cast<RankedTensorType>(v.getType());
  auto type = RankedTensorType::get({t.getDimSize(1), t.getDimSize(0)},
                                    t.getElementType());
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
    if (failed(applyPatternsAndFoldGreedily(getOperation(),
                                            std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
