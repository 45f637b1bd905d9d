//===- Partition.cpp - Place ops on nodes, split MatMuls, add transfers ---===//
//
// IR level 1 to 2. Three steps, each linear in the number of ops:
//  1. plan: walk ops in program order, give each a home node and account the
//     weight bytes every node must hold (tensor-parallel MatMul slices on all
//     nodes, other constants on the home node, which moves to the next node
//     when the current one is full);
//  2. rewrite: split the tensor-parallel MatMuls and mark every op's node;
//  3. connect: every operand that lives on another node gets a transfer
//     (constants are cloned instead: weights never travel at run time).
//
//===----------------------------------------------------------------------===//
#include "PartitionExperts.h"
#include "PartitionGroups.h"
#include "PartitionPieces.h"
#include "PartitionShard.h"
#include "PartitionStages.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Dialect/Graph/IR/ShapeOnly.h"
#include "lpx/Dialect/Graph/IR/WeightBlobs.h"
#include "lpx/Dialect/Part/IR/PartOps.h"
#include "lpx/Target/ISABridge.h"
#include "lpx/isa/Topology.h"
#include "lpx/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <map>

namespace lpx {
#define GEN_PASS_DEF_PARTITION
#include "lpx/Transforms/Passes.h.inc"
} // namespace lpx

using namespace mlir;
using namespace lpx;
using namespace lpx::graph;

namespace {

uint64_t bytesOf(Type t) { return tensorDescOf(t).bytes(); }

/// How a tensor-parallel MatMul is cut: by output columns or by the
/// reduction dimension (then the partial products are summed).
enum class SplitKind { None, Columns, Reduction };

struct Split {
  SplitKind kind = SplitKind::None;
  int64_t parts = 0;
  int64_t extent = 0; // size of the dimension that is cut
  // A reduction split by rows across this many groups of `parts` chips
  // (PartitionGroups.h): chip i holds the weight's rows range(i % parts).
  int64_t groups = 1;
  std::pair<int64_t, int64_t> range(int64_t i) const {
    return blockRange(extent, parts, i);
  }
  int64_t nodes() const { return parts * groups; }
};

/// The constant a tensor-parallel split cuts: a MatMul's weight, or the
/// table of a Gather along axis 0 (an embedding); null for other ops.
ConstantOp weightOf(Operation *op) {
  if (auto m = dyn_cast<MatMulOp>(op))
    return m.getRhs().getDefiningOp<ConstantOp>();
  if (auto g = dyn_cast<GatherOp>(op); g && g.getAxis() == 0)
    return g.getData().getDefiningOp<ConstantOp>();
  return nullptr;
}

/// Weights whose values can be cut by copying bytes (or are splats), and
/// shape-only weights of the same element types.
bool canSliceWeight(ConstantOp c) { return isSliceableWeight(c.getValue()); }

/// How `op` is cut over `nodes` chips in groups of `group`, each with
/// `capacity` bytes of SRAM.
Split chooseSplit(Operation *op, unsigned nodes, int64_t group,
                  uint64_t capacity) {
  ConstantOp w = weightOf(op);
  if (nodes < 2 || !w || !canSliceWeight(w))
    return {};
  auto wt = cast<RankedTensorType>(w.getType());
  if (wt.getRank() != 2)
    return {};
  int64_t k = wt.getDimSize(0), n = wt.getDimSize(1);
  // A table's rows are looked up, so only its columns can be cut: every
  // node gathers its columns of the looked-up rows.
  if (llvm::isa<GatherOp>(op))
    return n >= 2 ? Split{SplitKind::Columns, std::min<int64_t>(nodes, n), n}
                  : Split{};
  // Column split sends the activation (K) to every node and gathers N
  // outputs; reduction split scatters K and reduces N per node.
  if (k > n && k >= 2) {
    int64_t groups = rowGroupsFor(cast<MatMulOp>(op), w, nodes, group, capacity);
    if (groups > 1 && k >= group)
      return {SplitKind::Reduction, group, k, groups};
    return {SplitKind::Reduction, std::min<int64_t>(nodes, k), k};
  }
  if (n >= 2)
    return {SplitKind::Columns, std::min<int64_t>(nodes, n), n};
  return {};
}

/// Bytes of the weight slice node `i` holds under a split.
uint64_t sliceBytes(Operation *op, const Split &s, int64_t i) {
  auto wt = cast<RankedTensorType>(weightOf(op).getType());
  auto [lo, hi] = s.range(i % s.parts);
  int64_t other = s.kind == SplitKind::Columns ? wt.getDimSize(0)
                                               : wt.getDimSize(1);
  return uint64_t(hi - lo) * other *
         isa::dtypeBytes(*dtypeOf(wt.getElementType()));
}

/// Where ops go and what stays resident on each node for the whole
/// program: weights, and the program's inputs and outputs (activations the
/// host writes before cycle 0 or reads after the last).
struct Plan {
  llvm::DenseMap<Operation *, int64_t> home;
  llvm::DenseMap<Value, int64_t> argNode; // an input lives with its first user
  SmallVector<uint64_t> weightBytes, activationBytes;
  uint64_t capacity = 0;
  bool fits() const {
    for (size_t i = 0; i < weightBytes.size(); ++i)
      if (weightBytes[i] + activationBytes[i] > capacity)
        return false;
    return true;
  }
};

/// The list scheduler hoists work, so more temporaries are live at once
/// than program order shows (a decoder layer's attention keeps several
/// cache-sized copies alive), and bank conflicts fragment what is free: a
/// node takes no more ops once program-order liveness reaches all but
/// 1/kScheduleReserve of its SRAM.
constexpr uint64_t kScheduleReserve = 2;

Plan planPlacement(func::FuncOp f, unsigned nodes, int64_t group,
                   uint64_t capacity) {
  Plan plan;
  plan.capacity = capacity;
  plan.weightBytes.assign(nodes, 0);
  plan.activationBytes.assign(nodes, 0);
  llvm::DenseSet<std::pair<Operation *, int64_t>> placed;
  Operation *ret = f.getBody().front().getTerminator();
  // Temporaries in program order: a result is live on its node from its op
  // to its last reader, and a node whose resident data plus live
  // temporaries would pass the SRAM hands the next ops to the next node.
  llvm::DenseMap<Operation *, size_t> index;
  for (Operation &op : f.getBody().front())
    index[&op] = index.size();
  std::multimap<size_t, std::pair<int64_t, uint64_t>> deaths; // at, node, bytes
  SmallVector<uint64_t> live(nodes, 0);
  int64_t home = 0;
  for (Operation &op : f.getBody().front()) {
    if (llvm::isa<ConstantOp, func::ReturnOp>(op))
      continue;
    for (auto it = deaths.begin();
         it != deaths.end() && it->first < index[&op];
         it = deaths.erase(it))
      live[it->second.first] -= it->second.second;
    Split s = chooseSplit(&op, nodes, group, capacity);
    if (s.kind != SplitKind::None)
      for (int64_t i = 0; i < s.nodes(); ++i)
        plan.weightBytes[i] += sliceBytes(&op, s, i);
    // Resident bytes this op brings to `node`: its unplaced constants (a
    // split op's weight is already counted), its inputs not yet placed, and
    // its result if the program returns it.
    auto need = [&](int64_t node) {
      uint64_t weights = 0, acts = 0;
      for (Value v : op.getOperands()) {
        if (auto c = v.getDefiningOp<ConstantOp>()) {
          if (s.kind == SplitKind::None && !placed.contains({c, node}))
            weights += bytesOf(c.getType());
        } else if (llvm::isa<BlockArgument>(v) && !plan.argNode.count(v)) {
          acts += bytesOf(v.getType());
        }
      }
      for (Operation *user : op.getResult(0).getUsers())
        if (user == ret) {
          acts += bytesOf(op.getResult(0).getType());
          break;
        }
      return std::make_pair(weights, acts);
    };
    uint64_t temp = 0; // the result, unless it is an output (resident)
    size_t lastUse = 0;
    // A result computed from inputs and constants alone can be scheduled
    // at cycle 0, however late its readers come: count it as resident.
    bool early = llvm::all_of(op.getOperands(), [](Value v) {
      return llvm::isa<BlockArgument>(v) || v.getDefiningOp<ConstantOp>();
    });
    for (Operation *user : op.getResult(0).getUsers()) {
      if (user == ret) {
        temp = 0;
        break;
      }
      temp = bytesOf(op.getResult(0).getType());
      lastUse = std::max(lastUse, index.lookup(user));
    }
    auto [w, a] = need(home);
    if (plan.weightBytes[home] + plan.activationBytes[home] + live[home] +
                w + a + temp >
            capacity - capacity / kScheduleReserve &&
        home + 1 < int64_t(nodes)) {
      ++home;
      std::tie(w, a) = need(home);
    }
    plan.weightBytes[home] += w;
    plan.activationBytes[home] += a;
    if (temp && early) {
      plan.activationBytes[home] += temp;
    } else if (temp) {
      live[home] += temp;
      deaths.insert({lastUse, {home, temp}});
    }
    for (Value v : op.getOperands()) {
      if (auto c = v.getDefiningOp<ConstantOp>())
        placed.insert({c, home});
      else if (llvm::isa<BlockArgument>(v))
        plan.argNode.try_emplace(v, home);
    }
    plan.home[&op] = home;
  }
  return plan;
}

/// Rewrites one split op (a MatMul or an embedding Gather) into per-node
/// parts, each with its slice of the weight, joined on its home node. A
/// large reduction split computes each node's partial as column blocks
/// (one per node, a 2-D tiling of the weight) for the reduce-scatter.
void splitOp(Operation *op, const Split &s, int64_t home, int64_t group) {
  ElementsAttr w = weightOf(op).getValue();
  if (s.groups > 1) {
    op->getResult(0).replaceAllUsesWith(splitRowsAcrossGroups(
        cast<MatMulOp>(op), w, s.parts, s.groups, home));
    op->erase();
    return;
  }
  OpBuilder b(op);
  Location loc = op->getLoc();
  auto wt = cast<RankedTensorType>(w.getType());
  Value lhs0 = op->getOperand(llvm::isa<GatherOp>(op) ? 1 : 0);
  auto lhsType = cast<RankedTensorType>(lhs0.getType());
  auto resType = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t k = wt.getDimSize(0), n = wt.getDimSize(1);
  const bool scatter = s.kind == SplitKind::Reduction && n >= s.parts &&
                       bytesOf(resType) >= kReduceScatterBytes;
  Split cols{SplitKind::Columns, scatter ? s.parts : 1, n};
  if (s.kind == SplitKind::Columns)
    cols = s;
  SmallVector<SmallVector<Value>> blocks(s.parts);
  for (int64_t i = 0; i < s.parts; ++i) {
    auto [lo, hi] = s.range(i);
    Value lhs = lhs0;
    if (s.kind == SplitKind::Reduction) {
      int64_t rank = lhsType.getRank();
      SmallVector<int64_t> starts(rank, 0), steps(rank, 1);
      SmallVector<int64_t> lhsShape(lhsType.getShape());
      starts.back() = lo;
      lhsShape.back() = hi - lo;
      auto sliceOp = b.create<SliceOp>(
          loc, RankedTensorType::get(lhsShape, lhsType.getElementType()), lhs,
          b.getDenseI64ArrayAttr(starts), b.getDenseI64ArrayAttr(steps));
      part::setNode(sliceOp, home);
      lhs = sliceOp;
    }
    // Columns split: part i is column block i. Reduction split: rows i,
    // and every column block when scattering, else all columns.
    int64_t first = s.kind == SplitKind::Columns ? i : 0;
    int64_t count = s.kind == SplitKind::Columns ? 1 : cols.parts;
    for (int64_t j = first; j < first + count; ++j) {
      auto [c0, c1] = cols.range(j);
      auto [r0, r1] = s.kind == SplitKind::Columns
                          ? std::pair<int64_t, int64_t>{0, k}
                          : std::pair<int64_t, int64_t>{lo, hi};
      auto c = b.create<ConstantOp>(
          loc, sliceWeight(w, s.kind == SplitKind::Columns ? i : i * cols.parts + j,
                           r0, r1, c0, c1));
      part::setNode(c, i);
      SmallVector<int64_t> shape(resType.getShape());
      shape.back() = c1 - c0;
      auto partType = RankedTensorType::get(shape, resType.getElementType());
      Operation *part =
          llvm::isa<GatherOp>(op)
              ? b.create<GatherOp>(loc, partType, c, lhs,
                                   b.getI64IntegerAttr(0))
              : b.create<MatMulOp>(loc, partType, lhs, c).getOperation();
      part::setNode(part, i);
      blocks[i].push_back(part->getResult(0));
    }
  }
  Value result;
  if (s.kind == SplitKind::Columns) {
    SmallVector<Value> partials;
    for (auto &row : blocks)
      partials.push_back(row.front());
    auto cat = b.create<ConcatOp>(loc, resType, partials,
                                  b.getI64IntegerAttr(resType.getRank() - 1));
    part::setNode(cat, home);
    result = cat;
  } else if (scatter) {
    result = reduceScatter(b, loc, blocks, resType, home, group, 0);
  } else {
    result = blocks.front().front();
    for (auto &row : ArrayRef<SmallVector<Value>>(blocks).drop_front()) {
      auto add = b.create<AddOp>(loc, resType, result, row.front());
      part::setNode(add, home);
      result = add;
    }
  }
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
}

/// Program outputs must be values the program computes into buffers of
/// their own: an input or constant returned directly, or a value returned
/// twice, gets a copy.
void materializeOutputs(func::FuncOp f) {
  auto ret = cast<func::ReturnOp>(f.getBody().front().getTerminator());
  llvm::DenseSet<Value> seen;
  OpBuilder b(ret);
  for (OpOperand &use : ret->getOpOperands()) {
    Value v = use.get();
    Operation *def = v.getDefiningOp();
    if (def && !llvm::isa<ConstantOp>(def) && seen.insert(v).second)
      continue;
    auto copy = b.create<ReshapeOp>(ret.getLoc(), v.getType(), v);
    part::setNode(copy, def && !llvm::isa<ConstantOp>(def) ? part::getNodeOfValue(v)
                                                     : 0);
    use.set(copy);
  }
}

/// Step 3: transfers for values that cross nodes, clones for constants.
void connect(func::FuncOp f) {
  llvm::DenseMap<std::pair<Value, int64_t>, Value> transfers;
  llvm::DenseMap<std::pair<Operation *, int64_t>, Value> clones;
  SmallVector<Operation *> ops;
  for (Operation &op : f.getBody().front())
    if (!llvm::isa<ConstantOp, func::ReturnOp>(op))
      ops.push_back(&op);
  for (Operation *op : ops) {
    int64_t node = *part::getNode(op);
    for (OpOperand &use : op->getOpOperands()) {
      Value v = use.get();
      if (auto c = v.getDefiningOp<ConstantOp>()) {
        std::optional<int64_t> at = part::getNode(c);
        if (!at) {
          part::setNode(c, node);
          continue;
        }
        if (*at == node)
          continue;
        Value &clone = clones[{c, node}];
        if (!clone) {
          OpBuilder b(c);
          Operation *copy = b.clone(*c);
          part::setNode(copy, node);
          clone = copy->getResult(0);
        }
        use.set(clone);
        continue;
      }
      int64_t from = part::getNodeOfValue(v);
      if (from == node)
        continue;
      Value &t = transfers[{v, node}];
      if (!t) {
        OpBuilder b(f.getContext());
        if (Operation *def = v.getDefiningOp())
          b.setInsertionPointAfter(def);
        else
          b.setInsertionPointToStart(&f.getBody().front());
        auto tr = b.create<part::TransferOp>(v.getLoc(), v.getType(), v,
                                             b.getI64IntegerAttr(from),
                                             b.getI64IntegerAttr(node));
        part::setNode(tr, node);
        t = tr;
      }
      use.set(t);
    }
  }
  // Constants nobody reads any more (the whole weights of split MatMuls).
  for (Operation &op : llvm::make_early_inc_range(f.getBody().front()))
    if (auto c = dyn_cast<ConstantOp>(op); c && c->use_empty())
      c.erase();
}

struct PartitionPass : lpx::impl::PartitionBase<PartitionPass> {
  using PartitionBase::PartitionBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<isa::ChipSpec> chipOr = chipOf(module);
    if (failed(chipOr))
      return signalPassFailure();
    const isa::ChipSpec &spec = *chipOr;
    if (auto why = isa::checkChipCount(spec, numNodes)) {
      module.emitError() << *why;
      return signalPassFailure();
    }
    // The whole weights that slices replace are freed at the end.
    SmallVector<ElementsAttr> weights = blobWeightsUnder(module);
    for (auto f : module.getOps<func::FuncOp>())
      if (failed(partition(f, spec)))
        return signalPassFailure();
    releaseUnusedWeights(module, weights);
    module->setAttr(part::PartDialect::kNumNodesAttr,
                    IntegerAttr::get(IntegerType::get(&getContext(), 64),
                                     numNodes));
  }

  LogicalResult partition(func::FuncOp f, const isa::ChipSpec &spec) {
    if (f.getBody().getBlocks().size() != 1)
      return f.emitError("expected a function with a single block");
    FailureOr<std::optional<Mesh>> mesh = chooseMesh(f, spec);
    if (failed(mesh))
      return failure();
    if (*mesh) {
      // Counted before placing, for the error when it does not fit.
      const uint64_t usable = spec.sram.bytes - spec.sram.bytes / 4;
      int64_t most = int64_t(std::min<uint64_t>(isa::maxChips(spec), 1u << 20));
      int64_t stages =
          stagesNeeded(f, (*mesh)->tp, usable, std::max<int64_t>(1, most / (*mesh)->tp));
      f->getParentOfType<ModuleOp>()->setAttr(
          part::PartDialect::kPlacementAttr,
          DenseI64ArrayAttr::get(&getContext(), {(*mesh)->tp, (*mesh)->pp}));
      MeshReport placed =
          placeOnMesh(f, **mesh, usable * uint64_t((*mesh)->tp));
      emitPlacement(f, **mesh);
      remarkExperts(f, placed, (*mesh)->tp, usable * uint64_t((*mesh)->tp));
      scatterInputs(f);
      gatherOutputs(f);
      materializeOutputs(f);
      connect(f);
      return checkMeshFits(f, **mesh, spec, stages);
    }
    const int64_t group = spec.topology.groupSize;
    Plan plan = planPlacement(f, numNodes, group, spec.sram.bytes);
    if (!plan.fits())
      return reportTooBig(f, plan, spec);
    for (auto [arg, node] : plan.argNode)
      f.setArgAttr(cast<BlockArgument>(arg).getArgNumber(),
                   part::PartDialect::kNodeAttr,
                   IntegerAttr::get(IntegerType::get(f.getContext(), 64),
                                    node));
    for (Operation &op :
         llvm::make_early_inc_range(f.getBody().front().without_terminator())) {
      if (llvm::isa<ConstantOp>(op))
        continue;
      int64_t home = plan.home.lookup(&op);
      if (Split s = chooseSplit(&op, numNodes, group, spec.sram.bytes);
          s.kind != SplitKind::None) {
        splitOp(&op, s, home, group);
        continue;
      }
      part::setNode(&op, home);
    }
    scatterInputs(f);
    gatherOutputs(f);
    materializeOutputs(f);
    connect(f);
    return success();
  }

  /// The tensor- and pipeline-parallel placement, said in a remark; none
  /// (the older placement, every MatMul split over all nodes) for one node,
  /// or for a model that is not a transformer unless --tp or --pp is given.
  FailureOr<std::optional<Mesh>> chooseMesh(func::FuncOp f,
                                            const isa::ChipSpec &spec) {
    const int64_t nodes = numNodes, tp = this->tp, pp = this->pp;
    if ((!tp && !pp && nodes < 2) || nodes < 1)
      return std::optional<Mesh>();
    unfuseProjections(f);
    const int64_t heads = projectionHeads(f);
    if (!tp && !pp && !heads)
      return std::optional<Mesh>();
    if (std::max<int64_t>(tp, 1) * std::max<int64_t>(pp, 1) > nodes) {
      f.emitError() << "--tp " << tp << " --pp " << pp << " needs "
                    << std::max<int64_t>(tp, 1) * std::max<int64_t>(pp, 1)
                    << " nodes; compiling for " << nodes;
      return failure();
    }
    int64_t group = spec.topology.groupSize ? spec.topology.groupSize : nodes;
    int64_t wanted = tp   ? int64_t(tp)
                     : pp ? nodes / pp
                          : std::min(group, nodes);
    // A mixture-of-experts model may use more chips per stage than it has
    // KV heads: its experts spread over them (attention over the first).
    // Values live at once get the quarter of a chip the fit check keeps.
    const uint64_t temporaries = spec.sram.bytes / 4;
    const int64_t experts = findExpertBlocks(f).mostExperts();
    Mesh m;
    m.temporaries = temporaries;
    m.tp = std::max(headDivisor(heads, std::max<int64_t>(wanted, 1)),
                    experts ? headDivisor(experts, std::max<int64_t>(wanted, 1))
                            : 1);
    m.pp = pp ? pp : std::max<int64_t>(1, nodes / m.tp);
    // No stage without layers: as many stages as the cut fills (a model
    // of one layer on two stages' chips fills one).
    const int64_t asked = m.pp;
    for (int64_t used = stagesUsed(f, m, spec); used < m.pp;
         used = stagesUsed(f, m, spec))
      m.pp = used;
    // Said once placed, with the chips that hold work (emitPlacement).
    placementWhy.clear();
    llvm::raw_string_ostream r(placementWhy);
    const int64_t attention = headDivisor(heads, m.tp);
    if (heads)
      r << "attention split by KV head over " << attention << " chip"
        << (attention == 1 ? "" : "s") << " ("
        << (tp   ? "--tp " + std::to_string(tp)
            : pp ? std::to_string(nodes) + " nodes over --pp " +
                       std::to_string(pp)
            : nodes < group ? std::to_string(nodes) + " nodes"
                            : std::to_string(group) + " chips per group")
        << (m.tp < wanted ? ", lowered to divide the model's "
                          : "; the model has ")
        << heads << " KV heads"
        << (!experts ? "" : m.tp < wanted ? " or " : " and ")
        << (experts ? std::to_string(experts) + " experts" : "") << "), "
        << (experts ? "" : "MLP by columns then rows, ");
    else
      r << "MatMuls split over " << m.tp << " chips, ";
    r << m.pp << " pipeline stage" << (m.pp == 1 ? "" : "s")
      << " of consecutive layers";
    if (m.pp < asked)
      r << " (of " << asked << ": the layers fill " << m.pp << ")";
    return std::optional<Mesh>(m);
  }

  /// Why the mesh was chosen (chooseMesh), for the placement remark.
  std::string placementWhy;

  /// The stages the cut of `m` fills (stagesOf, as placeOnMesh cuts).
  static int64_t stagesUsed(func::FuncOp f, const Mesh &m,
                            const isa::ChipSpec &spec) {
    const uint64_t usable = spec.sram.bytes - spec.sram.bytes / 4;
    int64_t used = 1;
    for (const StageSpan &span :
         stagesOf(placedOps(f), m.pp, usable * uint64_t(m.tp),
                  findExpertBlocks(f)))
      used = std::max(used, span.first + span.count);
    return used;
  }

  /// The placement remark, counting the chips that hold work once placed.
  void emitPlacement(func::FuncOp f, const Mesh &m) {
    llvm::DenseSet<int64_t> busy;
    for (Operation &op : f.getBody().front().without_terminator())
      if (!llvm::isa<ConstantOp>(op))
        if (std::optional<int64_t> node = part::getNode(&op))
          busy.insert(*node);
    f.emitRemark() << "placement: tp " << m.tp << " x pp " << m.pp << " on "
                   << busy.size() << " of " << unsigned(numNodes)
                   << " nodes: " << placementWhy;
  }

  /// What became of the mixture-of-experts blocks, in a remark.
  static void remarkExperts(func::FuncOp f, const MeshReport &placed,
                            int64_t tp, uint64_t stageBytes) {
    if (placed.experts) {
      InFlightDiagnostic r = f.emitRemark();
      r << "experts in parallel: " << placed.experts << " per layer";
      if (placed.chipsPerExpert > 1)
        r << ", each on its own " << placed.chipsPerExpert
          << " chips split by columns then rows";
      else if (placed.chips >= placed.experts)
        r << ", each on its own chip";
      else
        r << ", " << (placed.experts + placed.chips - 1) / placed.chips
          << " per chip";
      if (placed.stages > 1)
        r << ", on " << placed.chips << " chips over " << placed.stages
          << " stages of their own (the " << placed.weightBytes
          << " bytes of a layer's experts pass the " << stageBytes
          << " a stage of " << tp << " keeps for weights)";
      r << ", the token sent to each and the weighted outputs added by a "
           "tree";
    }
    if (placed.leftToTensorParallel)
      f.emitRemark() << placed.leftToTensorParallel
                     << " mixture-of-experts block(s) split like an MLP "
                        "over their chips instead: an expert's values "
                        "live at once on each of its chips ("
                     << placed.liveBytes << " bytes) would pass the "
                     << placed.temporaries
                     << " bytes a chip keeps for them";
  }

  /// Every node's weights, inputs and outputs within its SRAM; else the
  /// error names the fullest node and a chip count that would hold them
  /// (a quarter of each node kept for temporaries).
  LogicalResult checkMeshFits(func::FuncOp f, const Mesh &mesh,
                              const isa::ChipSpec &spec, int64_t needed) {
    SmallVector<uint64_t> weights(numNodes, 0), acts(numNodes, 0);
    for (Operation &op : f.getBody().front())
      if (auto c = dyn_cast<ConstantOp>(op))
        weights[*part::getNode(c)] += bytesOf(c.getType());
    for (BlockArgument arg : f.getArguments())
      acts[part::getNodeOfValue(arg)] += bytesOf(arg.getType());
    for (Value v : f.getBody().front().getTerminator()->getOperands())
      acts[part::getNodeOfValue(v)] += bytesOf(v.getType());
    size_t worst = 0;
    uint64_t total = 0;
    for (size_t i = 0; i < weights.size(); ++i) {
      total += weights[i] + acts[i];
      if (weights[i] + acts[i] > weights[worst] + acts[worst])
        worst = i;
    }
    const uint64_t capacity = spec.sram.bytes;
    if (weights[worst] + acts[worst] <= capacity)
      return success();
    // `needed`: the stages (cut at layer boundaries, as placed) whose
    // fullest keeps a quarter of each node free for temporaries; at least
    // one more than now when resident data alone overflows this count.
    uint64_t stages = std::max<int64_t>(needed, mesh.pp + 1);
    InFlightDiagnostic d = f.emitError();
    d << "model does not fit on " << unsigned(numNodes)
                  << " nodes of '" << spec.name << "' as tp " << mesh.tp
                  << " x pp " << mesh.pp << ": node " << worst
                  << " would hold " << weights[worst]
                  << " bytes of weights and " << acts[worst]
                  << " bytes of program inputs and outputs in " << capacity
                  << " bytes of SRAM (in all " << total << " bytes); ";
    if (needed)
      d << stages * mesh.tp << " nodes would hold them (tp " << mesh.tp
        << " x pp " << stages << ")";
    else
      d << "no count of stages of " << mesh.tp
        << " chips up to the topology's maximum of " << isa::maxChips(spec)
        << " chips holds them";
    return failure();
  }

  /// The smallest chip count whose plan fits, counting whole groups beyond
  /// one group, up to the topology's maximum; 0 if none does. Plans fit
  /// more easily with more chips, so a binary search over the candidates.
  unsigned chipsNeeded(func::FuncOp f, const isa::ChipSpec &spec) {
    uint64_t group = std::max<uint32_t>(1, spec.topology.groupSize);
    uint64_t limit = std::min<uint64_t>(isa::maxChips(spec), 1u << 20);
    auto candidate = [&](uint64_t i) { // 1, 2, ..., group, 2 group, ...
      return i < group ? i + 1 : (i - group + 2) * group;
    };
    uint64_t count = group + (limit > group ? limit / group - 1 : 0);
    uint64_t lo = 0, hi = count; // first fitting index in [lo, hi)
    while (lo < hi) {
      uint64_t mid = (lo + hi) / 2;
      if (candidate(mid) > limit ||
          planPlacement(f, unsigned(candidate(mid)), spec.topology.groupSize,
                        spec.sram.bytes)
              .fits())
        hi = mid;
      else
        lo = mid + 1;
    }
    if (lo == count || candidate(lo) > limit)
      return 0;
    return unsigned(candidate(lo));
  }

  LogicalResult reportTooBig(func::FuncOp f, const Plan &plan,
                             const isa::ChipSpec &spec) {
    uint64_t weights = 0, acts = 0;
    size_t worst = 0;
    for (size_t i = 0; i < plan.weightBytes.size(); ++i) {
      weights += plan.weightBytes[i];
      acts += plan.activationBytes[i];
      if (plan.weightBytes[i] + plan.activationBytes[i] >
          plan.weightBytes[worst] + plan.activationBytes[worst])
        worst = i;
    }
    InFlightDiagnostic d = f.emitError();
    d << "model does not fit on " << unsigned(numNodes) << " node"
      << (numNodes == 1 ? "" : "s") << " of '" << spec.name << "': node "
      << worst << " would hold " << plan.weightBytes[worst]
      << " bytes of weights and " << plan.activationBytes[worst]
      << " bytes of program inputs and outputs in " << spec.sram.bytes
      << " bytes of SRAM (in all " << weights << " bytes of weights, "
      << acts << " of inputs and outputs); ";
    if (unsigned enough = chipsNeeded(f, spec)) {
      d << enough << " nodes would hold them";
      if (enough > spec.topology.groupSize && spec.topology.groupSize)
        d << " (" << enough / spec.topology.groupSize << " groups of "
          << spec.topology.groupSize << ")";
      return failure();
    }
    uint64_t most = isa::maxChips(spec);
    Plan at = planPlacement(f, unsigned(std::min<uint64_t>(most, 1u << 20)),
                            spec.topology.groupSize, spec.sram.bytes);
    size_t k = 0;
    for (size_t i = 0; i < at.weightBytes.size(); ++i)
      if (at.weightBytes[i] + at.activationBytes[i] >
          at.weightBytes[k] + at.activationBytes[k])
        k = i;
    d << "no chip count up to the topology's maximum of " << most
      << " holds them: with " << most << " nodes, node " << k
      << " still needs "
      << at.weightBytes[k] << " bytes of weights and "
      << at.activationBytes[k]
      << " of inputs and outputs (tensors that are not split)";
    return failure();
  }
};

} // namespace
