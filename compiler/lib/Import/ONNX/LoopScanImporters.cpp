//===- LoopScanImporters.cpp - Loop and Scan unrolled at compile time -----===//
//
// See ControlFlowImporters.cpp: each iteration imports a renamed copy of the
// body, with the iteration number bound as a constant and the loop-carried
// values bound to the previous iteration's results.
//
//===----------------------------------------------------------------------===//
#include "ControlFlow.h"
#include "Tensors.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;

namespace lpx::onnximport {
namespace {

//===----------------------------------------------------------------------===//
// Unrolling Loop and Scan bodies
//===----------------------------------------------------------------------===//

/// Beyond this many iterations (or imported body nodes in all) an unrolled
/// loop would swamp the instruction stream; such a loop is reported.
constexpr int64_t kMaxIterations = 4096;
constexpr int64_t kMaxUnrolledNodes = 65536;

/// A value flowing through the unrolled loop: an ONNX name already bound in
/// the graph state (a value or a constant), or a fresh MLIR value.
struct Item {
  std::string name;
  Value v;
};

void collectDefs(const onnx::GraphProto &g, llvm::StringSet<> &defs) {
  for (const auto &i : g.input())
    defs.insert(i.name());
  for (const auto &t : g.initializer())
    defs.insert(t.name());
  for (const auto &node : g.node()) {
    for (const auto &o : node.output())
      if (!o.empty())
        defs.insert(o);
    for (const auto &a : node.attribute()) {
      if (a.has_g())
        collectDefs(a.g(), defs);
      for (const auto &sg : a.graphs())
        collectDefs(sg, defs);
    }
  }
}

/// Prefixes every name in `defs` (names the body defines, nested graphs
/// included); names from the enclosing scope keep theirs.
void renameGraph(onnx::GraphProto &g, const llvm::StringSet<> &defs,
                 const std::string &prefix) {
  auto ren = [&](std::string *s) {
    if (!s->empty() && defs.contains(*s))
      *s = prefix + *s;
  };
  for (auto &i : *g.mutable_input())
    ren(i.mutable_name());
  for (auto &o : *g.mutable_output())
    ren(o.mutable_name());
  for (auto &t : *g.mutable_initializer())
    ren(t.mutable_name());
  for (auto &vi : *g.mutable_value_info())
    ren(vi.mutable_name());
  for (auto &node : *g.mutable_node()) {
    for (auto &s : *node.mutable_input())
      ren(&s);
    for (auto &s : *node.mutable_output())
      ren(&s);
    if (!node.name().empty())
      node.set_name(prefix + node.name());
    for (auto &a : *node.mutable_attribute()) {
      if (a.has_g())
        renameGraph(*a.mutable_g(), defs, prefix);
      for (auto &sg : *a.mutable_graphs())
        renameGraph(sg, defs, prefix);
    }
  }
}

void bind(GraphState &st, const std::string &to, const Item &from) {
  if (from.v) {
    st.values[to] = from.v;
    return;
  }
  if (const onnx::TensorProto *c = st.constants.lookup(from.name)) {
    st.constants[to] = c;
    st.constantLocs[to] = st.constantLocs.lookup(from.name);
    return;
  }
  st.values[to] = st.values.lookup(from.name);
}

FailureOr<Value> valueOf(NodeContext &n, const Item &it) {
  if (it.v)
    return it.v;
  return n.st.lookup(it.name);
}

/// Imports iteration `iter` of `body` with its inputs bound to `inputs`;
/// returns its outputs. The body's nodes report their own problems.
FailureOr<SmallVector<Item>> importBodyOnce(NodeContext &n,
                                            const onnx::GraphProto &body,
                                            ArrayRef<Item> inputs,
                                            int64_t iter) {
  GraphState &st = n.st;
  const std::string prefix = n.name + "/iter" + std::to_string(iter) + "/";
  llvm::StringSet<> defs;
  collectDefs(body, defs);
  onnx::GraphProto &g = st.ownedGraphs.emplace_back(body);
  renameGraph(g, defs, prefix);
  for (int i = 0; i < g.input_size(); ++i)
    bind(st, g.input(i).name(), inputs[i]);
  if (failed(importSubgraph(n, g, prefix)))
    return failure();
  SmallVector<Item> outs;
  for (const auto &o : g.output()) {
    if (st.poisoned.contains(o.name()) ||
        (!st.constants.contains(o.name()) && !st.values.contains(o.name()))) {
      (void)n.fail("body output '" + o.name() + "' has no value");
      return failure();
    }
    outs.push_back({o.name(), Value()});
  }
  return outs;
}

/// Binds output `i` of the node to a loop-carried item: a constant stays
/// one, a value gets a name of its own.
LogicalResult setItemOutput(NodeContext &n, unsigned i, const Item &it) {
  if (!it.v)
    if (const onnx::TensorProto *c = n.st.constants.lookup(it.name)) {
      n.setConstOutput(i, *c);
      return success();
    }
  auto v = valueOf(n, it);
  if (failed(v))
    return failure();
  n.setOutput(i, n.copy(*v));
  return success();
}

/// Element `index` of `x` along `axis`, with that axis removed.
Value takeAlong(NodeContext &n, Value x, int64_t axis, int64_t index) {
  auto t = n.typeOf(x);
  SmallVector<int64_t> shape(t.getShape()), starts(t.getRank(), 0),
      steps(t.getRank(), 1);
  shape[axis] = 1;
  starts[axis] = index;
  OpBuilder &b = n.builder();
  Value s = n.create<graph::SliceOp>(n.tensorOf(shape, t.getElementType()), x,
                                     b.getDenseI64ArrayAttr(starts),
                                     b.getDenseI64ArrayAttr(steps));
  shape.erase(shape.begin() + axis);
  return n.reshape(s, shape);
}

/// The items stacked along a new axis `axis` (reshape + concat); every item
/// must have the same type.
FailureOr<Value> stack(NodeContext &n, ArrayRef<Item> items, int64_t axis,
                       llvm::StringRef what) {
  SmallVector<Value> parts;
  RankedTensorType first;
  for (const Item &it : items) {
    auto v = valueOf(n, it);
    if (failed(v))
      return failure();
    auto t = n.typeOf(*v);
    if (!first)
      first = t;
    else if (t != first) {
      (void)n.fail(what + " changes type between iterations (" +
                   shapeString(first.getShape()) + " then " +
                   shapeString(t.getShape()) + ")");
      return failure();
    }
    SmallVector<int64_t> shape(t.getShape());
    shape.insert(shape.begin() + axis, 1);
    parts.push_back(n.create<graph::ReshapeOp>(
        n.tensorOf(shape, t.getElementType()), *v));
  }
  if (parts.size() == 1)
    return parts[0];
  return n.create<graph::ConcatOp>(parts, axis);
}

std::optional<int64_t> constScalar(NodeContext &n, unsigned i) {
  return scalarValue(n.constTensor(i));
}

std::optional<bool> constCondition(GraphState &st, const std::string &name) {
  std::optional<int64_t> v = scalarValue(st.constants.lookup(name));
  if (!v)
    return std::nullopt;
  return *v != 0;
}

const onnx::TensorProto *ownScalar(GraphState &st, int32_t type, int64_t v) {
  onnx::TensorProto &t = st.ownedConstants.emplace_back();
  t.set_data_type(type);
  if (type == onnx::TensorProto::INT64)
    t.add_int64_data(v);
  else
    t.add_int32_data(int32_t(v));
  return &t;
}

/// An Item for a constant owned by the graph state (bound under a fresh
/// name so later lookups find it).
Item constItem(NodeContext &n, const std::string &name,
               const onnx::TensorProto *t) {
  n.st.constants[name] = t;
  n.st.constantLocs[name] = n.loc;
  return {name, Value()};
}

LogicalResult checkUnrollSize(NodeContext &n, int64_t iterations,
                              const onnx::GraphProto &body) {
  if (iterations > kMaxIterations ||
      iterations * std::max(body.node_size(), 1) > kMaxUnrolledNodes)
    return n.fail("the loop runs " + llvm::Twine(iterations) +
                  " iterations of a " + llvm::Twine(body.node_size()) +
                  "-node body; unrolling is limited to " +
                  llvm::Twine(kMaxIterations) + " iterations and " +
                  llvm::Twine(kMaxUnrolledNodes) + " nodes");
  return success();
}

} // namespace

LogicalResult importLoop(NodeContext &n, const onnx::GraphProto &body) {
  const int carried = n.node.input_size() - 2;
  if (carried < 0)
    return n.fail("a Loop has at least two inputs (trip count, condition)");
  if (body.input_size() != carried + 2 || body.output_size() < carried + 1 ||
      n.node.output_size() != body.output_size() - 1)
    return n.fail("the body's inputs and outputs do not match the Loop's");
  if (!n.hasInput(0))
    return n.fail("data-dependent control flow: a Loop without a trip count "
                  "runs until its condition turns false at run time");
  // Input `i` (the trip count or the condition) is not a constant.
  auto computedAtRunTime = [&](const char *what, unsigned i) {
    return n.fail(llvm::Twine("data-dependent control flow: the ") + what +
                  " '" + n.node.input(i) +
                  "' is computed at run time (a Loop is unrolled only when "
                  "its trip count and condition are compile-time constants; "
                  "--const-input pins a graph input)");
  };
  std::optional<int64_t> trips = constScalar(n, 0);
  if (!trips)
    return computedAtRunTime("trip count", 0);
  bool cond = true;
  if (n.hasInput(1)) {
    std::optional<int64_t> c = constScalar(n, 1);
    if (!c)
      return computedAtRunTime("condition", 1);
    cond = *c != 0;
  }
  const int64_t limit = cond ? std::max<int64_t>(*trips, 0) : 0;
  if (failed(checkUnrollSize(n, limit, body)))
    return failure();

  SmallVector<Item> state;
  for (int i = 0; i < carried; ++i) {
    if (!n.hasInput(2 + i))
      return n.fail("loop-carried input " + llvm::Twine(i) + " is missing");
    state.push_back({n.node.input(2 + i), Value()});
  }
  const int scans = body.output_size() - 1 - carried;
  std::vector<SmallVector<Item>> scanned(scans);
  for (int64_t iter = 0; iter < limit; ++iter) {
    SmallVector<Item> in;
    in.push_back(constItem(n, n.name + "/iter" + std::to_string(iter) + "#i",
                           ownScalar(n.st, onnx::TensorProto::INT64, iter)));
    in.push_back(constItem(n, n.name + "/iter" + std::to_string(iter) + "#c",
                           ownScalar(n.st, onnx::TensorProto::BOOL, 1)));
    llvm::append_range(in, state);
    auto out = importBodyOnce(n, body, in, iter);
    if (failed(out))
      return failure();
    for (int i = 0; i < carried; ++i)
      state[i] = (*out)[1 + i];
    for (int k = 0; k < scans; ++k)
      scanned[k].push_back((*out)[1 + carried + k]);
    std::optional<bool> again = constCondition(n.st, (*out)[0].name);
    if (!again)
      return n.fail("data-dependent control flow: the body's condition "
                    "output '" +
                    body.output(0).name() +
                    "' is computed at run time (a Loop is unrolled only "
                    "when it is a compile-time constant in every "
                    "iteration)");
    if (!*again)
      break;
  }
  for (int i = 0; i < carried; ++i)
    if (failed(setItemOutput(n, i, state[i])))
      return failure();
  for (int k = 0; k < scans; ++k) {
    if (scanned[k].empty())
      return n.fail("the Loop runs no iteration, so scan output '" +
                    body.output(1 + carried + k).name() +
                    "' would be an empty tensor of unknown shape");
    auto v = stack(n, scanned[k], 0,
                   "scan output '" + body.output(1 + carried + k).name() + "'");
    if (failed(v))
      return failure();
    n.setOutput(carried + k, *v);
  }
  return success();
}

namespace {

/// One Scan over `states` and `inputs` (no batch axis): the final states
/// and the scan outputs.
LogicalResult runScan(NodeContext &n, const onnx::GraphProto &body,
                      SmallVector<Item> &states, ArrayRef<Value> inputs,
                      ArrayRef<int64_t> inAxes, ArrayRef<int64_t> inDirs,
                      ArrayRef<int64_t> outAxes, ArrayRef<int64_t> outDirs,
                      int64_t length, int64_t &iterBase,
                      SmallVector<Value> &scanOut) {
  const int numStates = states.size();
  const int numScanOut = body.output_size() - numStates;
  std::vector<SmallVector<Item>> scanned(numScanOut);
  for (int64_t t = 0; t < length; ++t, ++iterBase) {
    SmallVector<Item> in(states);
    for (size_t j = 0; j < inputs.size(); ++j)
      in.push_back({std::string(), takeAlong(n, inputs[j], inAxes[j],
                                             inDirs[j] ? length - 1 - t : t)});
    auto out = importBodyOnce(n, body, in, iterBase);
    if (failed(out))
      return failure();
    for (int i = 0; i < numStates; ++i)
      states[i] = (*out)[i];
    for (int k = 0; k < numScanOut; ++k)
      scanned[k].push_back((*out)[numStates + k]);
  }
  for (int k = 0; k < numScanOut; ++k) {
    if (outDirs[k])
      std::reverse(scanned[k].begin(), scanned[k].end());
    const std::string what =
        "scan output '" + body.output(numStates + k).name() + "'";
    if (scanned[k].empty())
      return n.fail(what + " is empty: the sequence has length 0");
    auto first = valueOf(n, scanned[k][0]);
    if (failed(first))
      return failure();
    auto axis = n.axis(outAxes[k], n.typeOf(*first).getRank() + 1,
                       "scan_output_axes entry");
    if (failed(axis))
      return failure();
    auto v = stack(n, scanned[k], *axis, what);
    if (failed(v))
      return failure();
    scanOut.push_back(*v);
  }
  return success();
}

/// A Scan node's layout: where its states and scan inputs start, how many
/// of each, and the per-input and per-output axes and directions.
struct ScanSignature {
  bool v8 = false; // Scan-8: input 0 is sequence_lens, dim 0 is the batch
  int first = 0, numStates = 0, numScanIn = 0, numScanOut = 0;
  std::vector<int64_t> inAxes, inDirs, outAxes, outDirs;
};

FailureOr<ScanSignature> readScanSignature(NodeContext &n,
                                           const onnx::GraphProto &body) {
  ScanSignature sig;
  sig.v8 = n.opset() < 9;
  sig.first = sig.v8 ? 1 : 0;
  const int64_t numScanIn = n.intAttr("num_scan_inputs", -1);
  sig.numStates = n.node.input_size() - sig.first - int(numScanIn);
  if (numScanIn < 1 || sig.numStates < 0)
    return n.fail("num_scan_inputs must be between 1 and the input count");
  sig.numScanIn = int(numScanIn);
  sig.numScanOut = body.output_size() - sig.numStates;
  if (body.input_size() != sig.numStates + sig.numScanIn ||
      sig.numScanOut < 0 || n.node.output_size() != body.output_size())
    return n.fail("the body's inputs and outputs do not match the Scan's");
  auto listAttr = [&](const char *name, int64_t count,
                      std::vector<int64_t> &out) -> LogicalResult {
    auto v = n.intsAttr(name);
    out = v ? *v : std::vector<int64_t>(count, 0);
    if (int64_t(out.size()) != count)
      return n.fail(llvm::Twine(name) + " has " + llvm::Twine(out.size()) +
                    " entries, expected " + llvm::Twine(count));
    return success();
  };
  if (failed(listAttr(sig.v8 ? "directions" : "scan_input_directions",
                      sig.numScanIn, sig.inDirs)) ||
      failed(listAttr("scan_input_axes", sig.numScanIn, sig.inAxes)) ||
      failed(listAttr("scan_output_axes", sig.numScanOut, sig.outAxes)) ||
      failed(listAttr("scan_output_directions", sig.numScanOut, sig.outDirs)))
    return failure();
  return sig;
}

/// Normalises the scan input axes and checks the inputs agree on the
/// sequence length (and, for Scan-8, on the batch); gives {batch, length}.
FailureOr<std::pair<int64_t, int64_t>>
scanExtent(NodeContext &n, ScanSignature &sig, ArrayRef<Value> states,
           ArrayRef<Value> inputs) {
  const int64_t batchAxis = sig.v8 ? 1 : 0; // Scan-8's scan axis follows batch
  for (size_t j = 0; j < inputs.size(); ++j) {
    auto axis = n.axis(sig.inAxes[j],
                       n.typeOf(inputs[j]).getRank() - batchAxis,
                       "scan_input_axes entry");
    if (failed(axis))
      return failure();
    sig.inAxes[j] = *axis;
  }
  auto lengthOf = [&](size_t j) {
    return n.typeOf(inputs[j]).getDimSize(sig.inAxes[j] + batchAxis);
  };
  const int64_t length = lengthOf(0);
  for (size_t j = 1; j < inputs.size(); ++j)
    if (lengthOf(j) != length)
      return n.fail("scan inputs have different sequence lengths (" +
                    llvm::Twine(length) + " and " + llvm::Twine(lengthOf(j)) +
                    ")");
  if (!sig.v8)
    return std::make_pair(int64_t(1), length);
  int64_t batch = inputs[0] ? n.typeOf(inputs[0]).getDimSize(0) : 1;
  for (Value v : llvm::concat<const Value>(states, inputs))
    if (n.typeOf(v).getRank() < 1 || n.typeOf(v).getDimSize(0) != batch)
      return n.fail("every state and scan input needs the batch size " +
                    llvm::Twine(batch) + " as its first dimension");
  if (n.hasInput(0)) {
    auto lens = n.constInts(0);
    if (failed(lens))
      return failure();
    for (int64_t l : *lens)
      if (l != length)
        return n.fail("data-dependent control flow: sequence_lens "
                      "shorter than the scan inputs' length " +
                      llvm::Twine(length) + " are not supported");
  }
  return std::make_pair(batch, length);
}

/// Binds the final states and the scan outputs; Scan-8 stacks each batch
/// entry's along a new dim 0.
LogicalResult bindScanOutputs(NodeContext &n, const onnx::GraphProto &body,
                              const ScanSignature &sig,
                              ArrayRef<SmallVector<Item>> finalStates,
                              ArrayRef<SmallVector<Value>> outs) {
  for (int i = 0; i < sig.numStates; ++i) {
    if (!sig.v8) {
      if (failed(setItemOutput(n, i, finalStates[0][i])))
        return failure();
      continue;
    }
    SmallVector<Item> perBatch;
    for (const auto &st : finalStates)
      perBatch.push_back(st[i]);
    auto v = stack(n, perBatch, 0, "state '" + body.output(i).name() + "'");
    if (failed(v))
      return failure();
    n.setOutput(i, *v);
  }
  for (int k = 0; k < sig.numScanOut; ++k) {
    if (!sig.v8) {
      n.setOutput(sig.numStates + k, outs[0][k]);
      continue;
    }
    SmallVector<Item> perBatch;
    for (const auto &o : outs)
      perBatch.push_back({std::string(), o[k]});
    auto v = stack(n, perBatch, 0, "scan output");
    if (failed(v))
      return failure();
    n.setOutput(sig.numStates + k, *v);
  }
  return success();
}

} // namespace

LogicalResult importScan(NodeContext &n, const onnx::GraphProto &body) {
  auto sig = readScanSignature(n, body);
  if (failed(sig))
    return failure();
  SmallVector<Value> states, inputs;
  for (int i = 0; i < sig->numStates + sig->numScanIn; ++i) {
    auto v = n.input(sig->first + i);
    if (failed(v))
      return failure();
    (i < sig->numStates ? states : inputs).push_back(*v);
  }
  auto extent = scanExtent(n, *sig, states, inputs);
  if (failed(extent))
    return failure();
  auto [batch, length] = *extent;
  if (failed(checkUnrollSize(n, batch * length, body)))
    return failure();

  int64_t iterBase = 0;
  SmallVector<SmallVector<Item>> finalStates;
  SmallVector<SmallVector<Value>> outs;
  for (int64_t b = 0; b < batch; ++b) {
    SmallVector<Item> st;
    SmallVector<Value> in;
    for (Value s : states)
      st.push_back({std::string(), sig->v8 ? takeAlong(n, s, 0, b) : s});
    for (Value x : inputs)
      in.push_back(sig->v8 ? takeAlong(n, x, 0, b) : x);
    SmallVector<Value> scanOut;
    if (failed(runScan(n, body, st, in, sig->inAxes, sig->inDirs,
                       sig->outAxes, sig->outDirs, length, iterBase, scanOut)))
      return failure();
    finalStates.push_back(std::move(st));
    outs.push_back(std::move(scanOut));
  }
  return bindScanOutputs(n, body, *sig, finalStates, outs);
}

} // namespace lpx::onnximport
