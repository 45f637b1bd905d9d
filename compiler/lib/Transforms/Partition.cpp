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
#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Dialect/Graph/IR/ShapeOnly.h"
#include "lpx/Dialect/Part/IR/PartOps.h"
#include "lpx/Target/ISABridge.h"
#include "lpx/isa/Topology.h"
#include "lpx/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

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
  std::pair<int64_t, int64_t> range(int64_t i) const {
    int64_t base = extent / parts, extra = extent % parts;
    int64_t lo = i * base + std::min(i, extra);
    return {lo, lo + base + (i < extra ? 1 : 0)};
  }
};

ConstantOp weightOf(MatMulOp m) {
  return m.getRhs().getDefiningOp<ConstantOp>();
}

/// Weights whose values can be cut by copying bytes (or are splats), and
/// shape-only weights of the same element types.
bool canSliceWeight(ConstantOp c) {
  unsigned bits = c.getValue().getElementType().getIntOrFloatBitWidth();
  if (isShapeOnly(c.getValue()))
    return bits % 8 == 0;
  auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
  return dense && (dense.isSplat() || bits % 8 == 0);
}

Split chooseSplit(MatMulOp m, unsigned nodes) {
  ConstantOp w = weightOf(m);
  if (nodes < 2 || !w || !canSliceWeight(w))
    return {};
  auto wt = cast<RankedTensorType>(w.getType());
  if (wt.getRank() != 2)
    return {};
  int64_t k = wt.getDimSize(0), n = wt.getDimSize(1);
  // Column split sends the activation (K) to every node and gathers N
  // outputs; reduction split scatters K and reduces N per node.
  if (k > n && k >= 2)
    return {SplitKind::Reduction, std::min<int64_t>(nodes, k), k};
  if (n >= 2)
    return {SplitKind::Columns, std::min<int64_t>(nodes, n), n};
  return {};
}

/// Bytes of the weight slice a node holds for part `i` of a split.
uint64_t sliceBytes(MatMulOp m, const Split &s, int64_t i) {
  auto wt = cast<RankedTensorType>(weightOf(m).getType());
  auto [lo, hi] = s.range(i);
  int64_t other = s.kind == SplitKind::Columns ? wt.getDimSize(0)
                                               : wt.getDimSize(1);
  return uint64_t(hi - lo) * other *
         isa::dtypeBytes(*dtypeOf(wt.getElementType()));
}

struct Plan {
  llvm::DenseMap<Operation *, int64_t> home;
  SmallVector<uint64_t> weightBytes;
  bool fits() const;
  uint64_t capacity = 0;
};

bool Plan::fits() const {
  for (uint64_t b : weightBytes)
    if (b > capacity)
      return false;
  return true;
}

Plan planPlacement(func::FuncOp f, unsigned nodes, uint64_t capacity) {
  Plan plan;
  plan.capacity = capacity;
  plan.weightBytes.assign(nodes, 0);
  llvm::DenseSet<std::pair<Operation *, int64_t>> placed;
  int64_t home = 0;
  for (Operation &op : f.getBody().front()) {
    if (llvm::isa<ConstantOp, func::ReturnOp>(op))
      continue;
    if (auto m = dyn_cast<MatMulOp>(op)) {
      Split s = chooseSplit(m, nodes);
      if (s.kind != SplitKind::None) {
        for (int64_t i = 0; i < s.parts; ++i)
          plan.weightBytes[i] += sliceBytes(m, s, i);
        plan.home[&op] = home;
        continue;
      }
    }
    auto need = [&](int64_t node) {
      uint64_t bytes = 0;
      for (Value v : op.getOperands())
        if (auto c = v.getDefiningOp<ConstantOp>())
          if (!placed.contains({c, node}))
            bytes += bytesOf(c.getType());
      return bytes;
    };
    if (plan.weightBytes[home] + need(home) > capacity &&
        home + 1 < int64_t(nodes))
      ++home;
    plan.weightBytes[home] += need(home);
    for (Value v : op.getOperands())
      if (auto c = v.getDefiningOp<ConstantOp>())
        placed.insert({c, home});
    plan.home[&op] = home;
  }
  return plan;
}

/// Part `part` of a 2-D weight: rows [r0, r1) and columns [c0, c1).
ElementsAttr sliceWeight(ElementsAttr value, int64_t part, int64_t r0,
                         int64_t r1, int64_t c0, int64_t c1) {
  auto type =
      RankedTensorType::get({r1 - r0, c1 - c0}, value.getElementType());
  if (isShapeOnly(value))
    return shapeOnlyFrom(value, type, ".part" + llvm::Twine(part));
  auto w = cast<DenseElementsAttr>(value);
  if (w.isSplat())
    return DenseElementsAttr::get(type, w.getSplatValue<Attribute>());
  unsigned eb = w.getElementType().getIntOrFloatBitWidth() / 8;
  int64_t cols = cast<RankedTensorType>(w.getType()).getDimSize(1);
  ArrayRef<char> raw = w.getRawData();
  std::vector<char> out;
  out.reserve(size_t(r1 - r0) * (c1 - c0) * eb);
  for (int64_t r = r0; r < r1; ++r) {
    const char *row = raw.data() + (r * cols + c0) * eb;
    out.insert(out.end(), row, row + (c1 - c0) * eb);
  }
  return DenseElementsAttr::getFromRawBuffer(type, out);
}

/// Rewrites one MatMul into per-node slices joined on its home node.
void splitMatMul(MatMulOp m, const Split &s, int64_t home) {
  OpBuilder b(m);
  Location loc = m.getLoc();
  ElementsAttr w = weightOf(m).getValue();
  auto wt = cast<RankedTensorType>(w.getType());
  auto lhsType = cast<RankedTensorType>(m.getLhs().getType());
  auto resType = cast<RankedTensorType>(m.getType());
  int64_t k = wt.getDimSize(0), n = wt.getDimSize(1);
  SmallVector<Value> partials;
  for (int64_t i = 0; i < s.parts; ++i) {
    auto [lo, hi] = s.range(i);
    Value lhs = m.getLhs();
    ElementsAttr slice;
    SmallVector<int64_t> shape(resType.getShape());
    if (s.kind == SplitKind::Columns) {
      slice = sliceWeight(w, i, 0, k, lo, hi);
      shape.back() = hi - lo;
    } else {
      slice = sliceWeight(w, i, lo, hi, 0, n);
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
    auto c = b.create<ConstantOp>(loc, slice);
    part::setNode(c, i);
    auto mm = b.create<MatMulOp>(
        loc, RankedTensorType::get(shape, resType.getElementType()), lhs, c);
    part::setNode(mm, i);
    partials.push_back(mm);
  }
  Value result;
  if (s.kind == SplitKind::Columns) {
    auto cat = b.create<ConcatOp>(loc, resType, partials,
                                  b.getI64IntegerAttr(resType.getRank() - 1));
    part::setNode(cat, home);
    result = cat;
  } else {
    result = partials.front();
    for (Value p : ArrayRef<Value>(partials).drop_front()) {
      auto add = b.create<AddOp>(loc, resType, result, p);
      part::setNode(add, home);
      result = add;
    }
  }
  m.replaceAllUsesWith(result);
  m.erase();
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
    FailureOr<isa::ChipSpec> chipOr = loadChipForPass(chip, module);
    if (failed(chipOr))
      return signalPassFailure();
    const isa::ChipSpec &spec = *chipOr;
    if (auto why = isa::checkChipCount(spec, numNodes)) {
      module.emitError() << *why;
      return signalPassFailure();
    }
    for (auto f : module.getOps<func::FuncOp>())
      if (failed(partition(f, spec)))
        return signalPassFailure();
    module->setAttr(part::PartDialect::kNumNodesAttr,
                    IntegerAttr::get(IntegerType::get(&getContext(), 64),
                                     numNodes));
  }

  LogicalResult partition(func::FuncOp f, const isa::ChipSpec &spec) {
    if (f.getBody().getBlocks().size() != 1)
      return f.emitError("expected a function with a single block");
    Plan plan = planPlacement(f, numNodes, spec.sram.bytes);
    if (!plan.fits())
      return reportTooBig(f, plan, spec);
    for (Operation &op :
         llvm::make_early_inc_range(f.getBody().front().without_terminator())) {
      if (llvm::isa<ConstantOp>(op))
        continue;
      int64_t home = plan.home.lookup(&op);
      if (auto m = dyn_cast<MatMulOp>(op)) {
        Split s = chooseSplit(m, numNodes);
        if (s.kind != SplitKind::None) {
          splitMatMul(m, s, home);
          continue;
        }
      }
      part::setNode(&op, home);
    }
    materializeOutputs(f);
    connect(f);
    return success();
  }

  LogicalResult reportTooBig(func::FuncOp f, const Plan &plan,
                             const isa::ChipSpec &spec) {
    uint64_t total = 0, worst = 0;
    for (uint64_t b : plan.weightBytes) {
      total += b;
      worst = std::max(worst, b);
    }
    // The smallest node count whose plan fits: the same planner, more nodes.
    unsigned enough = 0;
    for (unsigned n = numNodes + 1; n <= 65536 && !enough; n *= 2)
      if (planPlacement(f, n, spec.sram.bytes).fits())
        enough = n;
    if (enough) {
      unsigned lo = enough / 2 + 1;
      for (unsigned n = std::max<unsigned>(lo, numNodes + 1); n < enough; ++n)
        if (planPlacement(f, n, spec.sram.bytes).fits()) {
          enough = n;
          break;
        }
    }
    InFlightDiagnostic d = f.emitError()
                           << "model does not fit on " << unsigned(numNodes) << " node"
                           << (numNodes == 1 ? "" : "s") << " of '"
                           << spec.name << "': it needs " << total
                           << " bytes of weights, " << worst
                           << " of them on one node with " << spec.sram.bytes
                           << " bytes of SRAM; ";
    if (enough)
      d << enough << " nodes would hold the weights";
    else
      d << "no node count up to 65536 holds them";
    return failure();
  }
};

} // namespace
