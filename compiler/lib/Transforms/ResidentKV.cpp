//===- ResidentKV.cpp - A decoder's KV cache as resident state -----------===//
//
// An exported decode step takes its KV cache as an input and returns the
// cache grown by one position (past -> Concat -> present), so every step
// moves the whole cache through the host and copies it once more on chip.
// Deployments keep the cache in SRAM and write the new position in place;
// this pass rewrites each such pair into a state argument and one
// lpx_graph.state_write (see Passes.td). A prefill exported without a past
// (it returns the prompt's K and V as present) writes them into states of
// `context` positions instead, named and laid out as its step's.
//
//===----------------------------------------------------------------------===//
#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Dialect/Graph/IR/GraphNames.h"
#include "lpx/Transforms/Passes.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/Sequence.h"

namespace lpx {
#define GEN_PASS_DEF_RESIDENTKV
#include "lpx/Transforms/Passes.h.inc"
} // namespace lpx

using namespace mlir;
using namespace lpx;
using namespace lpx::graph;

namespace {

/// One past -> concat -> present pair.
struct CachePair {
  BlockArgument past;
  Operation *pastCast = nullptr; // convert-types' cast of the input, if any
  ConcatOp concat;
  SmallVector<unsigned> outputs; // return operands that are the present
  SmallVector<Operation *> outputCasts;
};

/// The value behind `v` when `v` is a cast with no other reader (what
/// lpx-convert-types puts after an input), else `v`.
Value behindCast(Value v, Operation *&cast) {
  if (auto c = v.getDefiningOp<CastOp>(); c && c->hasOneUse()) {
    cast = c;
    return c.getInput();
  }
  return v;
}

/// The pair `concat` belongs to, when it is one.
std::optional<CachePair> matchPair(ConcatOp concat, func::ReturnOp ret) {
  if (concat.getInputs().size() != 2)
    return std::nullopt;
  CachePair p{nullptr, nullptr, concat, {}, {}};
  auto past = dyn_cast<BlockArgument>(
      behindCast(concat.getInputs()[0], p.pastCast));
  int64_t axis = concat.getAxis();
  auto entry = cast<RankedTensorType>(concat.getInputs()[1].getType());
  if (!past || !past.hasOneUse() || axis < 1 || entry.getDimSize(axis) < 1)
    return std::nullopt;
  p.past = past;
  for (OpOperand &use : concat->getUses()) {
    Operation *user = use.getOwner();
    if (user == ret) {
      p.outputs.push_back(use.getOperandNumber());
    } else if (llvm::isa<CastOp>(user) && user->hasOneUse() &&
               *user->getUsers().begin() == ret) {
      p.outputs.push_back(user->getUses().begin()->getOperandNumber());
      p.outputCasts.push_back(user);
    }
  }
  if (p.outputs.empty())
    return std::nullopt;
  return p;
}

/// `t` with its last two dims swapped.
RankedTensorType swapLastTwo(Type t) {
  auto r = cast<RankedTensorType>(t);
  SmallVector<int64_t> shape(r.getShape());
  std::swap(shape[shape.size() - 2], shape.back());
  return r.clone(shape);
}

/// The readers from `v` to a transpose of its last two dims (attention's
/// K^T): reshapes and broadcasts that leave the last two dims alone
/// (repeat_kv), each the only reader of the one before, then the
/// transpose. Empty when `v` is read any other way.
SmallVector<Operation *> pathToTranspose(Value v) {
  SmallVector<Operation *> path;
  while (v.hasOneUse()) {
    Operation *user = *v.getUsers().begin();
    auto in = cast<RankedTensorType>(v.getType());
    const int64_t r = in.getRank();
    if (auto t = dyn_cast<TransposeOp>(user)) {
      SmallVector<int64_t> swap = llvm::to_vector(llvm::seq<int64_t>(0, r));
      std::swap(swap[r - 2], swap[r - 1]);
      if (t.getPerm() != ArrayRef<int64_t>(swap))
        return {};
      path.push_back(user);
      return path;
    }
    if (!llvm::isa<ReshapeOp, BroadcastOp>(user) || r < 2)
      return {};
    auto out = cast<RankedTensorType>(user->getResult(0).getType());
    if (out.getRank() < 2 || in.getShape().take_back(2) != out.getShape().take_back(2))
      return {};
    path.push_back(user);
    v = user->getResult(0);
  }
  return {};
}

/// The return operands named `present.*` (the cache outputs of an
/// HF-optimum export), each with the value behind its output cast.
struct PresentOutput {
  unsigned index;
  Value value;
  Operation *cast = nullptr;
};

SmallVector<PresentOutput> presentOutputs(func::FuncOp f, func::ReturnOp ret) {
  SmallVector<PresentOutput> out;
  auto names = f->getAttrOfType<ArrayAttr>(graph::kOutputNamesAttr);
  for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
    auto name = names && i < names.size() ? dyn_cast<StringAttr>(names[i])
                                          : StringAttr();
    if (!name || !name.getValue().starts_with("present."))
      continue;
    PresentOutput p{unsigned(i), v};
    if (auto c = v.getDefiningOp<CastOp>(); c && c->hasOneUse())
      p.cast = c, p.value = c.getInput();
    out.push_back(p);
  }
  return out;
}

StringAttr outputName(func::FuncOp f, unsigned index) {
  auto names = f->getAttrOfType<ArrayAttr>(graph::kOutputNamesAttr);
  return names && index < names.size() ? dyn_cast<StringAttr>(names[index])
                                       : StringAttr();
}

BlockArgument namedArgument(func::FuncOp f, StringRef name) {
  for (BlockArgument arg : f.getArguments())
    if (auto n = f.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                graph::kInputNameAttr);
        n && n.getValue() == name)
      return arg;
  return nullptr;
}

struct ResidentKVPass : lpx::impl::ResidentKVBase<ResidentKVPass> {
  using ResidentKVBase::ResidentKVBase;

  void runOnOperation() override {
    func::FuncOp f = getOperation();
    if (f.isExternal())
      return;
    auto ret = cast<func::ReturnOp>(f.getBody().front().getTerminator());
    SmallVector<CachePair> pairs;
    f.walk([&](ConcatOp c) {
      if (auto p = matchPair(c, ret))
        pairs.push_back(*p);
    });
    SmallVector<PresentOutput> presents;
    if (pairs.empty() && context > 0)
      presents = presentOutputs(f, ret);
    if (pairs.empty() && presents.empty()) {
      f.emitError("no KV cache to keep resident: no input is concatenated "
                  "with new entries into an output")
          << (context > 0 ? ", and no output is named present.*" : "");
      return signalPassFailure();
    }
    BlockArgument pos = namedArgument(f, positions);
    if (!pos) {
      f.emitError("no input named '") << positions << "' gives the position "
                                          "the KV cache is written at";
      return signalPassFailure();
    }
    auto posType = cast<RankedTensorType>(pos.getType());
    if (!presents.empty())
      return writePrefill(f, ret, presents, pos);
    llvm::BitVector dropped(ret.getNumOperands());
    for (CachePair &p : pairs) {
      auto state = cast<RankedTensorType>(p.concat.getType());
      if (!posType.getElementType().isInteger(64) &&
          !posType.getElementType().isInteger(32)) {
        f.emitError("input '") << positions << "' must hold integers";
        return signalPassFailure();
      }
      // One position per batch row and new entry: [B, n] ([B] when n = 1).
      const int64_t rows = state.getDimSize(0);
      const int64_t n = cast<RankedTensorType>(p.concat.getInputs()[1].getType())
                            .getDimSize(p.concat.getAxis());
      if (posType.getRank() > 2 || posType.getNumElements() != rows * n ||
          (posType.getRank() == 2 && posType.getDimSize(0) != rows)) {
        f.emitError("input '") << positions << "' must hold one position per "
                               << "batch row and new entry ([B, " << n
                               << "], B = " << rows << ")";
        return signalPassFailure();
      }
      rewrite(f, p, pos);
      for (unsigned i : p.outputs)
        dropped.set(i);
    }
    dropOutputs(f, ret, dropped);
    for (CachePair &p : pairs) {
      for (Operation *c : p.outputCasts)
        c->erase();
      p.concat->erase();
      if (p.pastCast)
        p.pastCast->erase();
    }
  }

  /// A prefill without a past: each present output [B, kv, S, hd] becomes
  /// a state of `context` positions (named as the output, laid out as the
  /// step's: K^T when attention reads it so) and a state_write of the S
  /// entries at the positions; attention keeps reading the S entries.
  void writePrefill(func::FuncOp f, func::ReturnOp ret,
                    ArrayRef<PresentOutput> presents, Value pos) {
    auto posType = cast<RankedTensorType>(pos.getType());
    llvm::BitVector dropped(ret.getNumOperands());
    for (const PresentOutput &p : presents)
      dropped.set(p.index);
    SmallVector<std::pair<StringAttr, Value>> entries;
    for (const PresentOutput &p : presents) {
      auto type = cast<RankedTensorType>(p.value.getType());
      const int64_t rank = type.getRank();
      if (rank < 3 || posType.getRank() != 2 ||
          posType.getDimSize(0) != type.getDimSize(0) ||
          posType.getDimSize(1) != type.getDimSize(rank - 2) ||
          type.getDimSize(rank - 2) > context) {
        f.emitError("output '")
            << outputName(f, p.index).getValue() << "' is not "
            << "[B, heads, S, head dim] with '" << positions << "' [B, S] and "
            << "S at most the " << int64_t(context)
            << " positions of the cache";
        return signalPassFailure();
      }
      entries.push_back({outputName(f, p.index), p.value});
    }
    dropOutputs(f, ret, dropped);
    for (const PresentOutput &p : presents)
      if (p.cast)
        p.cast->erase();
    for (auto [name, entry] : entries)
      writeEntries(f, name, entry, pos);
  }

  /// A new state argument named `name` holding `context` positions of
  /// `entry`'s rows, and the state_write of `entry` into it.
  void writeEntries(func::FuncOp f, StringAttr name, Value entry, Value pos) {
    auto type = cast<RankedTensorType>(entry.getType());
    const int64_t rank = type.getRank();
    SmallVector<int64_t> shape(type.getShape());
    shape[rank - 2] = context;
    RankedTensorType state = type.clone(shape);
    int64_t axis = rank - 2;
    OpBuilder b(&getContext());
    b.setInsertionPointAfterValue(entry);
    Value update = entry;
    if (!pathToTranspose(entry).empty()) { // kept as K^T, as in the step
      state = swapLastTwo(state);
      axis = rank - 1;
      SmallVector<int64_t> perm = llvm::to_vector(llvm::seq<int64_t>(0, rank));
      std::swap(perm[rank - 2], perm[rank - 1]);
      update = b.create<TransposeOp>(entry.getLoc(), swapLastTwo(type), entry,
                                     b.getDenseI64ArrayAttr(perm));
    }
    const unsigned arg = f.getNumArguments();
    (void)f.insertArgument(arg, state,
                           b.getDictionaryAttr({
                               b.getNamedAttr(graph::kInputNameAttr, name),
                               b.getNamedAttr(kStateAttr, b.getUnitAttr())}),
                           entry.getLoc());
    b.create<StateWriteOp>(entry.getLoc(), state, f.getArgument(arg), update,
                           pos, axis);
  }

  /// The input becomes the state (every position, the concat's type) and
  /// the concat a state_write into it; readers of the concat read the state.
  /// The state is named after the cache output it replaces (present.*), as
  /// a prefill's state is.
  void rewrite(func::FuncOp f, CachePair &p, Value pos) {
    Type state = p.concat.getType();
    p.past.setType(state);
    f.setArgAttr(p.past.getArgNumber(), kStateAttr, UnitAttr::get(&getContext()));
    if (StringAttr name = outputName(f, p.outputs.front()))
      f.setArgAttr(p.past.getArgNumber(), graph::kInputNameAttr, name);
    if (p.pastCast)
      p.pastCast->getResult(0).replaceAllUsesWith(p.past);
    OpBuilder b(p.concat);
    auto write = b.create<StateWriteOp>(p.concat.getLoc(), state, p.past,
                                        p.concat.getInputs()[1], pos,
                                        p.concat.getAxis());
    p.concat.getResult().replaceUsesWithIf(write.getResult(), [&](OpOperand &u) {
      Operation *user = u.getOwner();
      return user != write && !llvm::isa<func::ReturnOp>(user) &&
             !llvm::is_contained(p.outputCasts, user);
    });
    keepTransposed(write, p.past);
  }

  /// A K cache that attention reads as K^T is kept transposed, [.., hd, L]:
  /// the append writes columns, and no step transposes the whole cache.
  /// A step's one new entry [.., 1, hd] holds the same bytes as [.., hd, 1]
  /// (a reshape); a prompt's n entries are transposed, n x hd, not L x hd.
  void keepTransposed(StateWriteOp write, BlockArgument state) {
    const int64_t rank = cast<RankedTensorType>(state.getType()).getRank();
    SmallVector<Operation *> path = pathToTranspose(write.getResult());
    if (path.empty() || int64_t(write.getAxis()) != rank - 2)
      return;
    OpBuilder b(write);
    Value entry = write.getUpdate();
    Type swapped = swapLastTwo(entry.getType());
    Value columns;
    if (cast<RankedTensorType>(entry.getType()).getDimSize(rank - 2) == 1) {
      columns = b.create<ReshapeOp>(entry.getLoc(), swapped, entry);
    } else {
      SmallVector<int64_t> perm = llvm::to_vector(llvm::seq<int64_t>(0, rank));
      std::swap(perm[rank - 2], perm[rank - 1]);
      columns = b.create<TransposeOp>(entry.getLoc(), swapped, entry,
                                      b.getDenseI64ArrayAttr(perm));
    }
    write.getUpdateMutable().assign(columns);
    RankedTensorType transposed = swapLastTwo(state.getType());
    state.setType(transposed);
    write.getResult().setType(transposed);
    write.setAxis(rank - 1);
    Operation *transpose = path.pop_back_val();
    for (Operation *op : path)
      op->getResult(0).setType(swapLastTwo(op->getResult(0).getType()));
    transpose->getResult(0).replaceAllUsesWith(transpose->getOperand(0));
    transpose->erase();
  }

  /// Removes the present outputs from the function's results and names.
  void dropOutputs(func::FuncOp f, func::ReturnOp ret,
                   const llvm::BitVector &dropped) {
    ret->eraseOperands(dropped);
    if (auto names = f->getAttrOfType<ArrayAttr>(graph::kOutputNamesAttr)) {
      SmallVector<Attribute> kept;
      for (auto [i, n] : llvm::enumerate(names))
        if (i >= dropped.size() || !dropped.test(i))
          kept.push_back(n);
      f->setAttr(graph::kOutputNamesAttr, ArrayAttr::get(&getContext(), kept));
    }
    (void)f.eraseResults(dropped);
    // The states changed type: the signature follows the block's arguments.
    f.setType(FunctionType::get(&getContext(),
                                f.getBody().front().getArgumentTypes(),
                                ret.getOperandTypes()));
  }
};

} // namespace
