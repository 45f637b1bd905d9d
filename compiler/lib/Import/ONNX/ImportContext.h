//===- ImportContext.h - State shared by the op importers -------*- C++ -*-===//
//
// GraphState holds what the driver knows about the ONNX values while it walks
// the nodes; NodeContext is one node's view of it, with the helpers every op
// importer needs (operands, compile-time constant operands, attributes,
// errors). Op importers only see NodeContext.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_LIB_IMPORT_ONNX_IMPORTCONTEXT_H
#define LPX_LIB_IMPORT_ONNX_IMPORTCONTEXT_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include "onnx/onnx_pb.h"

#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace lpx::onnximport {

struct GraphState {
  GraphState(mlir::MLIRContext &ctx, int64_t opset)
      : ctx(ctx), builder(&ctx), opset(opset) {}
  GraphState(const GraphState &) = delete;
  /// Frees the blobs not adopted (an import that failed).
  ~GraphState();

  mlir::MLIRContext &ctx;
  mlir::OpBuilder builder;
  int64_t opset;
  /// ONNX name -> MLIR value: arguments, op results, materialised constants.
  llvm::StringMap<mlir::Value> values;
  /// ONNX names whose value is known at compile time (initializers, folded
  /// inputs, Constant outputs). Materialised as lpx_graph.constant only when
  /// an op takes them as a tensor operand, so shape operands cost nothing.
  llvm::StringMap<const onnx::TensorProto *> constants;
  llvm::StringMap<mlir::LocationAttr> constantLocs;
  std::deque<onnx::TensorProto> ownedConstants;
  /// Renamed copies of Loop and Scan bodies, one per unrolled iteration:
  /// constants and nested branches imported from them point into these.
  std::deque<onnx::GraphProto> ownedGraphs;
  /// Outputs of nodes that failed to import: their users are skipped
  /// without another error, so each problem is reported once.
  llvm::StringSet<> poisoned;
  /// The node that produces each ONNX value (graph inputs and initializers
  /// have none), to name where a run-time shape comes from.
  struct Producer {
    const onnx::NodeProto *node;
    std::string name;
  };
  llvm::StringMap<Producer> producers;
  /// Types ONNX shape inference found, to cross-check the importer's own.
  llvm::StringMap<const onnx::TypeProto *> onnxTypes;
  unsigned errors = 0;
  /// Imports one node of a subgraph into the current function (an If whose
  /// condition is known inlines its branch); set by the graph walker.
  std::function<void(const onnx::NodeProto &, const std::string &name)>
      importNode;

  /// The blob-held constant made from each TensorProto. Those in `viewing`
  /// view the proto's raw_data while the import runs (other importers may
  /// still read the proto); adoptBlobs then moves the bytes into the blobs,
  /// so the data is never copied.
  llvm::MapVector<const onnx::TensorProto *, mlir::ElementsAttr> blobs;
  llvm::DenseSet<const onnx::TensorProto *> viewing;

  /// The value of `name`, materialising a constant at the insertion point.
  mlir::FailureOr<mlir::Value> lookup(llvm::StringRef name);
  /// Gives each viewing blob that a constant under `root` still holds its
  /// proto's bytes (moved) and frees the blobs no constant holds; the
  /// import's last step.
  void adoptBlobs(mlir::Operation *root);
};

class NodeContext {
public:
  NodeContext(GraphState &st, const onnx::NodeProto &node, std::string name)
      : st(st), node(node), name(std::move(name)),
        loc(mlir::NameLoc::get(mlir::StringAttr::get(&st.ctx, this->name))) {}

  GraphState &st;
  const onnx::NodeProto &node;
  std::string name;
  mlir::Location loc;

  int64_t opset() const { return st.opset; }
  mlir::OpBuilder &builder() { return st.builder; }
  mlir::MLIRContext *ctx() { return &st.ctx; }
  /// Builds an op at this node's location. An op that infers its result
  /// type (InferTypeOpInterface) is built without one and gives a
  /// FailureOr<Value>: its shape rule's reason for rejecting the operands
  /// becomes this node's one-line error (the inferring builder would abort).
  /// Any other op, or one given its result type first, is built as is.
  template <typename OpT, typename... Args> auto create(Args &&...args) {
    if constexpr (infersType<OpT, Args...>())
      return createInferred<OpT>(std::forward<Args>(args)...);
    else
      return st.builder.create<OpT>(loc, std::forward<Args>(args)...);
  }

private:
  template <typename OpT, typename First = void, typename... Rest>
  static constexpr bool infersType() {
    if constexpr (!OpT::template hasTrait<
                      mlir::InferTypeOpInterface::Trait>())
      return false;
    else
      return !std::is_convertible_v<std::decay_t<First>, mlir::Type>;
  }

  template <typename OpT, typename... Args>
  mlir::FailureOr<mlir::Value> createInferred(Args &&...args) {
    mlir::OperationState state(loc, OpT::getOperationName());
    OpT::build(st.builder, state, mlir::Type(), std::forward<Args>(args)...);
    state.types.clear();
    if (failed(withReason([&] {
          return OpT::inferReturnTypes(
              &st.ctx, loc, state.operands,
              state.attributes.getDictionary(&st.ctx),
              state.getRawProperties(), state.regions, state.types);
        })))
      return mlir::failure();
    return st.builder.create(state)->getResult(0);
  }

public:
  /// Runs `rule` (a shape rule that reports why it fails as a diagnostic)
  /// and reports its failure as this node's, with the rule's reason.
  mlir::LogicalResult
  withReason(llvm::function_ref<mlir::LogicalResult()> rule);

  /// Reports `reason` for this node ("node 'N' (Op): reason"); returns
  /// failure so importers can `return n.fail(...)`.
  mlir::LogicalResult fail(const llvm::Twine &reason);

  /// Input `i` is present (ONNX marks omitted optional inputs by "").
  bool hasInput(unsigned i) const {
    return int(i) < node.input_size() && !node.input(i).empty();
  }
  /// Tensor operand `i`; must be present.
  mlir::FailureOr<mlir::Value> input(unsigned i);
  /// Tensor operand `i`, which must have rank `minRank` or more.
  mlir::FailureOr<mlir::Value> inputOfRank(unsigned i, int64_t minRank) {
    auto v = input(i);
    if (failed(v))
      return mlir::failure();
    if (typeOf(*v).getRank() < minRank)
      return fail("input must have rank " + llvm::Twine(minRank) + " or more");
    return v;
  }
  /// Optional tensor operand `i`: a null Value when the node omits it.
  mlir::FailureOr<mlir::Value> optionalInput(unsigned i) {
    return hasInput(i) ? input(i) : mlir::FailureOr<mlir::Value>(mlir::Value());
  }
  /// Every input that is present (optional ones may be empty names), in
  /// order; fails when there is none.
  mlir::FailureOr<llvm::SmallVector<mlir::Value>> presentInputs();
  /// Its type (ranked: the importer only makes ranked tensors).
  mlir::RankedTensorType typeOf(mlir::Value v) {
    return mlir::cast<mlir::RankedTensorType>(v.getType());
  }
  /// Input `i` as compile-time integers; an error when it is not a constant.
  mlir::FailureOr<std::vector<int64_t>> constInts(unsigned i);
  /// The error for input `i`, which must be a compile-time constant and is
  /// not: names where its value comes from at run time.
  mlir::LogicalResult failNotConstant(unsigned i);
  /// Input `i`'s TensorProto when it is a compile-time constant.
  const onnx::TensorProto *constTensor(unsigned i) const;
  /// Input `i`, a one-element numeric constant, as a double.
  mlir::FailureOr<double> constNumber(unsigned i);
  /// Input `i` as doubles (floating-point data); empty when the input is
  /// absent, an error when it is present but not a compile-time constant.
  mlir::FailureOr<std::vector<double>> constDoubles(unsigned i);
  /// An lpx_graph.constant of `shape` holding `values` rounded to the float
  /// type `elt` (to nearest, ties to even).
  mlir::Value floatConstant(llvm::ArrayRef<int64_t> shape, mlir::Type elt,
                            llvm::ArrayRef<double> values);

  const onnx::AttributeProto *attr(llvm::StringRef attrName) const;
  int64_t intAttr(llvm::StringRef attrName, int64_t dflt) const;
  float floatAttr(llvm::StringRef attrName, float dflt) const;
  std::optional<std::vector<int64_t>> intsAttr(llvm::StringRef attrName) const;

  /// Normalises a possibly negative axis for `rank`; reports out of range.
  mlir::FailureOr<int64_t> axis(int64_t a, int64_t rank, llvm::StringRef what);
  /// Every axis normalized, sorted; a repeated axis is an error.
  mlir::FailureOr<std::vector<int64_t>> axes(std::vector<int64_t> list,
                                             int64_t rank);

  /// Binds ONNX output `i` (skipped when the output name is empty).
  void setOutput(unsigned i, mlir::Value v);
  /// Binds output `i` to a built value, or passes on the failure to build
  /// it (already reported): `return n.setOutput(0, n.create<...>(...));`.
  mlir::LogicalResult setOutput(unsigned i, mlir::FailureOr<mlir::Value> v);

  /// Ranked tensor type of `shape` and `elt` (results are always static).
  mlir::RankedTensorType tensorOf(llvm::ArrayRef<int64_t> shape,
                                  mlir::Type elt) {
    return mlir::RankedTensorType::get(shape, elt);
  }
  /// lpx_graph.reshape of `v` to `shape` (skipped when it already has it).
  mlir::Value reshape(mlir::Value v, llvm::ArrayRef<int64_t> shape);
  /// A fresh copy of `v` (a reshape to its own type), for ops that pass a
  /// value through: an output must not be another name's value.
  mlir::Value copy(mlir::Value v);
  /// A numeric attribute (INT or FLOAT) as a double, or `dflt`.
  double numberAttr(llvm::StringRef attrName, double dflt) const;
  /// Binds output `i` to a compile-time constant tensor (owned by the graph
  /// state), so later nodes can read it as a shape, axes or a tensor.
  void setConstOutput(unsigned i, onnx::TensorProto t);
  /// Binds output `i` to a constant int64 tensor of `shape` and `values`.
  void setConstInts(unsigned i, llvm::ArrayRef<int64_t> shape,
                    llvm::ArrayRef<int64_t> values);
};

/// Builds ops for an importer written as expressions (the recurrent cells,
/// Einsum's contractions), whose operands it made itself: after the first op
/// whose shape rule rejects its operands (reported as the node's error) it
/// builds nothing more and hands back `fallback`, so the expression runs to
/// its end; `rejected()` then tells the importer to fail the node.
class ExpressionBuilder {
public:
  explicit ExpressionBuilder(NodeContext &n) : n(n) {}
  template <typename OpT, typename... Args>
  mlir::Value build(mlir::Value fallback, Args &&...args) {
    if (anyRejected)
      return fallback;
    mlir::FailureOr<mlir::Value> r = n.create<OpT>(std::forward<Args>(args)...);
    anyRejected = mlir::failed(r);
    return anyRejected ? fallback : *r;
  }
  bool rejected() const { return anyRejected; }

private:
  NodeContext &n;
  bool anyRejected = false;
};

/// `t` as MLIR prints it ("tensor<2x3xf32>"), for messages.
std::string typeString(mlir::Type t);

/// One importer per ONNX op family.
using OpImporter = mlir::LogicalResult (*)(NodeContext &);
/// The importer for a default-domain op type, or null.
OpImporter findOpImporter(llvm::StringRef opType);
/// Every op type with an importer that can compile it, sorted (ops whose
/// importer only reports a reason are left out).
std::vector<std::string> opImporterNames();

} // namespace lpx::onnximport

#endif
