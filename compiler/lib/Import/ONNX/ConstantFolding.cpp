//===- ConstantFolding.cpp - Nodes evaluated at compile time --------------===//
//
// Exporters compute reshape targets, masks and trip counts with small
// subgraphs (Shape -> Cast -> Gather -> Concat -> Reshape, Range's
// expansion, Equal/Where on shapes). Once every input shape is static those
// are compile-time constants: a node whose inputs are all constants is
// imported as usual and its lpx_graph ops are then folded by their own fold()
// methods (GraphFolds.cpp); an output that folds becomes a compile-time
// constant, which later nodes read as a shape, axes or a tensor. No op
// semantics live here: the importer says what the node means, the op says
// how it evaluates.
//
// When an operand that must be constant is not, runtimeSource explains why:
// the first node on the operand's chain that is evaluated at run time, and
// whether pinning a graph input's value (--const-input) would fold it.
//
//===----------------------------------------------------------------------===//
#include "ConstantFolding.h"

#include "Tensors.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace lpx::onnximport {

bool allInputsConstant(const NodeContext &n) {
  bool any = false;
  for (int i = 0; i < n.node.input_size(); ++i) {
    if (!n.hasInput(i))
      continue;
    if (!n.constTensor(i))
      return false;
    any = true;
  }
  return any;
}

/// Folds each op of [first, last) whose operands are all constants, in
/// order, so chains fold through; records what replaced each folded result.
static void foldOps(Block::iterator first, Block::iterator last,
                    llvm::DenseMap<Value, Value> &replaced) {
  for (Operation &op : llvm::make_early_inc_range(llvm::make_range(first, last))) {
    if (llvm::isa<graph::ConstantOp>(op) || op.getNumResults() != 1)
      continue;
    SmallVector<Attribute> operands;
    for (Value v : op.getOperands()) {
      Attribute a;
      if (!matchPattern(v, m_Constant(&a)))
        break;
      operands.push_back(a);
    }
    SmallVector<OpFoldResult> results;
    if (operands.size() != op.getNumOperands() ||
        failed(op.fold(operands, results)) || results.size() != 1)
      continue;
    Value folded = llvm::dyn_cast_if_present<Value>(results[0]);
    if (!folded) {
      OpBuilder b(&op);
      Operation *c = op.getDialect()->materializeConstant(
          b, cast<Attribute>(results[0]), op.getResult(0).getType(),
          op.getLoc());
      if (!c)
        continue;
      folded = c->getResult(0);
    }
    op.getResult(0).replaceAllUsesWith(folded);
    replaced[op.getResult(0)] = folded;
    op.erase();
  }
}

LogicalResult importFolding(NodeContext &n, OpImporter importer) {
  OpBuilder &b = n.builder();
  Block *block = b.getInsertionBlock();
  Block::iterator ip = b.getInsertionPoint();
  Operation *before = ip == block->begin() ? nullptr : &*std::prev(ip);
  if (failed(importer(n)))
    return failure();
  Block::iterator first =
      before ? std::next(before->getIterator()) : block->begin();
  llvm::DenseMap<Value, Value> replaced;
  foldOps(first, b.getInsertionPoint(), replaced);
  for (int i = 0; i < n.node.output_size(); ++i) {
    const std::string &out = n.node.output(i);
    if (out.empty() || !n.st.values.count(out))
      continue;
    // The bound value may have been folded away (the map never chains: a
    // replacement is a constant or an earlier value, never folded later).
    Value v = replaced.lookup(n.st.values[out]);
    if (v)
      n.st.values[out] = v;
    else
      v = n.st.values[out];
    auto c = v.getDefiningOp<graph::ConstantOp>();
    auto dense = c ? dyn_cast<DenseElementsAttr>(c.getValue()) : nullptr;
    if (!dense)
      continue;
    auto t = toTensorProto(dense);
    if (!t) {
      llvm::consumeError(t.takeError());
      continue;
    }
    // Now a compile-time constant: materialised again only where an op
    // takes it as a tensor operand.
    n.st.values.erase(out);
    if (c->use_empty())
      c->erase();
    n.setConstOutput(unsigned(i), std::move(*t));
  }
  return success();
}

void eraseUnusedConstants(Block &body) {
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
    if (llvm::isa<graph::ConstantOp>(op) && op.use_empty())
      op.erase();
}

std::string runtimeSource(const GraphState &st, llvm::StringRef value) {
  std::string cur = value.str();
  const GraphState::Producer *p = nullptr;
  for (unsigned guard = 0; guard < 100000; ++guard) {
    auto it = st.producers.find(cur);
    if (it == st.producers.end())
      break;
    p = &it->second;
    std::string next;
    for (const std::string &in : p->node->input())
      if (!in.empty() && !st.constants.contains(in)) {
        next = in;
        break;
      }
    if (next.empty()) // every input is constant: this node itself is not
      return "shape computed at run time from node '" + p->name + "' (" +
             p->node->op_type() +
             "), which is not evaluated at compile time; pinning an input "
             "would not fold it";
    cur = next;
  }
  std::string pin = "; pinning its value with --const-input " + cur +
                    "=file.pb would fold it";
  if (!p)
    return "value of graph input '" + cur + "' known only at run time" + pin;
  return "shape computed at run time from node '" + p->name + "' (" +
         p->node->op_type() + "), which reads graph input '" + cur + "'" + pin;
}

} // namespace lpx::onnximport
