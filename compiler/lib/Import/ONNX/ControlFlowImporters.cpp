//===- ControlFlowImporters.cpp - If with a condition known at compile time ===//
//
// The chip runs one static instruction stream: there is no branch at run
// time. An If whose condition is a compile-time constant (an initializer, a
// Constant, a folded subgraph or an input pinned with --const-input) is
// resolved here by importing the taken branch's nodes in place; any other If
// is data-dependent control flow and is reported as such. The If node itself
// then leaves no instruction, which the coverage report shows as folded.
//
//===----------------------------------------------------------------------===//
#include "OpImporters.h"
#include "Tensors.h"

using namespace mlir;

namespace lpx::onnximport {
namespace {

LogicalResult importIf(NodeContext &n) {
  const onnx::TensorProto *cond = n.constTensor(0);
  if (!cond)
    return n.fail("data-dependent control flow: the condition '" +
                  (n.hasInput(0) ? n.node.input(0) : std::string()) +
                  "' is computed at run time (an If is resolved only when "
                  "its condition is a compile-time constant; --const-input "
                  "pins a graph input)");
  auto bytes = decodeTensor(*cond);
  if (!bytes)
    return n.fail("the condition: " + llvm::toString(bytes.takeError()));
  auto values = toInt64s(*bytes);
  if (!values) {
    llvm::consumeError(values.takeError());
    return n.fail("the condition must be a boolean or integer");
  }
  if (values->size() != 1)
    return n.fail("the condition must be a single element");
  const char *branch = (*values)[0] ? "then_branch" : "else_branch";
  const onnx::AttributeProto *a = n.attr(branch);
  if (!a || !a->has_g())
    return n.fail(llvm::Twine("the If has no ") + branch);
  const onnx::GraphProto &g = a->g();
  if (g.output_size() != n.node.output_size())
    return n.fail(llvm::Twine(branch) + " has " + llvm::Twine(g.output_size()) +
                  " outputs, the If " + llvm::Twine(n.node.output_size()));

  GraphState &st = n.st;
  for (const auto &t : g.initializer()) {
    st.constants[t.name()] = &t;
    st.constantLocs[t.name()] = n.loc;
  }
  const unsigned before = st.errors;
  for (int i = 0; i < g.node_size(); ++i) {
    const onnx::NodeProto &node = g.node(i);
    std::string name = node.name().empty()
                           ? n.name + "/" + branch + "/" + node.op_type() +
                                 "_" + std::to_string(i)
                           : node.name();
    st.importNode(node, name);
  }
  if (st.errors != before)
    return failure(); // the branch's nodes reported their own problems

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

} // namespace

void addControlFlowImporters(llvm::StringMap<OpImporter> &table) {
  table["If"] = importIf;
}

} // namespace lpx::onnximport
