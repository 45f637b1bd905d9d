//===- IfConversion.cpp - An If on a run-time condition as a select -------===//
//
// The chip runs one static instruction stream, so an If whose condition is
// only known at run time cannot branch. When both branches' outputs have the
// same static types and neither branch has an effect beyond its outputs, the
// If is if-converted: both branches are imported in place (their nodes named
// "<If>/then_branch/..." and "<If>/else_branch/...") and each output is a
// Where of the condition between the two. The program then pays for both
// branches' work, which a remark says. Otherwise the If stays data-dependent
// control flow, with the reason.
//
//===----------------------------------------------------------------------===//
#include "ControlFlow.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace lpx::onnximport {
namespace {

/// An op whose result is not a function of its inputs alone: computing it in
/// the branch not taken would change what the model computes (it draws from
/// the generator state the taken branch would use).
bool drawsRandomNumbers(llvm::StringRef op) {
  return llvm::StringSwitch<bool>(op)
      .Cases("RandomNormal", "RandomNormalLike", "RandomUniform",
             "RandomUniformLike", true)
      .Cases("Bernoulli", "Multinomial", true)
      .Default(false);
}

/// The first node of `g` (or of a subgraph inside it) with an effect, or null.
const onnx::NodeProto *firstEffect(const onnx::GraphProto &g) {
  for (const onnx::NodeProto &node : g.node()) {
    if (node.domain().empty() && drawsRandomNumbers(node.op_type()))
      return &node;
    for (const onnx::AttributeProto &a : node.attribute()) {
      if (a.has_g())
        if (const onnx::NodeProto *inner = firstEffect(a.g()))
          return inner;
      for (const onnx::GraphProto &sub : a.graphs())
        if (const onnx::NodeProto *inner = firstEffect(sub))
          return inner;
    }
  }
  return nullptr;
}

/// Imports `g` in place and gives its outputs' values.
FailureOr<SmallVector<Value>> importBranch(NodeContext &n,
                                           const onnx::GraphProto &g,
                                           const char *branch) {
  if (failed(importSubgraph(n, g, n.name + "/" + branch + "/")))
    return failure();
  SmallVector<Value> outs;
  for (const onnx::ValueInfoProto &out : g.output()) {
    FailureOr<Value> v = n.st.lookup(out.name());
    if (failed(v))
      return n.fail(llvm::Twine(branch) + " output '" + out.name() +
                    "' has no value");
    outs.push_back(*v);
  }
  return outs;
}

} // namespace

LogicalResult ifConvert(NodeContext &n, const onnx::GraphProto &thenG,
                        const onnx::GraphProto &elseG) {
  const std::string condName = n.node.input(0);
  const std::string notPortable =
      "data-dependent control flow: the condition '" + condName +
      "' is computed at run time and ";
  for (const onnx::GraphProto *g : {&thenG, &elseG})
    if (const onnx::NodeProto *effect = firstEffect(*g))
      return n.fail(notPortable + "a branch draws random numbers (" +
                    effect->op_type() +
                    "), so both branches cannot be computed and one selected");

  FailureOr<Value> cond = n.input(0);
  if (failed(cond))
    return failure();
  RankedTensorType condType = n.typeOf(*cond);
  if (!condType.getElementType().isInteger(1) ||
      condType.getNumElements() != 1)
    return n.fail("the condition must be a single boolean, not " +
                  typeString(condType));

  FailureOr<SmallVector<Value>> thenOuts =
      importBranch(n, thenG, "then_branch");
  if (failed(thenOuts))
    return failure();
  FailureOr<SmallVector<Value>> elseOuts =
      importBranch(n, elseG, "else_branch");
  if (failed(elseOuts))
    return failure();
  for (unsigned i = 0; i < thenOuts->size(); ++i) {
    Type t = (*thenOuts)[i].getType(), e = (*elseOuts)[i].getType();
    if (t != e)
      return n.fail(notPortable + "the branches' output " + llvm::Twine(i) +
                    " differs (then_branch " + typeString(t) + ", else_branch " +
                    typeString(e) +
                    "): both branches are computed and one selected only "
                    "when their outputs have the same static types");
  }

  Value scalarCond = n.reshape(*cond, {});
  for (unsigned i = 0; i < thenOuts->size(); ++i)
    if (failed(n.setOutput(i, n.create<graph::WhereOp>(
                                  scalarCond, (*thenOuts)[i], (*elseOuts)[i]))))
      return failure();
  emitRemark(n.loc) << "if-converted '" << n.name << "': the condition '"
                    << condName
                    << "' is computed at run time, so both branches are "
                       "computed and each output selected by a Where (the "
                       "program pays for both branches' work)";
  return success();
}

} // namespace lpx::onnximport
