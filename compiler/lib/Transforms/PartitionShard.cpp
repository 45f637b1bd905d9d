//===- PartitionShard.cpp - Tensor and pipeline parallel placement --------===//
//
// One walk in program order. Each op gets a stage (consecutive layers by
// weight bytes, cut after a residual add); then either a rule splits it
// into one op per piece of its split operand, or it runs whole on its
// stage's first node with its split operands gathered there. See
// PartitionShard.h.
//
//===----------------------------------------------------------------------===//
#include "PartitionShard.h"
#include "PartitionExperts.h"
#include "PartitionShardRules.h"
#include "PartitionPatterns.h"
#include "PartitionPieces.h"
#include "PartitionStages.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Dialect/Part/IR/PartOps.h"
#include "lpx/Target/ISABridge.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace lpx;
using namespace lpx::graph;
using namespace lpx::shard;

namespace {

class Sharder {
public:
  Sharder(func::FuncOp f, const Mesh &mesh, uint64_t stageBytes)
      : f(f), mesh(mesh), stageBytes(stageBytes) {}

  MeshReport report;

  void run() {
    for (BlockArgument arg : f.getArguments())
      if (f.getArgAttr(arg.getArgNumber(), kStateAttr))
        pinned.insert(arg);
    ExpertBlocks blocks;
    if (mesh.tp > 1 || mesh.pp > 1)
      blocks = spreadExperts(f);
    SmallVector<Operation *> ops = placedOps(f);
    assignStages(ops, blocks);
    placeExperts(blocks);
    for (Operation *op : ops) {
      if (!shard(op))
        placeWhole(op);
    }
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
  }

private:
  func::FuncOp f;
  Mesh mesh;
  uint64_t stageBytes;
  llvm::DenseMap<Operation *, int64_t> stage;
  llvm::DenseMap<Operation *, int64_t> spread; // stages of a spread table
  llvm::DenseMap<Value, Layout> layouts;
  llvm::DenseMap<std::pair<Value, int64_t>, Value> gathered; // per node
  llvm::DenseMap<std::tuple<Value, int64_t, int64_t, int64_t>, Value> slices;
  llvm::DenseSet<Value> pinned;      // resident state and values read from it
  SmallVector<Operation *> split;    // originals replaced by pieces
  SmallVector<BlockArgument> splitStates; // whole states replaced by pieces
  llvm::SetVector<Operation *> bypassed; // whole ops cloned into pieces
  llvm::DenseMap<Operation *, ChipRange> experts; // an expert's chips

  /// The nodes an op may use: its stage's, its expert's among them, or
  /// those of all the stages a spread table spans.
  ChipRange groupOf(Operation *op) const {
    int64_t base = stage.lookup(op) * mesh.tp;
    if (auto it = experts.find(op); it != experts.end())
      return {base + it->second.first, it->second.count};
    return {base, mesh.tp * std::max<int64_t>(1, spread.lookup(op))};
  }

  /// An input is written to the lowest node that reads it (the stage's
  /// first node when one whole op reads it).
  static int64_t nodeOfFirstUser(Value v) {
    std::optional<int64_t> node;
    for (Operation *user : v.getUsers())
      if (auto n = part::getNode(user))
        node = std::min(node.value_or(*n), *n);
    return node.value_or(0);
  }

  void assignStages(ArrayRef<Operation *> ops, const ExpertBlocks &blocks) {
    SmallVector<StageSpan> spans =
        stagesOf(ops, mesh.stagesCut(), stageBytes, blocks);
    for (auto [op, span] : llvm::zip(ops, spans)) {
      stage[op] = span.first;
      if (span.count > 1)
        spread[op] = span.count;
    }
  }

  /// Each expert's chips among its block's (its stage's, or all those of
  /// the stages it spans), unless one chip would keep more values live
  /// than `mesh.temporaries` (a prefill of many tokens on too few chips):
  /// such a block is left to the tensor-parallel placement, which gives
  /// each of its chips a share of every expert.
  void placeExperts(const ExpertBlocks &blocks) {
    const size_t n = blocks.weightBytes.size();
    SmallVector<int64_t> stages(n, 1), count(n, 0); // experts per block
    for (const auto &[op, site] : blocks.sites) {
      stages[site.block] = std::max<int64_t>(1, spread.lookup(op));
      count[site.block] = site.experts;
    }
    // Each block either placed expert-parallel or left whole, in order.
    SmallVector<bool> parallel(n, false);
    for (size_t b = 0; b < n; ++b) {
      const int64_t chips = mesh.tp * stages[b];
      if (chips < 2)
        continue;
      const uint64_t live =
          liveBytesPerChip(blocks.liveBytes[b], count[b], chips);
      if (mesh.temporaries && live > mesh.temporaries) {
        ++report.leftToTensorParallel;
        report.liveBytes = live;
        report.temporaries = mesh.temporaries;
        continue;
      }
      parallel[b] = true;
      if (stages[b] > report.stages)
        std::tie(report.experts, report.chips, report.stages,
                 report.chipsPerExpert, report.weightBytes) =
            std::make_tuple(count[b], chips, stages[b],
                            expertChips(0, count[b], chips).count,
                            blocks.weightBytes[b]);
    }
    for (const auto &[op, site] : blocks.sites)
      if (parallel[site.block])
        experts[op] = expertChips(site.expert, site.experts,
                                  mesh.tp * stages[site.block]);
  }

  /// A split value joined on the node of its first piece (once).
  Value gather(Value v) { return gatherOn(v, layouts[v].nodes.front()); }

  /// A split value joined on `node` (once per node): every other piece
  /// crosses one link, straight to the node that reads it.
  Value gatherOn(Value v, int64_t node) {
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

  /// Rows [lo, hi) along `axis` of a whole value, for a piece on `node`: a
  /// constant is cut at compile time, an input is sliced where the piece
  /// is (so the host writes the piece there), a computed value where it is.
  Value sliceOf(Value v, int64_t axis, int64_t lo, int64_t hi, int64_t node) {
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

  Value makeSlice(Value v, int64_t axis, int64_t lo, int64_t hi,
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
    if (def && isPointwise(def) && v.hasOneUse() && def->getNumResults() == 1)
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

  /// A piece of a pointwise op's result that only a split op reads: the
  /// op itself runs piecewise on pieces of its operands (so a cast of the
  /// KV cache input reads the pieces the host writes to each node).
  Value slicePointwise(Operation *def, int64_t axis, int64_t lo, int64_t hi,
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

  void placeWhole(Operation *op) {
    bool reads = false;
    for (OpOperand &use : op->getOpOperands()) {
      if (layouts.count(use.get()))
        use.set(gatherOn(use.get(), groupOf(op).first));
      reads = reads || pinned.contains(use.get());
    }
    part::setNode(op, groupOf(op).first);
    // Resident state written whole (its update is not split, so
    // splitStateWrite left it): what is computed from it stays with it
    // rather than moving the cache over links every step.
    if (reads || llvm::isa<StateWriteOp>(op))
      for (Value r : op->getResults())
        pinned.insert(r);
  }

  /// Reads operand `v` of an op split like `l`, whose own axis for the
  /// split is `axis` (-1 or a size-1 dim: it is broadcast, read whole).
  std::optional<Operand> operandFor(Value v, int64_t axis, const Layout &l) {
    if (pinned.contains(v))
      return std::nullopt; // resident state: the op runs where it is
    auto it = layouts.find(v);
    if (axis < 0 || rankedOf(v).getDimSize(axis) == 1)
      return it == layouts.end() ? std::optional<Operand>(Operand{})
                                 : std::nullopt;
    if (it != layouts.end())
      return it->second.axis == axis && it->second.sameSplit(l)
                 ? std::optional<Operand>({Operand::Piece, axis})
                 : std::nullopt;
    return Operand{Operand::Slice, axis};
  }

  /// Splits `op` if a rule allows; true when done.
  bool shard(Operation *op) {
    const Layout *driver = nullptr;
    unsigned which = 0;
    for (auto [i, v] : llvm::enumerate(op->getOperands()))
      if (auto it = layouts.find(v); it != layouts.end()) {
        driver = &it->second;
        which = unsigned(i);
        break;
      }
    if (auto write = dyn_cast<StateWriteOp>(op))
      return splitStateWrite(write);
    ChipRange group = groupOf(op);
    if (!driver)
      return group.count > 1 && seedColumns(op, group);
    if (driver->nodes.front() != group.first ||
        driver->nodes.back() >= group.first + group.count) {
      // Another stage's or expert's pieces: a product with a constant
      // weight joins them on each of its chips and is cut by columns
      // there (an expert on chips of its own); anything else gathers
      // them on its first chip.
      Value x = op->getOperand(0);
      return which == 0 && group.count > 1 && llvm::isa<MatMulOp>(op) &&
             seedColumns(op, group,
                         [&](int64_t node) { return gatherOn(x, node); });
    }
    if (rowSplit(op, which, *driver))
      return true;
    SmallVector<Operand> reads;
    SmallVector<int64_t> lo, hi;
    int64_t outAxis = -1;
    Layout l = *driver; // `layouts` grows below
    if (!shardRule(
            op, which, l,
            [&](Value v, int64_t axis, const Layout &split) {
              return operandFor(v, axis, split);
            },
            reads, outAxis, lo, hi))
      return false;
    Layout result{outAxis, lo, hi, l.nodes, {}};
    OpBuilder b(op);
    for (size_t i = 0; i < l.pieces.size(); ++i) {
      IRMapping map;
      for (auto [v, r] : llvm::zip(op->getOperands(), reads)) {
        if (r.kind == Operand::Piece)
          map.map(v, layouts[v].pieces[i]);
        else if (r.kind == Operand::Slice)
          map.map(v, sliceOf(v, r.axis, l.lo[i], l.hi[i], l.nodes[i]));
      }
      b.setInsertionPoint(op);
      Operation *piece = b.clone(*op, map);
      auto type = rankedOf(op->getResult(0));
      SmallVector<int64_t> shape(type.getShape());
      shape[outAxis] = hi[i] - lo[i];
      piece->getResult(0).setType(
          RankedTensorType::get(shape, type.getElementType()));
      part::setNode(piece, l.nodes[i]);
      result.pieces.push_back(piece->getResult(0));
    }
    layouts[op->getResult(0)] = std::move(result);
    split.push_back(op);
    return true;
  }

  /// Column blocks [lo, hi) of an n-column product `op` over at most
  /// `most` parts: on head boundaries when its result is reshaped into
  /// heads. False when fewer than 2 parts.
  static bool columnBlocks(Operation *op, int64_t n, int64_t most,
                           SmallVector<int64_t> &lo, SmallVector<int64_t> &hi) {
    auto [heads, size] = headsOf(op);
    int64_t unit = heads ? size : 1, units = heads ? heads : n;
    int64_t parts = heads ? headDivisor(heads, most)
                          : std::min<int64_t>(most, n);
    if (parts < 2 || units * unit != n)
      return false;
    for (int64_t i = 0; i < parts; ++i) {
      lo.push_back(units * i / parts * unit);
      hi.push_back(units * (i + 1) / parts * unit);
    }
    return true;
  }

  /// A state write whose update is split along a non-batch axis other
  /// than the written one (a KV cache entry split by KV head): the state is
  /// split the same way, each piece an argument of its own (resident state
  /// on its node, with its offsets in the whole state) that its node writes
  /// in place, so readers take the pieces and the cache never crosses links.
  bool splitStateWrite(StateWriteOp write) {
    auto it = layouts.find(write.getUpdate());
    if (it == layouts.end() || it->second.axis < 1 ||
        it->second.axis == int64_t(write.getAxis()) ||
        it->second.nodes.front() != groupOf(write).first)
      return false;
    const Layout l = it->second; // `layouts` grows below
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
    return true;
  }

  /// A MatMul (or embedding Gather) with a constant weight and a whole
  /// activation: one column block of the weight per node of the stage, on
  /// head boundaries when the result is reshaped into heads; a table
  /// spread over several stages, one block per node of all of them.
  /// `group` holds the blocks; `activationOn` gives the activation on a
  /// node (default: the whole value where it is).
  bool seedColumns(Operation *op, ChipRange group,
                   llvm::function_ref<Value(int64_t)> activationOn = nullptr) {
    ConstantOp w = splittableWeight(op);
    if (!w)
      return false;
    int64_t n = rankedOf(w).getDimSize(1);
    SmallVector<int64_t> los, his;
    if (!columnBlocks(op, n, group.count, los, his))
      return false;
    int64_t parts = int64_t(los.size());
    Layout l;
    l.axis = rankedOf(op->getResult(0)).getRank() - 1;
    OpBuilder b(op);
    auto type = rankedOf(op->getResult(0));
    for (int64_t i = 0; i < parts; ++i) {
      int64_t lo = los[i], hi = his[i];
      int64_t node = group.first + i;
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
      l.lo.push_back(lo);
      l.hi.push_back(hi);
      l.nodes.push_back(node);
      l.pieces.push_back(piece->getResult(0));
    }
    Value r = op->getResult(0);
    layouts[r] = std::move(l);
    split.push_back(op);
    // An embedding's rows start the residual stream, which stays whole:
    // split along the hidden axis it would split the norms and the
    // projections' reductions instead of their heads.
    if (llvm::isa<GatherOp>(op)) {
      r.replaceAllUsesWith(gather(r));
      layouts.erase(r);
    }
    return true;
  }

  /// A MatMul with a constant weight whose activation is split along the
  /// reduction axis. In a fully connected group either exchange is one hop
  /// on every link at once; the smaller one is taken:
  ///  - activation pieces no larger than the result's columns per node
  ///    (K <= N: Q, K, V, gate and up): every node joins the whole
  ///    activation (an all-gather) and multiplies it by its column block;
  ///  - otherwise (the down projection): each node multiplies its piece by
  ///    its rows of the weight and sends each other node that node's
  ///    column block of the partial sum (a reduce-scatter), which adds
  ///    them. Either way the result stays split by columns.
  bool rowSplit(Operation *op, unsigned which, const Layout &l) {
    auto m = dyn_cast<MatMulOp>(op);
    ConstantOp w = m ? splittableWeight(op) : nullptr;
    if (!w || which != 0 || l.axis != rankedOf(m.getLhs()).getRank() - 1)
      return false;
    Value x = m.getLhs();
    int64_t k = rankedOf(x).getDimSize(l.axis);
    int64_t n = rankedOf(w).getDimSize(1);
    // The reduce-scatter needs a column block per piece; with fewer (fewer
    // heads than chips) the all-gather keeps the result split by head.
    SmallVector<int64_t> los, his;
    const bool scatter =
        columnBlocks(op, n, int64_t(l.nodes.size()), los, his) &&
        los.size() == l.nodes.size();
    if ((k <= n || !scatter) &&
        seedColumns(op, groupOf(op),
                    [&](int64_t node) { return gatherOn(x, node); }))
      return true;
    OpBuilder b(op);
    SmallVector<Value> partials;
    for (size_t i = 0; i < l.pieces.size(); ++i) {
      Value rows = sliceOf(w, 0, l.lo[i], l.hi[i], l.nodes[i]);
      auto piece = b.create<MatMulOp>(op->getLoc(), m.getType(), l.pieces[i],
                                      rows);
      part::setNode(piece, l.nodes[i]);
      partials.push_back(piece);
    }
    if (!scatter) {
      b.setInsertionPoint(op);
      Value sum = treeSum(b, op->getLoc(), partials, l.nodes);
      op->getResult(0).replaceAllUsesWith(sum);
      op->erase();
      return true;
    }
    int64_t axis = m.getType().getRank() - 1;
    Layout result{axis, los, his, l.nodes, {}};
    for (size_t j = 0; j < l.nodes.size(); ++j) {
      // The destination's own block first, then the others' by distance.
      SmallVector<Value> blocks;
      SmallVector<int64_t> where;
      for (size_t d = 0; d < partials.size(); ++d) {
        size_t i = (j + d) % partials.size();
        blocks.push_back(
            sliceOf(partials[i], axis, los[j], his[j], l.nodes[i]));
        where.push_back(l.nodes[j]);
      }
      b.setInsertionPoint(op);
      result.pieces.push_back(treeSum(b, op->getLoc(), blocks, where));
    }
    layouts[op->getResult(0)] = std::move(result);
    split.push_back(op);
    return true;
  }

  /// Adds `terms` pairwise in log2 rounds, each add on the node of its
  /// left term (`nodes[i]`); the sum ends on nodes[0].
  static Value treeSum(OpBuilder &b, Location loc, SmallVector<Value> terms,
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
};

} // namespace

MeshReport lpx::placeOnMesh(func::FuncOp f, const Mesh &mesh,
                            uint64_t stageBytes) {
  Sharder sharder(f, mesh, stageBytes);
  sharder.run();
  return sharder.report;
}
