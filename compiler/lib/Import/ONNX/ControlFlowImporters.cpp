//===- ControlFlowImporters.cpp - If, Loop and Scan resolved at compile time ===//
//
// The chip runs one static instruction stream: there is no branch at run
// time. An If whose condition is a compile-time constant (an initializer, a
// Constant, a folded subgraph or an input pinned with --const-input) is
// resolved here by importing the taken branch's nodes in place (the If node
// itself then leaves no instruction, which the coverage report shows as
// folded); any other If is if-converted where it can be (IfConversion.cpp).
//
// A Loop with a compile-time trip count and condition, whose body's
// condition output is a compile-time constant in every iteration, and a Scan
// (whose sequence length is static) are unrolled the same way: each
// iteration imports a copy of the body whose values are renamed
// ("<node>/iter<k>/<name>"), with the iteration number bound as a constant
// and the loop-carried values bound to the previous iteration's results.
// Scan outputs are stacked with reshape + concat (LoopScanImporters.cpp).
//
// Ops whose output shape depends on input values (NonZero, Unique,
// NonMaxSuppression, Compress) cannot have a static schedule; they are
// registered only to report that precisely.
//
//===----------------------------------------------------------------------===//
#include "ControlFlow.h"
#include "Tensors.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;

namespace lpx::onnximport {

std::optional<int64_t> scalarValue(const onnx::TensorProto *t) {
  if (!t)
    return std::nullopt;
  auto bytes = decodeTensor(*t);
  if (!bytes) {
    llvm::consumeError(bytes.takeError());
    return std::nullopt;
  }
  auto v = toInt64s(*bytes);
  if (!v) {
    llvm::consumeError(v.takeError());
    return std::nullopt;
  }
  if (v->size() != 1)
    return std::nullopt;
  return (*v)[0];
}

FailureOr<const onnx::GraphProto *>
graphAttr(NodeContext &n, llvm::StringRef name, const llvm::Twine &missing) {
  const onnx::AttributeProto *a = n.attr(name);
  if (!a || !a->has_g())
    return n.fail(missing);
  return &a->g();
}

LogicalResult importSubgraph(NodeContext &n, const onnx::GraphProto &g,
                             const std::string &prefix) {
  GraphState &st = n.st;
  for (const auto &t : g.initializer()) {
    st.constants[t.name()] = &t;
    st.constantLocs[t.name()] = n.loc;
  }
  const unsigned before = st.errors;
  for (int i = 0; i < g.node_size(); ++i) {
    const onnx::NodeProto &node = g.node(i);
    st.importNode(node, node.name().empty() ? prefix + node.op_type() + "_" +
                                                  std::to_string(i)
                                            : node.name());
  }
  return success(st.errors == before);
}

namespace {

/// The If's `branch` subgraph, with as many outputs as the If has.
FailureOr<const onnx::GraphProto *> branchGraph(NodeContext &n,
                                                const char *branch) {
  auto g = graphAttr(n, branch, llvm::Twine("the If has no ") + branch);
  if (succeeded(g) && (*g)->output_size() != n.node.output_size())
    return n.fail(llvm::Twine(branch) + " has " +
                  llvm::Twine((*g)->output_size()) + " outputs, the If " +
                  llvm::Twine(n.node.output_size()));
  return g;
}

LogicalResult importIf(NodeContext &n) {
  if (!n.hasInput(0))
    return n.fail("the If has no condition");
  const onnx::TensorProto *cond = n.constTensor(0);
  if (!cond) {
    auto thenG = branchGraph(n, "then_branch");
    if (failed(thenG))
      return failure();
    auto elseG = branchGraph(n, "else_branch");
    if (failed(elseG))
      return failure();
    return ifConvert(n, **thenG, **elseG);
  }
  std::optional<int64_t> value = scalarValue(cond);
  if (!value)
    return n.fail("the condition must be a single boolean or integer");
  const char *branch = *value ? "then_branch" : "else_branch";
  auto taken = branchGraph(n, branch);
  if (failed(taken))
    return failure();
  const onnx::GraphProto &g = **taken;

  GraphState &st = n.st;
  if (failed(importSubgraph(n, g, n.name + "/" + branch + "/")))
    return failure();

  for (int i = 0; i < g.output_size(); ++i) {
    const std::string &out = g.output(i).name();
    if (const onnx::TensorProto *t = st.constants.lookup(out)) {
      n.setConstOutput(i, *t);
      continue;
    }
    Value v = st.values.lookup(out);
    if (!v)
      return n.fail(llvm::Twine(branch) + " output '" + out +
                    "' has no value");
    // The If's output is a name of its own, not an alias of the branch's.
    n.setOutput(i, n.copy(v));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Ops whose output shape depends on input values
//===----------------------------------------------------------------------===//

/// What the size of each such op's output depends on.
const llvm::StringMap<const char *> &dataDependentShapes() {
  static const llvm::StringMap<const char *> why = {
      {"NonZero", "the number of nonzero elements NonZero returns depends on "
                  "the input values"},
      {"Unique", "the number of distinct values Unique returns depends on the "
                 "input values"},
      {"NonMaxSuppression", "the number of boxes NonMaxSuppression keeps "
                            "depends on the scores and overlaps"},
      {"Compress", "the number of slices Compress keeps depends on the "
                   "condition's values"},
  };
  return why;
}

LogicalResult importDataDependentShape(NodeContext &n) {
  return n.fail(llvm::Twine("data-dependent shape: ") +
                dataDependentShapes().lookup(n.node.op_type()));
}

/// A Loop's or Scan's importer, given the node's body.
template <LogicalResult (*Unroll)(NodeContext &, const onnx::GraphProto &)>
LogicalResult withBody(NodeContext &n) {
  auto body = graphAttr(n, "body", "the " + n.node.op_type() + " has no body");
  if (failed(body))
    return failure();
  return Unroll(n, **body);
}

} // namespace

bool reportsOnly(llvm::StringRef opType) {
  return dataDependentShapes().count(opType);
}

void addControlFlowImporters(llvm::StringMap<OpImporter> &table) {
  table["If"] = importIf;
  table["Loop"] = withBody<importLoop>;
  table["Scan"] = withBody<importScan>;
  for (const auto &op : dataDependentShapes())
    table[op.getKey()] = importDataDependentShape;
}

} // namespace lpx::onnximport
