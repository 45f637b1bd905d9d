//===- ConvertTypes.cpp - Weights and activations in chosen formats -------===//
#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace lpx {
#define GEN_PASS_DEF_CONVERTTYPES
#include "lpx/Transforms/Passes.h.inc"
} // namespace lpx

using namespace mlir;
using namespace lpx::graph;

namespace {

/// The MLIR type of a format name; null for an unknown name.
FloatType formatType(MLIRContext *ctx, StringRef name) {
  Builder b(ctx);
  if (name == "fp32") return b.getF32Type();
  if (name == "fp16") return b.getF16Type();
  if (name == "bf16") return b.getBF16Type();
  if (name == "fp8e4m3") return b.getFloat8E4M3FNType();
  if (name == "fp8e5m2") return b.getFloat8E5M2Type();
  return nullptr;
}

RankedTensorType withElement(Type t, Type elem) {
  auto r = cast<RankedTensorType>(t);
  return RankedTensorType::get(r.getShape(), elem);
}

bool isFloatTensor(Type t) {
  auto r = dyn_cast<RankedTensorType>(t);
  return r && isa<FloatType>(r.getElementType());
}

/// The constant's values rounded to `to` (nearest even), or null if it has
/// no values to convert.
ElementsAttr convertConstant(ElementsAttr value, FloatType to) {
  auto dense = dyn_cast<DenseFPElementsAttr>(value);
  if (!dense)
    return nullptr;
  const llvm::fltSemantics &sem = to.getFloatSemantics();
  return dense.mapValues(to, [&](const APFloat &v) {
    APFloat x = v;
    bool lost;
    x.convert(sem, APFloat::rmNearestTiesToEven, &lost);
    return x.bitcastToAPInt();
  });
}

struct ConvertTypesPass : lpx::impl::ConvertTypesBase<ConvertTypesPass> {
  using ConvertTypesBase::ConvertTypesBase;

  void runOnOperation() override {
    func::FuncOp f = getOperation();
    MLIRContext *ctx = &getContext();
    FloatType act = formatType(ctx, activations);
    FloatType wgt = formatType(ctx, weights);
    if ((!activations.empty() && !act) || (!weights.empty() && !wgt)) {
      f.emitError() << "unknown number format '"
                    << (!activations.empty() && !act ? activations : weights)
                    << "' (formats: fp32, fp16, bf16, fp8e4m3, fp8e5m2)";
      return signalPassFailure();
    }
    if (!act && !wgt)
      return;
    Block &body = f.getBody().front();
    OpBuilder b(ctx);

    // Inputs keep their types at the boundary and are cast on entry.
    if (act) {
      b.setInsertionPointToStart(&body);
      for (BlockArgument arg : body.getArguments()) {
        if (!isFloatTensor(arg.getType()) ||
            cast<RankedTensorType>(arg.getType()).getElementType() == act)
          continue;
        auto c = b.create<CastOp>(arg.getLoc(), withElement(arg.getType(), act),
                                  arg);
        arg.replaceAllUsesExcept(c, c);
      }
    }
    for (Operation &op : body.without_terminator()) {
      if (op.getNumResults() != 1 || !isFloatTensor(op.getResult(0).getType()))
        continue;
      Value v = op.getResult(0);
      if (auto c = dyn_cast<ConstantOp>(op)) {
        bool onlyWeights = !v.use_empty() &&
                           llvm::all_of(v.getUses(), [](OpOperand &use) {
                             return isa<MatMulOp>(use.getOwner()) &&
                                    use.getOperandNumber() == 1;
                           });
        FloatType to = onlyWeights && wgt ? wgt : act;
        if (!to)
          continue;
        ElementsAttr converted = convertConstant(c.getValue(), to);
        if (!converted) {
          c.emitOpError("has no values to convert to another format");
          return signalPassFailure();
        }
        c.setValueAttr(converted);
        v.setType(converted.getType());
        continue;
      }
      // Entry casts already produce the activation format.
      if (act && !(isa<CastOp>(op) && isa<BlockArgument>(op.getOperand(0))))
        v.setType(withElement(v.getType(), act));
    }
    // Results go back to the types the model declares.
    auto ret = cast<func::ReturnOp>(body.getTerminator());
    b.setInsertionPoint(ret);
    for (auto [i, operand] : llvm::enumerate(ret->getOpOperands())) {
      Type want = f.getResultTypes()[i];
      if (operand.get().getType() != want)
        operand.set(b.create<CastOp>(ret.getLoc(), want, operand.get()));
    }
  }
};

} // namespace
