//===- PartitionSharder.h - The walk behind the sharding passes -*- C++ -*-===//
//
// One walk in program order, in one of two modes. Annotate
// (lpx-partition-shard) decides each op's split from its stage
// (lpx-partition-stages) and its operands' splits and records it as its
// #lpx_part.shard (PartitionShard.cpp); Rewrite (lpx-partition-rewrite)
// walks again and follows the records (PartitionShardRewrite.cpp): a rule
// splits an op into one op per piece of its split operand, or it runs whole
// on its stage's first node with its split operands gathered there. Both
// modes carry the same splits along (Layout, its pieces only when
// rewriting), so the rewrite re-derives what a record leaves implicit (how
// a piecewise op reads each operand) and fails where a record does not fit.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_LIB_TRANSFORMS_PARTITIONSHARDER_H
#define LPX_LIB_TRANSFORMS_PARTITIONSHARDER_H

#include "PartitionExperts.h"
#include "PartitionShard.h"
#include "PartitionShardRules.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace lpx::shard {

/// Annotate: give every op its lpx_part.shard; Rewrite: follow them.
enum class Mode { Annotate, Rewrite };

/// One op's sharding: its kind (see #lpx_part.shard) and its result's
/// split (axis -1 and the node in `nodes` when it runs whole).
struct Decision {
  llvm::StringRef kind;
  Layout result;
};

class Sharder {
  using Operation = mlir::Operation;
  using Value = mlir::Value;
  using LogicalResult = mlir::LogicalResult;
  using Location = mlir::Location;
  using OpBuilder = mlir::OpBuilder;
  using BlockArgument = mlir::BlockArgument;
  template <typename T> using ArrayRef = llvm::ArrayRef<T>;
  template <typename T> using SmallVector = llvm::SmallVector<T>;
  using StateWriteOp = graph::StateWriteOp;
  using MatMulOp = graph::MatMulOp;

public:
  Sharder(mlir::func::FuncOp f, const Mesh &mesh, Mode mode)
      : f(f), mesh(mesh), mode(mode) {}

  LogicalResult run();

  /// The split originals go, outputs and readers of their results take the
  /// pieces joined, whole states give way to their pieces, and the
  /// decision attributes go.
  void finishRewrite();

private:
  mlir::func::FuncOp f;
  Mesh mesh;
  Mode mode;
  llvm::DenseMap<Operation *, int64_t> stage;
  llvm::DenseMap<Operation *, int64_t> spread; // stages of a spread table
  llvm::DenseMap<Value, Layout> layouts; // pieces only when rewriting
  llvm::DenseMap<std::pair<Value, int64_t>, Value> gathered; // per node
  llvm::DenseMap<std::tuple<Value, int64_t, int64_t, int64_t>, Value> slices;
  llvm::DenseSet<Value> pinned;      // resident state and values read from it
  SmallVector<Operation *> split;    // originals replaced by pieces
  SmallVector<BlockArgument> splitStates; // whole states replaced by pieces
  llvm::SetVector<Operation *> bypassed; // whole ops cloned into pieces
  llvm::DenseMap<Operation *, ChipRange> experts; // an expert's chips

  /// The nodes an op may use: its stage's, its expert's among them, or
  /// those of all the stages a spread table spans.
  ChipRange groupOf(Operation *op) const;

  /// An input is written to the lowest node that reads it (the stage's
  /// first node when one whole op reads it).
  static int64_t nodeOfFirstUser(Value v);

  /// The stages lpx-partition-stages gave, and the experts' chips.
  LogicalResult readStages(ArrayRef<Operation *> ops);

  /// Whether `op`'s one result is small enough to replicate (at most
  /// mesh.replicateBytes).
  bool small(Operation *op) const;

  /// Whether `op` can run on every chip of `group`: small, its operands
  /// replicated or whole, none resident state, no state write.
  bool canReplicate(Operation *op, ChipRange group) const;

  /// A replicated layout over the chips of `group`.
  static Layout replicatedOn(ChipRange group);

  /// A copy of `op` on each of `on`'s nodes, each reading its node's copy
  /// of its replicated operands.
  void replicate(Operation *op, const Layout &on);

  /// The copy of replicated `v` on `node`, or, when it has none there, the
  /// copy of the chip at node's place in its group (so a stage's chips
  /// take the last stage's copies over parallel links).
  Value copyOn(Value v, int64_t node);

  /// Replicated copies, in order: makeSlice slices them as they are, and
  /// those nobody reads go once the rewrite is done.
  llvm::SetVector<Value> copies;

  /// The operand whose split drives `op` (its first split one, else its
  /// first replicated one) and its position; null when none is.
  std::pair<const Layout *, unsigned> driverOf(Operation *op) const;

  /// How `op` is split, the first of these that applies: a state write
  /// split like its update; a product with a constant weight and a whole
  /// activation (or another stage's or expert's pieces) cut by columns; a
  /// product whose activation is split along its reduction axis (rowSplit);
  /// the rule of its op family; else whole on its group's first node.
  Decision decide(Operation *op);

  /// Annotates `op` with `d`, and carries its result's split on.
  void record(Operation *op, const Decision &d);

  /// Splits (or places) `op` as its lpx_part.shard says.
  LogicalResult follow(Operation *op);

  /// A split value joined on the node of its first piece (once).
  Value gather(Value v) { return gatherOn(v, layouts[v].nodes.front()); }

  /// A split value joined on `node` (once per node): every other piece
  /// crosses one link, straight to the node that reads it.
  Value gatherOn(Value v, int64_t node);

  /// Rows [lo, hi) along `axis` of a whole value, for a piece on `node`: a
  /// constant is cut at compile time, an input is sliced where the piece
  /// is (so the host writes the piece there), a computed value where it is.
  Value sliceOf(Value v, int64_t axis, int64_t lo, int64_t hi, int64_t node);

  Value makeSlice(Value v, int64_t axis, int64_t lo, int64_t hi,
                  int64_t node);

  /// A piece of a pointwise op's result that only a split op reads: the
  /// op itself runs piecewise on pieces of its operands (so a cast of the
  /// KV cache input reads the pieces the host writes to each node).
  Value slicePointwise(Operation *def, int64_t axis, int64_t lo, int64_t hi,
                       int64_t node);

  /// Runs `op` whole on `node`, its split operands gathered there.
  void placeWhole(Operation *op, int64_t node);

  /// Resident state written whole (its update is not split, so stateSplit
  /// left it): what is computed from it stays with it rather than moving
  /// the cache over links every step.
  void pinWhole(Operation *op);

  /// Reads operand `v` of an op split like `l`, whose own axis for the
  /// split is `axis` (-1 or a size-1 dim: it is broadcast, read whole).
  std::optional<Operand> operandFor(Value v, int64_t axis, const Layout &l);

  /// The rule of `op`'s family for operand `which` split like `driver`:
  /// how each operand is read, and the result's split; false when none.
  bool pieceRule(Operation *op, unsigned which, const Layout &driver,
                 SmallVector<Operand> &reads, Layout &result);

  /// One op per piece of `driver`, reading its operands as `reads` says.
  void splitPieces(Operation *op, const Layout &driver,
                   ArrayRef<Operand> reads, Layout result);

  /// Column blocks [lo, hi) of an n-column product `op` over at most
  /// `most` parts: on head boundaries when its result is reshaped into
  /// heads. False when fewer than 2 parts.
  static bool columnBlocks(Operation *op, int64_t n, int64_t most,
                           SmallVector<int64_t> &lo, SmallVector<int64_t> &hi);

  /// A state write whose update is split along a non-batch axis other
  /// than the written one (a KV cache entry split by KV head): the state is
  /// split the same way (splitStateWrite).
  std::optional<Layout> stateSplit(StateWriteOp write) const;

  /// Each piece of the state an argument of its own (resident state on
  /// its node, with its offsets in the whole state) that its node writes
  /// in place, so readers take the pieces and the cache never crosses links.
  void splitStateWrite(StateWriteOp write);

  /// A MatMul (or embedding Gather) with a constant weight: one column
  /// block of the weight per node of `group`, on head boundaries when the
  /// result is reshaped into heads (a table spread over several stages,
  /// one block per node of all of them); none when it cannot be cut.
  std::optional<Layout> columnsOf(Operation *op, ChipRange group) const;

  /// Cuts `op` by the column blocks of `cut` (columnsOf). `activationOn`
  /// gives the activation on a node (default: the whole value where it is).
  void seedColumns(Operation *op, Layout cut,
                   llvm::function_ref<Value(int64_t)> activationOn,
                   bool replicated = false);

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
  /// With fewer column blocks than pieces, the partials are added by a
  /// tree instead. None when `op` is no such product.
  std::optional<Decision> rowSplit(Operation *op, unsigned which,
                                   const Layout &l) const;

  /// The partial products of `op` by rows of its weight, one per piece of
  /// its activation `l`, summed into the column blocks of `result` (a
  /// reduce-scatter) or by a tree into one whole value (`tree`).
  void sumPartials(MatMulOp op, const Layout &activation, Layout result,
                   bool tree);

  /// Adds `terms` pairwise in log2 rounds, each add on the node of its
  /// left term (`nodes[i]`); the sum ends on nodes[0].
  static Value treeSum(OpBuilder &b, Location loc, SmallVector<Value> terms,
                       ArrayRef<int64_t> nodes);
};

} // namespace lpx::shard

#endif
