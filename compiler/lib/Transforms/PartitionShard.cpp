//===- PartitionShard.cpp - Tensor and pipeline parallel placement --------===//
//
// The decisions of the sharding walk (PartitionSharder.h): each op's split,
// recorded as its #lpx_part.shard by lpx-partition-shard. See
// PartitionShard.h for the placement they make.
//
//===----------------------------------------------------------------------===//
#include "PartitionSharder.h"
#include "PartitionPatterns.h"
#include "PartitionStages.h"

#include "lpx/Dialect/Part/IR/PartOps.h"
#include "lpx/Target/ISABridge.h"

using namespace mlir;
using namespace lpx;
using namespace lpx::graph;
using namespace lpx::shard;

LogicalResult Sharder::run() {
  for (BlockArgument arg : f.getArguments())
    if (f.getArgAttr(arg.getArgNumber(), kStateAttr))
      pinned.insert(arg);
  SmallVector<Operation *> ops = placedOps(f);
  if (failed(readStages(ops)))
    return failure();
  for (Operation *op : ops) {
    if (mode == Mode::Annotate)
      record(op, decide(op));
    else if (failed(follow(op)))
      return failure();
  }
  if (mode == Mode::Rewrite)
    finishRewrite();
  return success();
}

ChipRange Sharder::groupOf(Operation *op) const {
  int64_t base = stage.lookup(op) * mesh.tp;
  if (auto it = experts.find(op); it != experts.end())
    return {base + it->second.first, it->second.count};
  return {base, mesh.tp * std::max<int64_t>(1, spread.lookup(op))};
}

int64_t Sharder::nodeOfFirstUser(Value v) {
  std::optional<int64_t> node;
  for (Operation *user : v.getUsers())
    if (auto n = part::getNode(user))
      node = std::min(node.value_or(*n), *n);
  return node.value_or(0);
}

LogicalResult Sharder::readStages(ArrayRef<Operation *> ops) {
  for (Operation *op : ops) {
    auto span = op->getAttrOfType<DenseI64ArrayAttr>(
        part::PartDialect::kStageAttr);
    if (!span)
      return op->emitError() << "has no " << part::PartDialect::kStageAttr
                             << "; run lpx-partition-stages first";
    stage[op] = span[0];
    if (span[1] > 1)
      spread[op] = span[1];
    if (span[0] + span[1] > mesh.stagesCut())
      return op->emitError() << "stages [" << span[0] << ", "
                             << span[0] + span[1] << ") pass the mesh's "
                             << mesh.stagesCut();
    if (auto chips = op->getAttrOfType<DenseI64ArrayAttr>(
            part::PartDialect::kExpertChipsAttr))
      experts[op] = {chips[0], chips[1]};
  }
  return success();
}

std::pair<const Layout *, unsigned> Sharder::driverOf(Operation *op) const {
  // A split operand drives; a replicated one only when none is split.
  std::pair<const Layout *, unsigned> copies = {nullptr, 0};
  for (auto [i, v] : llvm::enumerate(op->getOperands()))
    if (auto it = layouts.find(v); it != layouts.end()) {
      if (!it->second.replicated())
        return {&it->second, unsigned(i)};
      if (!copies.first)
        copies = {&it->second, unsigned(i)};
    }
  return copies;
}

bool Sharder::small(Operation *op) const {
  return mesh.replicateBytes && op->getNumResults() == 1 &&
         tensorDescOf(op->getResult(0).getType()).bytes() <=
             mesh.replicateBytes;
}

bool Sharder::canReplicate(Operation *op, ChipRange group) const {
  // Not over a table's stages of their own: their chips are full of it.
  if (group.count < 2 || group.count > mesh.tp || llvm::isa<StateWriteOp>(op) ||
      !small(op))
    return false;
  return llvm::all_of(op->getOperands(), [&](Value v) {
    auto it = layouts.find(v);
    return !pinned.contains(v) &&
           (it == layouts.end() || it->second.replicated());
  });
}

Layout Sharder::replicatedOn(ChipRange group) {
  Layout l{Layout::kReplicated, {}, {}, {}, {}};
  for (int64_t i = 0; i < group.count; ++i)
    l.nodes.push_back(group.first + i);
  return l;
}

Decision Sharder::decide(Operation *op) {
  auto [driver, which] = driverOf(op);
  ChipRange group = groupOf(op);
  Decision whole{"whole", Layout{-1, {}, {}, {group.first}, {}}};
  if (auto write = dyn_cast<StateWriteOp>(op)) {
    if (std::optional<Layout> l = stateSplit(write))
      return {"state", *l};
    return whole;
  }
  if (!driver) {
    // An embedding's few rows are joined on every chip of its stage (the
    // residual stream replicated from its start); more, or a table spread
    // over stages of its own (whose chips it fills), on one.
    if (group.count > 1)
      if (std::optional<Layout> l = columnsOf(op, group))
        return {llvm::isa<GatherOp>(op) && group.count <= mesh.tp && small(op)
                    ? "all_gather"
                    : "columns",
                *l};
    return whole;
  }
  if (driver->replicated()) {
    // A product with a constant weight cut by columns, each chip reading
    // its own copy (a chip of another stage, the copy of the chip at its
    // place there); anything else small runs on every chip of its group.
    if (which == 0 && group.count > 1 && llvm::isa<MatMulOp>(op))
      if (std::optional<Layout> l = columnsOf(op, group))
        return {"columns", *l};
    if (canReplicate(op, group))
      return {"replicated", replicatedOn(group)};
    return whole;
  }
  if (driver->nodes.front() != group.first ||
      driver->nodes.back() >= group.first + group.count) {
    // Another stage's or expert's pieces: a product with a constant
    // weight joins them on each of its chips and is cut by columns
    // there (an expert on chips of its own); anything else gathers
    // them on its first chip.
    if (which == 0 && group.count > 1 && llvm::isa<MatMulOp>(op))
      if (std::optional<Layout> l = columnsOf(op, group))
        return {"columns", *l};
    return whole;
  }
  if (std::optional<Decision> d = rowSplit(op, which, *driver))
    return *d;
  SmallVector<Operand> reads;
  Layout l;
  if (pieceRule(op, which, *driver, reads, l))
    return {"pieces", l};
  return whole;
}

void Sharder::record(Operation *op, const Decision &d) {
  MLIRContext *ctx = f.getContext();
  const Layout &l = d.result;
  op->setAttr(part::PartDialect::kShardAttr,
              part::ShardAttr::get(ctx, d.kind, l.replicated() ? -1 : l.axis,
                                   DenseI64ArrayAttr::get(ctx, l.lo),
                                   DenseI64ArrayAttr::get(ctx, l.hi),
                                   DenseI64ArrayAttr::get(ctx, l.nodes)));
  if (d.kind == "whole")
    pinWhole(op);
  else if (d.kind == "all_gather")
    layouts[op->getResult(0)] = Layout{Layout::kReplicated, {}, {}, l.nodes, {}};
  // An embedding's rows are otherwise joined at once (seedColumns); a tree
  // sum ends whole.
  else if (l.replicated() || (l.axis >= 0 && !llvm::isa<GatherOp>(op)))
    layouts[op->getResult(0)] = l;
}

void Sharder::pinWhole(Operation *op) {
  bool reads = llvm::any_of(op->getOperands(),
                            [&](Value v) { return pinned.contains(v); });
  if (reads || llvm::isa<StateWriteOp>(op))
    for (Value r : op->getResults())
      pinned.insert(r);
}

std::optional<Operand> Sharder::operandFor(Value v, int64_t axis, const Layout &l) {
  if (pinned.contains(v))
    return std::nullopt; // resident state: the op runs where it is
  // A replicated value is read like a whole one, from the chip's copy.
  auto it = layouts.find(v);
  if (it != layouts.end() && it->second.replicated())
    it = layouts.end();
  if (axis < 0 || rankedOf(v).getDimSize(axis) == 1)
    return it == layouts.end() ? std::optional<Operand>(Operand{})
                               : std::nullopt;
  if (it != layouts.end())
    return it->second.axis == axis && it->second.sameSplit(l)
               ? std::optional<Operand>({Operand::Piece, axis})
               : std::nullopt;
  return Operand{Operand::Slice, axis};
}

bool Sharder::pieceRule(Operation *op, unsigned which, const Layout &driver,
               SmallVector<Operand> &reads, Layout &result) {
  SmallVector<int64_t> lo, hi;
  int64_t outAxis = -1;
  Layout l = driver; // `layouts` may grow while the rule reads it
  if (!shardRule(
          op, which, l,
          [&](Value v, int64_t axis, const Layout &split) {
            return operandFor(v, axis, split);
          },
          reads, outAxis, lo, hi))
    return false;
  result = Layout{outAxis, lo, hi, l.nodes, {}};
  return true;
}

bool Sharder::columnBlocks(Operation *op, int64_t n, int64_t most,
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

std::optional<Layout> Sharder::stateSplit(StateWriteOp write) const {
  auto it = layouts.find(write.getUpdate());
  if (it == layouts.end() || it->second.axis < 1 ||
      it->second.axis == int64_t(write.getAxis()) ||
      it->second.nodes.front() != groupOf(write).first)
    return std::nullopt;
  const Layout &l = it->second;
  return Layout{l.axis, l.lo, l.hi, l.nodes, {}};
}

std::optional<Layout> Sharder::columnsOf(Operation *op, ChipRange group) const {
  ConstantOp w = splittableWeight(op);
  if (!w)
    return std::nullopt;
  Layout l;
  if (!columnBlocks(op, rankedOf(w).getDimSize(1), group.count, l.lo, l.hi))
    return std::nullopt;
  l.axis = rankedOf(op->getResult(0)).getRank() - 1;
  for (size_t i = 0; i < l.lo.size(); ++i)
    l.nodes.push_back(group.first + int64_t(i));
  return l;
}

std::optional<Decision> Sharder::rowSplit(Operation *op, unsigned which,
                                 const Layout &l) const {
  auto m = dyn_cast<MatMulOp>(op);
  ConstantOp w = m ? splittableWeight(op) : nullptr;
  if (!w || which != 0 || l.axis != rankedOf(m.getLhs()).getRank() - 1)
    return std::nullopt;
  // A few rows' partial sums (a decode step's) are added on every chip in
  // one exchange: the result replicated, so the norms after it run on
  // every chip without a gather (Megatron's all-reduce per projection).
  if (l.nodes.size() > 1 && small(op))
    return Decision{"all_reduce",
                    Layout{Layout::kReplicated, {}, {}, l.nodes, {}}};
  int64_t k = rankedOf(m.getLhs()).getDimSize(l.axis);
  int64_t n = rankedOf(w).getDimSize(1);
  // The reduce-scatter needs a column block per piece; with fewer (fewer
  // heads than chips) the all-gather keeps the result split by head.
  SmallVector<int64_t> los, his;
  const bool scatter =
      columnBlocks(op, n, int64_t(l.nodes.size()), los, his) &&
      los.size() == l.nodes.size();
  if (k <= n || !scatter)
    if (std::optional<Layout> cut = columnsOf(op, groupOf(op)))
      return Decision{"columns", *cut};
  if (!scatter)
    return Decision{"tree_sum", Layout{-1, {}, {}, l.nodes, {}}};
  int64_t axis = m.getType().getRank() - 1;
  return Decision{"reduce_scatter", Layout{axis, los, his, l.nodes, {}}};
}

LogicalResult lpx::annotateSharding(func::FuncOp f, const Mesh &mesh) {
  return Sharder(f, mesh, Mode::Annotate).run();
}

LogicalResult lpx::rewriteSharding(func::FuncOp f, const Mesh &mesh) {
  return Sharder(f, mesh, Mode::Rewrite).run();
}
