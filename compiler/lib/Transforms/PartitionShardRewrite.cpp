//===- PartitionShardRewrite.cpp - Follow the sharding records ------------===//
//
// The rewrite of the sharding walk (PartitionSharder.h), for
// lpx-partition-rewrite: each op split into its pieces (or placed whole) as
// its #lpx_part.shard says, the weights cut at compile time, split values
// joined where a whole op reads them.
//
//===----------------------------------------------------------------------===//
#include "PartitionSharder.h"
#include "PartitionPatterns.h"
#include "PartitionPieces.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/BitVector.h"

#include "lpx/Dialect/Part/IR/PartOps.h"
#include "lpx/Target/ISABridge.h"

using namespace mlir;
using namespace lpx;
using namespace lpx::graph;
using namespace lpx::shard;

void Sharder::finishRewrite() {
  Operation *ret = f.getBody().front().getTerminator();
  for (OpOperand &use : ret->getOpOperands())
    if (layouts.count(use.get()))
      use.set(gather(use.get()));
  for (Operation *op : llvm::reverse(split)) {
    Value r = op->getResult(0);
    if (!r.use_empty())
      r.replaceAllUsesWith(gather(r));
    op->erase();
  }
  for (Operation *op : llvm::reverse(bypassed))
    if (op->use_empty())
      op->erase();
  // Copies of a replicated value that no chip reads (the output's, but
  // for the one returned).
  for (Value copy : llvm::reverse(copies))
    if (copy.use_empty())
      copy.getDefiningOp()->erase();
  // The whole states now replaced by their pieces.
  llvm::BitVector wholeStates(f.getNumArguments());
  for (BlockArgument arg : splitStates)
    wholeStates.set(arg.getArgNumber());
  f.eraseArguments(wholeStates);
  for (BlockArgument arg : f.getArguments())
    if (!arg.use_empty())
      f.setArgAttr(arg.getArgNumber(), part::PartDialect::kNodeAttr,
                   IntegerAttr::get(IntegerType::get(f.getContext(), 64),
                                    nodeOfFirstUser(arg)));
  // The decisions are carried out: the pieces (clones) drop them too.
  f.walk([](Operation *op) {
    for (StringRef name :
         {part::PartDialect::kStageAttr, part::PartDialect::kShardAttr,
          part::PartDialect::kExpertChipsAttr})
      op->removeAttr(name);
  });
}

LogicalResult Sharder::follow(Operation *op) {
  auto a = op->getAttrOfType<part::ShardAttr>(part::PartDialect::kShardAttr);
  if (!a)
    return op->emitError() << "has no " << part::PartDialect::kShardAttr
                           << "; run lpx-partition-shard first";
  Layout l{a.getAxis(), SmallVector<int64_t>(a.getLo().asArrayRef()),
           SmallVector<int64_t>(a.getHi().asArrayRef()),
           SmallVector<int64_t>(a.getNodes().asArrayRef()), {}};
  StringRef kind = a.getKind();
  auto [driver, which] = driverOf(op);
  auto cannot = [&] {
    return op->emitError() << "cannot be split as its "
                           << part::PartDialect::kShardAttr << " '" << kind
                           << "' says";
  };
  if (kind == "whole") {
    placeWhole(op, l.nodes.front());
    return success();
  }
  if (kind == "columns" || kind == "all_gather") {
    Value x = op->getOperand(0);
    if (!splittableWeight(op) || l.lo.size() != l.nodes.size() ||
        (kind == "all_gather" && !llvm::isa<GatherOp>(op)))
      return cannot();
    seedColumns(op, l, layouts.count(x) ? [&](int64_t node) {
      return gatherOn(x, node);
    } : llvm::function_ref<Value(int64_t)>(), kind == "all_gather");
    return success();
  }
  if (kind == "replicated") {
    if (!driver || !driver->replicated() || !canReplicate(op, groupOf(op)))
      return cannot();
    replicate(op, Layout{Layout::kReplicated, {}, {}, l.nodes, {}});
    return success();
  }
  if (kind == "state") {
    auto write = dyn_cast<StateWriteOp>(op);
    if (!write || !stateSplit(write))
      return cannot();
    splitStateWrite(write);
    return success();
  }
  if (kind == "reduce_scatter" || kind == "tree_sum" ||
      kind == "all_reduce") {
    std::optional<Decision> d =
        driver ? rowSplit(op, which, *driver) : std::nullopt;
    if (!d || d->kind != kind)
      return cannot();
    sumPartials(cast<MatMulOp>(op), *driver, d->result, kind == "tree_sum");
    return success();
  }
  SmallVector<Operand> reads;
  Layout result;
  if (kind != "pieces" || !driver ||
      !pieceRule(op, which, *driver, reads, result) ||
      result.axis != l.axis || !result.sameSplit(l))
    return cannot();
  splitPieces(op, *driver, reads, result);
  return success();
}

Value Sharder::copyOn(Value v, int64_t node) {
  const Layout &l = layouts[v];
  for (auto [n, copy] : llvm::zip(l.nodes, l.pieces))
    if (n == node)
      return copy;
  return l.pieces[size_t(node) % l.pieces.size()];
}

void Sharder::replicate(Operation *op, const Layout &on) {
  Layout result = on;
  OpBuilder b(op);
  for (int64_t node : on.nodes) {
    IRMapping map;
    for (Value v : op->getOperands())
      if (layouts.count(v))
        map.map(v, copyOn(v, node));
    Operation *copy = b.clone(*op, map);
    part::setNode(copy, node);
    result.pieces.push_back(copy->getResult(0));
    copies.insert(copy->getResult(0));
  }
  layouts[op->getResult(0)] = std::move(result);
  split.push_back(op);
}

Value Sharder::gatherOn(Value v, int64_t node) {
  if (layouts[v].replicated())
    return copyOn(v, node);
  Value &g = gathered[{v, node}];
  if (g)
    return g;
  const Layout &l = layouts[v];
  OpBuilder b(f.getContext());
  b.setInsertionPointAfter(l.pieces.back().getDefiningOp());
  auto cat = b.create<ConcatOp>(v.getLoc(), v.getType(), l.pieces,
                                b.getI64IntegerAttr(l.axis));
  part::setNode(cat, node);
  return g = cat;
}

Value Sharder::sliceOf(Value v, int64_t axis, int64_t lo, int64_t hi, int64_t node) {
  auto key = std::make_tuple(v, axis, lo, hi);
  if (auto it = slices.find(key);
      it != slices.end() && part::getNodeOfValue(it->second) == node)
    return it->second;
  // (makeSlice may slice other values first: no reference into `slices`
  // is held across it.)
  Value s = makeSlice(v, axis, lo, hi, node);
  slices[key] = s;
  return s;
}

Value Sharder::makeSlice(Value v, int64_t axis, int64_t lo, int64_t hi,
                int64_t node) {
  auto type = rankedOf(v);
  SmallVector<int64_t> shape(type.getShape());
  shape[axis] = hi - lo;
  OpBuilder b(f.getContext());
  if (auto c = v.getDefiningOp<ConstantOp>()) {
    b.setInsertionPoint(c);
    if (ElementsAttr cut =
            sliceElements(c.getValue(), axis, lo, hi, slices.size())) {
      auto piece = b.create<ConstantOp>(c.getLoc(), cut);
      part::setNode(piece, node);
      return piece;
    }
  }
  Operation *def = v.getDefiningOp();
  if (def && isPointwise(def) && v.hasOneUse() && def->getNumResults() == 1 &&
      !copies.contains(v))
    return slicePointwise(def, axis, lo, hi, node);
  if (def && !llvm::isa<ConstantOp>(def))
    b.setInsertionPointAfter(def);
  else
    b.setInsertionPointToStart(&f.getBody().front());
  SmallVector<int64_t> starts(type.getRank(), 0), steps(type.getRank(), 1);
  starts[axis] = lo;
  auto slice = b.create<SliceOp>(
      v.getLoc(), RankedTensorType::get(shape, type.getElementType()), v,
      b.getDenseI64ArrayAttr(starts), b.getDenseI64ArrayAttr(steps));
  part::setNode(slice, def && !llvm::isa<ConstantOp>(def)
                           ? part::getNodeOfValue(v)
                           : node);
  return slice;
}

Value Sharder::slicePointwise(Operation *def, int64_t axis, int64_t lo, int64_t hi,
                     int64_t node) {
  auto type = rankedOf(def->getResult(0));
  IRMapping map;
  for (Value u : def->getOperands()) {
    int64_t a = axis - (type.getRank() - rankedOf(u).getRank());
    if (a >= 0 && rankedOf(u).getDimSize(a) != 1 && !layouts.count(u))
      map.map(u, sliceOf(u, a, lo, hi, node));
  }
  OpBuilder b(def);
  Operation *piece = b.clone(*def, map);
  SmallVector<int64_t> shape(type.getShape());
  shape[axis] = hi - lo;
  piece->getResult(0).setType(
      RankedTensorType::get(shape, type.getElementType()));
  part::setNode(piece, node);
  bypassed.insert(def);
  return piece->getResult(0);
}

void Sharder::placeWhole(Operation *op, int64_t node) {
  for (OpOperand &use : op->getOpOperands())
    if (layouts.count(use.get()))
      use.set(gatherOn(use.get(), node));
  part::setNode(op, node);
  pinWhole(op);
}

void Sharder::splitPieces(Operation *op, const Layout &driver,
                 ArrayRef<Operand> reads, Layout result) {
  const Layout l = driver; // `layouts` grows below
  OpBuilder b(op);
  for (size_t i = 0; i < l.pieces.size(); ++i) {
    IRMapping map;
    for (auto [v, r] : llvm::zip(op->getOperands(), reads)) {
      // A replicated operand is read from (a slice of) the chip's copy.
      Value whole = layouts.count(v) && layouts[v].replicated()
                        ? copyOn(v, l.nodes[i])
                        : v;
      if (r.kind == Operand::Piece)
        map.map(v, layouts[v].pieces[i]);
      else if (r.kind == Operand::Slice)
        map.map(v, sliceOf(whole, r.axis, l.lo[i], l.hi[i], l.nodes[i]));
      else if (whole != v)
        map.map(v, whole);
    }
    b.setInsertionPoint(op);
    Operation *piece = b.clone(*op, map);
    auto type = rankedOf(op->getResult(0));
    SmallVector<int64_t> shape(type.getShape());
    shape[result.axis] = result.hi[i] - result.lo[i];
    piece->getResult(0).setType(
        RankedTensorType::get(shape, type.getElementType()));
    part::setNode(piece, l.nodes[i]);
    result.pieces.push_back(piece->getResult(0));
  }
  layouts[op->getResult(0)] = std::move(result);
  split.push_back(op);
}

void Sharder::splitStateWrite(StateWriteOp write) {
  const Layout l = layouts[write.getUpdate()]; // `layouts` grows below
  auto state = cast<BlockArgument>(write.getState());
  Value position = write.getPosition();
  if (layouts.count(position))
    position = gather(position);
  auto type = rankedOf(state);
  Layout result{l.axis, l.lo, l.hi, l.nodes, {}};
  OpBuilder b(write);
  for (size_t i = 0; i < l.pieces.size(); ++i) {
    SmallVector<int64_t> shape(type.getShape()), offsets(type.getRank(), 0);
    shape[l.axis] = l.hi[i] - l.lo[i];
    offsets[l.axis] = l.lo[i];
    auto pieceType = RankedTensorType::get(shape, type.getElementType());
    BlockArgument piece =
        addPieceArgument(f, state, pieceType, l.nodes[i], offsets);
    auto w = b.create<StateWriteOp>(write.getLoc(), pieceType, piece,
                                    l.pieces[i], position, write.getAxis());
    part::setNode(w, l.nodes[i]);
    result.pieces.push_back(w.getResult());
  }
  layouts[write.getResult()] = std::move(result);
  split.push_back(write);
  splitStates.push_back(state);
}

void Sharder::seedColumns(Operation *op, Layout cut,
                          llvm::function_ref<Value(int64_t)> activationOn,
                          bool replicated) {
  ConstantOp w = splittableWeight(op);
  OpBuilder b(op);
  auto type = rankedOf(op->getResult(0));
  for (auto [lo, hi, node] : llvm::zip(cut.lo, cut.hi, cut.nodes)) {
    Value slice = sliceOf(w, 1, lo, hi, node);
    SmallVector<int64_t> shape(type.getShape());
    shape.back() = hi - lo;
    auto pieceType = RankedTensorType::get(shape, type.getElementType());
    Operation *piece =
        llvm::isa<GatherOp>(op)
            ? b.create<GatherOp>(op->getLoc(), pieceType, slice,
                                 op->getOperand(1), b.getI64IntegerAttr(0))
            : b.create<MatMulOp>(op->getLoc(), pieceType,
                                 activationOn ? activationOn(node)
                                              : op->getOperand(0),
                                 slice)
                  .getOperation();
    part::setNode(piece, node);
    cut.pieces.push_back(piece->getResult(0));
  }
  Value r = op->getResult(0);
  layouts[r] = std::move(cut);
  split.push_back(op);
  // An embedding's rows start the residual stream, which stays whole
  // (joined on each chip when replicated): split along the hidden axis it
  // would split the norms and the projections' reductions, not heads.
  if (llvm::isa<GatherOp>(op) && replicated) {
    Layout copied{Layout::kReplicated, {}, {}, layouts[r].nodes, {}};
    for (int64_t node : copied.nodes) {
      copied.pieces.push_back(gatherOn(r, node));
      copies.insert(copied.pieces.back());
    }
    layouts[r] = std::move(copied);
  } else if (llvm::isa<GatherOp>(op)) {
    r.replaceAllUsesWith(gather(r));
    layouts.erase(r);
  }
}

void Sharder::sumPartials(MatMulOp op, const Layout &activation, Layout result,
                 bool tree) {
  const Layout l = activation; // `layouts` grows below
  ConstantOp w = splittableWeight(op);
  OpBuilder b(op);
  SmallVector<Value> partials;
  for (size_t i = 0; i < l.pieces.size(); ++i) {
    Value rows = sliceOf(w, 0, l.lo[i], l.hi[i], l.nodes[i]);
    auto piece = b.create<MatMulOp>(op->getLoc(), op.getType(), l.pieces[i],
                                    rows);
    part::setNode(piece, l.nodes[i]);
    partials.push_back(piece);
  }
  if (tree) {
    b.setInsertionPoint(op);
    Value sum = treeSum(b, op->getLoc(), partials, l.nodes);
    op->getResult(0).replaceAllUsesWith(sum);
    op->erase();
    return;
  }
  const int64_t axis = result.axis;
  for (size_t j = 0; j < l.nodes.size(); ++j) {
    // The destination's own block (its whole partial, all-reduced) first,
    // then the others' by distance.
    SmallVector<Value> blocks;
    SmallVector<int64_t> where;
    for (size_t d = 0; d < partials.size(); ++d) {
      size_t i = (j + d) % partials.size();
      blocks.push_back(result.replicated()
                           ? partials[i]
                           : sliceOf(partials[i], axis, result.lo[j],
                                     result.hi[j], l.nodes[i]));
      where.push_back(l.nodes[j]);
    }
    b.setInsertionPoint(op);
    result.pieces.push_back(treeSum(b, op->getLoc(), blocks, where));
    if (result.replicated())
      copies.insert(result.pieces.back());
  }
  layouts[op->getResult(0)] = std::move(result);
  split.push_back(op);
}

Value Sharder::treeSum(OpBuilder &b, Location loc, SmallVector<Value> terms,
                     ArrayRef<int64_t> nodes) {
  for (size_t step = 1; step < terms.size(); step *= 2)
    for (size_t i = 0; i + step < terms.size(); i += 2 * step) {
      auto add = b.create<AddOp>(loc, terms[i].getType(), terms[i],
                                 terms[i + step]);
      part::setNode(add, nodes[i]);
      terms[i] = add;
    }
  return terms.front();
}
