//===- PartitionPieces.cpp - Program inputs and outputs in pieces ---------===//
#include "PartitionPieces.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Dialect/Part/IR/PartOps.h"
#include "lpx/Dialect/Graph/IR/GraphNames.h"
#include "lpx/isa/Bindings.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/BitVector.h"
#include <numeric>

using namespace mlir;
using namespace lpx;

namespace {

/// Whether `pieces` (shapes and offsets) tile `whole` as a grid: along
/// one axis, or the row and column blocks of a product split across groups.
bool tiles(ArrayRef<int64_t> whole,
           ArrayRef<std::pair<ArrayRef<int64_t>, ArrayRef<int64_t>>> pieces) {
  SmallVector<isa::PieceBox> boxes;
  for (auto [shape, offsets] : pieces)
    boxes.push_back({shape, offsets});
  std::vector<int64_t> covered;
  return !isa::tileGrid(boxes, covered) && ArrayRef<int64_t>(covered) == whole;
}

/// The one node all users of `v` are on, or nullopt.
std::optional<int64_t> soleUserNode(Value v) {
  std::optional<int64_t> node;
  for (Operation *user : v.getUsers()) {
    std::optional<int64_t> n = part::getNode(user);
    if (!n || (node && *node != *n))
      return std::nullopt;
    node = n;
  }
  return node;
}

DictionaryAttr pieceAttrs(Builder &b, StringAttr name, int64_t node,
                          ArrayRef<int64_t> offsets, bool state = false) {
  SmallVector<NamedAttribute> attrs;
  if (name)
    attrs.push_back(b.getNamedAttr(graph::kInputNameAttr, name));
  if (state)
    attrs.push_back(b.getNamedAttr(graph::kStateAttr, b.getUnitAttr()));
  attrs.push_back(b.getNamedAttr(part::PartDialect::kNodeAttr,
                                 b.getI64IntegerAttr(node)));
  attrs.push_back(b.getNamedAttr(part::PartDialect::kOffsetsAttr,
                                 b.getDenseI64ArrayAttr(offsets)));
  return b.getDictionaryAttr(attrs);
}

} // namespace

BlockArgument lpx::addPieceArgument(func::FuncOp f, BlockArgument whole,
                                    Type type, int64_t node,
                                    ArrayRef<int64_t> offsets) {
  Builder b(f.getContext());
  const unsigned i = whole.getArgNumber(), at = f.getNumArguments();
  f.insertArgument(at, type,
                   pieceAttrs(b, f.getArgAttrOfType<StringAttr>(i, graph::kInputNameAttr),
                              node, offsets,
                              bool(f.getArgAttr(i, graph::kStateAttr))),
                   whole.getLoc());
  return f.getArgument(at);
}

namespace {

/// The boundary cast lpx-convert-types puts before an input's first reader,
/// when that cast is read only through slices each feeding one node, moved
/// past them: each slice reads the input and its piece is cast on its node.
/// The input is then bound in pieces, as it is when the model was exported
/// in the cast's format, instead of being cast whole on one node.
void sinkInputCasts(func::FuncOp f) {
  for (BlockArgument arg : f.getArguments()) {
    if (!arg.hasOneUse())
      continue;
    auto c = dyn_cast<graph::CastOp>(*arg.getUsers().begin());
    if (!c || c.getResult().use_empty() ||
        !llvm::all_of(c.getResult().getUsers(), [](Operation *user) {
          auto s = dyn_cast<graph::SliceOp>(user);
          return s && part::getNode(s) && soleUserNode(s.getResult());
        }))
      continue;
    Type element = cast<RankedTensorType>(arg.getType()).getElementType();
    for (Operation *user : llvm::make_early_inc_range(c.getResult().getUsers())) {
      auto s = cast<graph::SliceOp>(user);
      OpBuilder b(s);
      auto piece = b.create<graph::SliceOp>(
          s.getLoc(), RankedTensorType::get(s.getType().getShape(), element),
          arg, s.getStartsAttr(), s.getStepsAttr());
      part::setNode(piece, *part::getNode(s));
      auto pieceCast = b.create<graph::CastOp>(s.getLoc(), s.getType(), piece);
      part::setNode(pieceCast, *soleUserNode(s.getResult()));
      s.getResult().replaceAllUsesWith(pieceCast.getResult());
      s.erase();
    }
    c.erase();
  }
}

/// `v` cast to `type`'s element type: a concat read once (nested ones
/// too) as the concat of its blocks each cast on its own node, so a
/// result's boundary cast leaves the result in pieces.
Value castBlocks(OpBuilder &b, Value v, RankedTensorType type) {
  auto cat = v.getDefiningOp<graph::ConcatOp>();
  if (!cat || !v.hasOneUse() || !part::getNode(cat)) {
    b.setInsertionPointAfterValue(v);
    auto c = b.create<graph::CastOp>(v.getLoc(), type, v);
    part::setNode(c, part::getNodeOfValue(v));
    return c;
  }
  SmallVector<Value> blocks;
  for (Value in : cat.getInputs()) {
    auto t = cast<RankedTensorType>(in.getType());
    blocks.push_back(castBlocks(
        b, in, RankedTensorType::get(t.getShape(), type.getElementType())));
  }
  b.setInsertionPoint(cat);
  auto joined =
      b.create<graph::ConcatOp>(cat.getLoc(), type, blocks, cat.getAxisAttr());
  part::setNode(joined, *part::getNode(cat));
  return joined;
}

/// A returned cast of a concat of per-node blocks becomes the concat of
/// the blocks' casts (the old concats go), for gatherOutputs.
void sinkOutputCasts(func::FuncOp f) {
  Operation *ret = f.getBody().front().getTerminator();
  for (OpOperand &use : ret->getOpOperands()) {
    auto c = use.get().getDefiningOp<graph::CastOp>();
    auto cat = c ? c.getInput().getDefiningOp<graph::ConcatOp>() : nullptr;
    if (!cat || !c.getResult().hasOneUse() || !cat.getResult().hasOneUse() ||
        !part::getNode(cat))
      continue;
    OpBuilder b(c);
    use.set(castBlocks(b, c.getInput(), c.getType()));
    c.erase();
    // The old concats, each now unread.
    SmallVector<Operation *> dead{cat};
    while (!dead.empty()) {
      Operation *op = dead.pop_back_val();
      SmallVector<Operation *> inputs;
      for (Value in : op->getOperands())
        if (auto inner = in.getDefiningOp<graph::ConcatOp>(); inner && in.hasOneUse())
          inputs.push_back(inner);
      op->erase();
      dead.append(inputs.begin(), inputs.end());
    }
  }
}

} // namespace

void lpx::scatterInputs(func::FuncOp f) {
  sinkInputCasts(f);
  const unsigned original = f.getNumArguments();
  llvm::BitVector erase(original);
  for (unsigned i = 0; i < original; ++i) {
    BlockArgument arg = f.getArgument(i);
    if (arg.use_empty() || f.getArgAttr(i, part::PartDialect::kOffsetsAttr))
      continue;
    SmallVector<graph::SliceOp> slices;
    SmallVector<std::pair<ArrayRef<int64_t>, ArrayRef<int64_t>>> pieces;
    SmallVector<int64_t> nodes;
    for (Operation *user : arg.getUsers()) {
      auto slice = dyn_cast<graph::SliceOp>(user);
      std::optional<int64_t> node =
          slice ? soleUserNode(slice.getResult()) : std::nullopt;
      if (!node || llvm::any_of(slice.getSteps(), [](int64_t s) {
            return s != 1;
          })) {
        slices.clear();
        break;
      }
      slices.push_back(slice);
      nodes.push_back(*node);
      pieces.push_back({slice.getType().getShape(), slice.getStarts()});
    }
    auto whole = cast<RankedTensorType>(arg.getType()).getShape();
    if (slices.size() < 2 || !tiles(whole, pieces))
      continue;
    // Pieces in the order of their offsets, so arguments read naturally.
    SmallVector<size_t> order(slices.size());
    std::iota(order.begin(), order.end(), 0);
    llvm::sort(order, [&](size_t x, size_t y) {
      ArrayRef<int64_t> a = slices[x].getStarts(), c = slices[y].getStarts();
      return std::lexicographical_compare(a.begin(), a.end(), c.begin(),
                                          c.end());
    });
    for (size_t o : order) {
      graph::SliceOp slice = slices[o];
      slice.getResult().replaceAllUsesWith(addPieceArgument(
          f, arg, slice.getType(), nodes[o], slice.getStarts()));
      slice.erase();
    }
    erase.set(i);
  }
  erase.resize(f.getNumArguments());
  f.eraseArguments(erase);
}

namespace {

/// The per-node blocks a returned value is the concat of (nested concats,
/// each read only by the next, give a grid of blocks), with their offsets.
struct OutputPieces {
  SmallVector<Value> values;
  SmallVector<SmallVector<int64_t>> offsets;
  SmallVector<Operation *> concats;

  /// Adds `v` at `at`; false when a block is not computed into a buffer of
  /// its own on a node (a constant, an input, a value used twice here).
  bool add(Value v, SmallVector<int64_t> at) {
    auto cat = v.getDefiningOp<graph::ConcatOp>();
    if (cat && v.hasOneUse() && cat.getInputs().size() >= 2) {
      concats.push_back(cat);
      const int64_t axis = int64_t(cat.getAxis());
      for (Value in : cat.getInputs()) {
        if (!add(in, at))
          return false;
        at[axis] += cast<RankedTensorType>(in.getType()).getDimSize(axis);
      }
      return true;
    }
    // (A block may have other readers: the KV cache a split attention reads.)
    Operation *def = v.getDefiningOp();
    if (!def || llvm::isa<graph::ConstantOp>(def) || !part::getNode(def) ||
        llvm::is_contained(values, v))
      return false;
    values.push_back(v);
    offsets.push_back(std::move(at));
    return true;
  }
};

} // namespace

void lpx::gatherOutputs(func::FuncOp f) {
  sinkOutputCasts(f);
  Builder b(f.getContext());
  auto ret = cast<func::ReturnOp>(f.getBody().front().getTerminator());
  auto names = f->getAttrOfType<ArrayAttr>(graph::kOutputNamesAttr);
  SmallVector<Value> operands;
  SmallVector<Attribute> newNames;
  SmallVector<DictionaryAttr> attrs;
  SmallVector<Operation *> dead;
  bool changed = false;
  for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
    Attribute name = names && i < names.size()
                         ? names[i]
                         : b.getStringAttr("output" + std::to_string(i));
    auto type = cast<RankedTensorType>(v.getType());
    OutputPieces out;
    SmallVector<std::pair<ArrayRef<int64_t>, ArrayRef<int64_t>>> pieces;
    bool ok = v.getDefiningOp<graph::ConcatOp>() &&
              out.add(v, SmallVector<int64_t>(type.getRank(), 0)) &&
              out.values.size() >= 2;
    for (auto [in, off] : llvm::zip(ok ? out.values : SmallVector<Value>(),
                                    out.offsets))
      pieces.push_back({cast<RankedTensorType>(in.getType()).getShape(), off});
    if (!ok || !tiles(type.getShape(), pieces)) {
      operands.push_back(v);
      newNames.push_back(name);
      attrs.push_back(f.getResultAttrDict(unsigned(i)));
      continue;
    }
    for (auto [in, off] : llvm::zip(out.values, out.offsets)) {
      operands.push_back(in);
      newNames.push_back(name);
      attrs.push_back(
          pieceAttrs(b, nullptr, *part::getNode(in.getDefiningOp()), off));
    }
    dead.append(out.concats.begin(), out.concats.end());
    changed = true;
  }
  if (!changed)
    return;
  ret->setOperands(operands);
  for (Operation *op : dead)
    op->erase();
  f.setType(FunctionType::get(f.getContext(), f.getArgumentTypes(),
                              ValueRange(operands).getTypes()));
  f.setAllResultAttrs(attrs);
  f->setAttr(graph::kOutputNamesAttr, b.getArrayAttr(newNames));
}
