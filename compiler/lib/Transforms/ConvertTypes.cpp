//===- ConvertTypes.cpp - Weights and activations in chosen formats -------===//
#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Dialect/Graph/IR/ShapeOnly.h"
#include "lpx/Dialect/Graph/IR/WeightBlobs.h"
#include "lpx/Dialect/Graph/IR/GraphNames.h"
#include "lpx/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"
#include <cmath>
#include <cstring>

namespace lpx {
#define GEN_PASS_DEF_CONVERTTYPES
#include "lpx/Transforms/Passes.h.inc"
} // namespace lpx

using namespace mlir;
using namespace lpx::graph;

namespace {

/// The MLIR type of a float format name; null for an unknown name.
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

/// A float tensor of the widths a host hands over and takes back (fp32,
/// fp64): converted by the host at the program's boundary.
bool hostConverts(Type t) {
  auto r = dyn_cast<RankedTensorType>(t);
  return r && (r.getElementType().isF32() || r.getElementType().isF64());
}

/// The float values of a constant held in a blob, one at a time, read from
/// its bytes (no dense copy is made).
struct BlobFloats {
  ArrayRef<char> bytes;
  const llvm::fltSemantics &sem;
  unsigned width; // bytes per element
  BlobFloats(ElementsAttr w)
      : bytes(*weightBytes(w)),
        sem(cast<FloatType>(w.getElementType()).getFloatSemantics()),
        width(w.getElementType().getIntOrFloatBitWidth() / 8) {}
  size_t size() const { return bytes.size() / width; }
  APFloat operator[](size_t i) const {
    uint64_t raw = 0;
    std::memcpy(&raw, bytes.data() + i * width, width); // little-endian host
    return APFloat(sem, APInt(width * 8, raw));
  }
};

/// Calls `each` with every value of a float weight, dense or in a blob.
void forEachFloat(ElementsAttr w, llvm::function_ref<void(const APFloat &)> each) {
  if (auto dense = dyn_cast<DenseFPElementsAttr>(w)) {
    for (const APFloat &v : dense.getValues<APFloat>())
      each(v);
    return;
  }
  BlobFloats values(w);
  for (size_t i = 0, n = values.size(); i < n; ++i)
    each(values[i]);
}

/// A weight quantized to int8 with one symmetric scale for the tensor:
/// q = round(w / s), s = max|w| / 127. Returns the int8 constant and s; a
/// weight in a blob gives one in a blob.
std::pair<ElementsAttr, double> quantizeInt8(ElementsAttr w) {
  double maxAbs = 0;
  forEachFloat(w, [&](const APFloat &v) {
    maxAbs = std::max(maxAbs, std::fabs(v.convertToDouble()));
  });
  double scale = maxAbs > 0 ? maxAbs / 127.0 : 1.0;
  auto type = RankedTensorType::get(
      cast<RankedTensorType>(w.getType()).getShape(),
      IntegerType::get(w.getContext(), 8));
  if (isBlobWeight(w)) {
    WeightBuffer out(size_t(w.getNumElements()));
    int8_t *q = reinterpret_cast<int8_t *>(out.data().data());
    forEachFloat(w, [&](const APFloat &v) {
      *q++ = int8_t(std::lround(v.convertToDouble() / scale));
    });
    return {std::move(out).take(type, derivedName(w, ".i8")), scale};
  }
  SmallVector<int8_t> q;
  q.reserve(w.getNumElements());
  forEachFloat(w, [&](const APFloat &v) {
    q.push_back(int8_t(std::lround(v.convertToDouble() / scale)));
  });
  return {DenseElementsAttr::get(type, ArrayRef<int8_t>(q)), scale};
}

/// A short name of a float type for labels ("f16", "f8E4M3FN").
std::string formatName(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

/// `v` rounded to `sem` (nearest even), as bits.
APInt roundTo(const APFloat &v, const llvm::fltSemantics &sem) {
  APFloat x = v;
  bool lost;
  x.convert(sem, APFloat::rmNearestTiesToEven, &lost);
  return x.bitcastToAPInt();
}

/// A weight in a blob rounded to `to`, in a new blob.
ElementsAttr convertBlob(ElementsAttr value, FloatType to) {
  const llvm::fltSemantics &sem = to.getFloatSemantics();
  unsigned width = to.getWidth() / 8;
  BlobFloats values(value);
  WeightBuffer out(values.size() * width);
  char *p = out.data().data();
  for (size_t i = 0, n = values.size(); i < n; ++i, p += width) {
    uint64_t bits = roundTo(values[i], sem).getZExtValue();
    std::memcpy(p, &bits, width); // little-endian host
  }
  return std::move(out).take(withElement(value.getType(), to),
                             derivedName(value, "." + formatName(to)));
}

/// The constant's values rounded to `to` (nearest even), or null if it has
/// no values to convert.
ElementsAttr convertConstant(ElementsAttr value, FloatType to) {
  if (isShapeOnly(value))
    return shapeOnlyFrom(value, withElement(value.getType(), to),
                         "." + formatName(to));
  if (isBlobWeight(value) && isa<FloatType>(value.getElementType()))
    return convertBlob(value, to);
  auto dense = dyn_cast<DenseFPElementsAttr>(value);
  if (!dense)
    return nullptr;
  const llvm::fltSemantics &sem = to.getFloatSemantics();
  return dense.mapValues(
      to, [&](const APFloat &v) { return roundTo(v, sem); });
}

/// Float ops that carry values from integers back to integers only
/// (QLinear requantisation: f32(acc) * scale, round, + zero point, clip,
/// cast to int8; shape arithmetic done in float): every float operand comes
/// from another such op and every user is one or a cast to an integer type.
/// Their format is part of an integer result, so they keep it.
llvm::DenseSet<Operation *> integerIslands(Block &body) {
  llvm::DenseSet<Operation *> island;
  for (Operation &op : body.without_terminator())
    if (op.getNumResults() == 1 && isFloatTensor(op.getResult(0).getType()))
      island.insert(&op);
  // A constant operand is always fine: one shared with converted ops is
  // cloned for the island below.
  auto belongs = [&](Operation &op) {
    for (Value in : op.getOperands())
      if (isFloatTensor(in.getType()) &&
          !(in.getDefiningOp() && (island.contains(in.getDefiningOp()) ||
                                   isa<ConstantOp>(in.getDefiningOp()))))
        return false;
    return llvm::all_of(op.getResult(0).getUsers(), [&](Operation *user) {
      return island.contains(user) ||
             (isa<CastOp>(user) && !isFloatTensor(user->getResult(0).getType()));
    });
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (Operation &op : body.without_terminator())
      if (island.contains(&op) && !belongs(op)) {
        island.erase(&op);
        changed = true;
      }
  }
  for (Operation &op : body.without_terminator()) {
    if (!island.contains(&op))
      continue;
    for (OpOperand &use : op.getOpOperands()) {
      auto c = use.get().getDefiningOp<ConstantOp>();
      if (c && isFloatTensor(c.getType()) && !island.contains(c)) {
        OpBuilder b(&op);
        Operation *copy = b.clone(*c);
        island.insert(copy);
        use.set(copy->getResult(0));
      }
    }
  }
  return island;
}

struct ConvertTypesPass : lpx::impl::ConvertTypesBase<ConvertTypesPass> {
  using ConvertTypesBase::ConvertTypesBase;

  /// Replaces a float weight by int8 values and multiplies every MatMul
  /// reading it by the scale (in the activations' format, or the weight's).
  LogicalResult quantizeWeight(ConstantOp c, FloatType act,
                               WeightHolders &holders) {
    ElementsAttr value = c.getValue();
    bool hasValues = isa<DenseFPElementsAttr>(value) ||
                     (isBlobWeight(value) && isa<FloatType>(value.getElementType()));
    bool shapeOnly = isShapeOnly(value);
    if (!hasValues && !shapeOnly)
      return c.emitOpError("has no values to quantize");
    // A shape-only weight stays so, and so does its scale: one comes from
    // the values of the other.
    ElementsAttr q;
    double scale = 1.0;
    if (shapeOnly)
      q = shapeOnlyFrom(value, withElement(value.getType(),
                                           IntegerType::get(c.getContext(), 8)),
                        ".i8");
    else
      std::tie(q, scale) = quantizeInt8(value);
    Type floatElem = act ? Type(act) : value.getElementType();
    holders.setValue(c, q);
    for (Operation *user : llvm::make_early_inc_range(c->getUsers())) {
      auto mm = cast<MatMulOp>(user);
      OpBuilder b(mm->getContext());
      b.setInsertionPointAfter(mm);
      auto resultType = withElement(mm.getType(), floatElem);
      mm.getResult().setType(resultType);
      auto scalarType = RankedTensorType::get({}, floatElem);
      auto s = b.create<ConstantOp>(
          mm.getLoc(),
          shapeOnly ? shapeOnlyFrom(value, scalarType, ".scale")
                    : cast<ElementsAttr>(DenseElementsAttr::get(
                          scalarType, b.getFloatAttr(floatElem, scale))));
      auto scaled = b.create<MulOp>(mm.getLoc(), resultType, mm.getResult(), s);
      mm.getResult().replaceAllUsesExcept(scaled, scaled);
    }
    return success();
  }

  void runOnOperation() override {
    func::FuncOp f = getOperation();
    MLIRContext *ctx = &getContext();
    FloatType act = formatType(ctx, activations);
    FloatType wgt = formatType(ctx, weights);
    bool int8Weights = weights == "int8";
    if ((!activations.empty() && !act) ||
        (!weights.empty() && !wgt && !int8Weights)) {
      f.emitError() << "unknown number format '"
                    << (!activations.empty() && !act ? activations : weights)
                    << "' (formats: fp32, fp16, bf16, fp8e4m3, fp8e5m2; "
                       "weights also int8)";
      return signalPassFailure();
    }
    if (!act && !wgt && !int8Weights)
      return;
    // The formats asked for travel to the program (its tolerances in lpx
    // run), whatever this function has to convert.
    if (!weights.empty())
      f->setAttr(lpx::graph::kWeightsFormatAttr, StringAttr::get(ctx, weights));
    if (!activations.empty())
      f->setAttr(lpx::graph::kActivationsFormatAttr, StringAttr::get(ctx, activations));
    Block &body = f.getBody().front();
    OpBuilder b(ctx);

    // The host converts at the boundary, as a deployment's runtime does:
    // fp32 (and fp64) inputs and results take the activations' format, so
    // a model converted here compiles to the program of the same model
    // exported in that format, with no casts at entry or exit (the runtime
    // converts the host's data; lpx run compares in the formats'
    // tolerance). An input already in a reduced format the model chose
    // (bf16, fp8) keeps it and is cast just before its first reader (not
    // all at the top: a layer's inputs then live, and are placed, with the
    // layer); such a result is cast back to it.
    llvm::SmallPtrSet<Operation *, 8> entryCasts;
    for (BlockArgument arg : body.getArguments()) {
      if (!act || !isFloatTensor(arg.getType()) ||
          cast<RankedTensorType>(arg.getType()).getElementType() == act)
        continue;
      if (hostConverts(arg.getType())) {
        arg.setType(withElement(arg.getType(), act));
        continue;
      }
      if (arg.use_empty())
        continue;
      Operation *first = nullptr;
      for (Operation *user : arg.getUsers())
        if (!first || user->isBeforeInBlock(first))
          first = user;
      b.setInsertionPoint(first);
      auto c = b.create<CastOp>(arg.getLoc(), withElement(arg.getType(), act),
                                arg);
      arg.replaceAllUsesExcept(c, c);
      entryCasts.insert(c);
    }
    llvm::DenseSet<Operation *> keep = integerIslands(body);
    WeightHolders holders(f);
    llvm::DenseMap<std::pair<Attribute, Type>, ElementsAttr> convertedOf;
    for (Operation &op : body.without_terminator()) {
      if (op.getNumResults() != 1 ||
          !isFloatTensor(op.getResult(0).getType()) || keep.contains(&op))
        continue;
      Value v = op.getResult(0);
      if (auto c = dyn_cast<ConstantOp>(op)) {
        bool onlyWeights = !v.use_empty() &&
                           llvm::all_of(v.getUses(), [](OpOperand &use) {
                             return isa<MatMulOp>(use.getOwner()) &&
                                    use.getOperandNumber() == 1;
                           });
        if (onlyWeights && int8Weights) {
          if (failed(quantizeWeight(c, act, holders)))
            return signalPassFailure();
          continue;
        }
        FloatType to = onlyWeights && wgt ? wgt : act;
        if (!to)
          continue;
        // Constants sharing a value (clones for integer islands) share
        // the converted one too.
        ElementsAttr &converted = convertedOf[{c.getValue(), to}];
        if (!converted)
          converted = convertConstant(c.getValue(), to);
        if (!converted) {
          c.emitOpError("has no values to convert to another format");
          return signalPassFailure();
        }
        holders.setValue(c, converted);
        continue;
      }
      // Entry casts already produce the activation format; the model's own
      // casts of an input (Cast(mask) to float) produce it too.
      if (act && !entryCasts.contains(&op))
        v.setType(withElement(v.getType(), act));
    }
    // Results the host widens leave in the activations' format; the others
    // go back to the types the model declares, cast right after they are
    // computed (so each stays with the layer that made it).
    auto ret = cast<func::ReturnOp>(body.getTerminator());
    for (auto [i, operand] : llvm::enumerate(ret->getOpOperands())) {
      Type want = f.getResultTypes()[i];
      if (operand.get().getType() == want || hostConverts(want))
        continue;
      if (Operation *def = operand.get().getDefiningOp())
        b.setInsertionPointAfter(def);
      else
        b.setInsertionPointToStart(&body);
      operand.set(b.create<CastOp>(ret.getLoc(), want, operand.get()));
    }
    f.setType(FunctionType::get(ctx, body.getArgumentTypes(),
                                ret->getOperandTypes()));
  }
};

} // namespace
