//===- OpsetDowngrade.cpp - Opsets 18 to 23 to opset 17 -------------------===//
//
// Passes over the graph: each rewrites the nodes whose inputs' shapes ONNX
// 1.12 knows (most rewrites need none; Split's num_outputs, Pad's axes,
// RotaryEmbedding and Attention do), then ONNX 1.12 infers, leniently, what
// it can of the partly rewritten graph for the next pass.
//
//===----------------------------------------------------------------------===//
#include "OpsetDowngrade.h"

#include "InferenceGuards.h"
#include "LpxSchemas.h"
#include "OpsetRewrite.h"
#include "ShapeResolution.h"

#include "lpx/Import/OpsetVersions.h"
#include "lpx/Import/ShapeOnlyWeights.h"

#include "llvm/ADT/StringSet.h"

#include "onnx/shape_inference/implementation.h"

#include <array>
#include <deque>
#include <tuple>

namespace lpx::onnximport {

namespace {

bool isDefaultDomain(const std::string &d) {
  return d.empty() || d == "ai.onnx";
}

const llvm::StringMap<NodeRewrite> &rewrites() {
  static const llvm::StringMap<NodeRewrite> t = {
      {"ReduceL1", rewriteReduce},
      {"ReduceL2", rewriteReduce},
      {"ReduceLogSum", rewriteReduce},
      {"ReduceLogSumExp", rewriteReduce},
      {"ReduceMax", rewriteReduce},
      {"ReduceMean", rewriteReduce},
      {"ReduceMin", rewriteReduce},
      {"ReduceProd", rewriteReduce},
      {"ReduceSumSquare", rewriteReduce},
      {"Pad", rewritePad},
      {"Split", rewriteSplit},
      {"Resize", rewriteResize},
      {"Cast", rewriteCast},
      {"CastLike", rewriteCast},
      {"QuantizeLinear", rewriteQuantize},
      {"DequantizeLinear", rewriteQuantize},
      {"AveragePool", rewriteAveragePool},
      {"DFT", rewriteDFT},
      {"GridSample", rewriteGridSample},
      {"BitwiseAnd", rewriteBitwise},
      {"BitwiseOr", rewriteBitwise},
      {"BitwiseXor", rewriteBitwise},
      {"BitwiseNot", rewriteBitwise},
      {"Gelu", decomposeGelu},
      {"Mish", decomposeMish},
      {"GroupNormalization", decomposeGroupNormalization},
      {"RMSNormalization", decomposeRMSNormalization},
      {"RotaryEmbedding", decomposeRotaryEmbedding},
      {"Attention", decomposeAttention},
      {"CenterCropPad", decomposeCenterCropPad},
      {"Col2Im", decomposeCol2Im},
  };
  return t;
}

/// Names every unnamed node as the importer would ("Op_index"; inside a
/// subgraph, after the node that holds it), so rewritten nodes keep them.
/// The rewrite tells nodes apart by name: a repeated one gets "#k".
void nameNodes(onnx::GraphProto &g, const std::string &prefix,
               llvm::StringSet<> &seen) {
  for (int i = 0; i < g.node_size(); ++i) {
    onnx::NodeProto &n = *g.mutable_node(i);
    if (n.name().empty())
      n.set_name(prefix + n.op_type() + "_" + std::to_string(i));
    for (int k = 2; !seen.insert(n.name()).second; ++k)
      n.set_name(n.name() + "#" + std::to_string(k));
    for (onnx::AttributeProto &a : *n.mutable_attribute()) {
      if (a.has_g())
        nameNodes(*a.mutable_g(), n.name() + "/", seen);
      for (onnx::GraphProto &sub : *a.mutable_graphs())
        nameNodes(sub, n.name() + "/", seen);
    }
  }
}

void collectTypes(const onnx::GraphProto &g,
                  llvm::StringMap<onnx::TypeProto> &types) {
  for (const auto &vi : g.input())
    types[vi.name()] = vi.type();
  for (const auto &vi : g.value_info())
    types[vi.name()] = vi.type();
  for (const auto &vi : g.output())
    if (vi.type().has_tensor_type())
      types[vi.name()] = vi.type();
  for (const auto &t : g.initializer()) {
    onnx::TypeProto tp;
    auto *tt = tp.mutable_tensor_type();
    tt->set_elem_type(t.data_type());
    tt->mutable_shape(); // a scalar has a shape of no dims
    for (int64_t d : t.dims())
      tt->mutable_shape()->add_dim()->set_dim_value(d);
    types[t.name()] = tp;
  }
  for (const auto &n : g.node())
    for (const auto &a : n.attribute()) {
      if (a.has_g())
        collectTypes(a.g(), types);
      for (const auto &sub : a.graphs())
        collectTypes(sub, types);
    }
}

/// Removes the nodes, subgraphs' included, that ONNX 1.12 cannot infer
/// safely at opset 17 (a newer form's extra input, an axis beyond 32 bits):
/// their outputs stay unknown until they are rewritten.
void dropUninferableNodes(onnx::GraphProto &g) {
  auto *nodes = g.mutable_node();
  for (int i = nodes->size() - 1; i >= 0; --i) {
    onnx::NodeProto &n = *nodes->Mutable(i);
    if (!nodeInferenceProblem(n, kCheckedOpset).empty()) {
      nodes->DeleteSubrange(i, 1);
      continue;
    }
    for (onnx::AttributeProto &a : *n.mutable_attribute()) {
      if (a.has_g())
        dropUninferableNodes(*a.mutable_g());
      for (onnx::GraphProto &sub : *a.mutable_graphs())
        dropUninferableNodes(sub);
    }
  }
}

/// What ONNX 1.12 infers of the graph as it is (nodes it cannot check are
/// skipped), on a copy without the weights' bytes.
llvm::StringMap<onnx::TypeProto> inferTypes(const onnx::ModelProto &model) {
  onnx::ModelProto copy;
  copy.set_ir_version(std::min<int64_t>(model.ir_version(), 8));
  bool lpxDomain = false;
  for (const auto &imp : model.opset_import()) {
    auto *o = copy.add_opset_import();
    *o = imp;
    if (isDefaultDomain(imp.domain()))
      o->set_version(kCheckedOpset);
    lpxDomain |= imp.domain() == kLpxDomain;
  }
  if (!lpxDomain) { // earlier passes' ai.lpx nodes are inferred too
    auto *o = copy.add_opset_import();
    o->set_domain(kLpxDomain);
    o->set_version(1);
  }
  const onnx::GraphProto &g = model.graph();
  onnx::GraphProto &cg = *copy.mutable_graph();
  *cg.mutable_node() = g.node();
  dropUninferableNodes(cg);
  *cg.mutable_input() = g.input();
  *cg.mutable_output() = g.output();
  llvm::StringSet<> inputs;
  for (const auto &vi : g.input())
    inputs.insert(vi.name());
  for (const auto &t : g.initializer()) {
    if (isNewWeightType(t.data_type()))
      continue; // ONNX 1.12 knows no float8 / int4: the fold reads them
    bool small = !isShapeOnlyTensor(t) && t.raw_data().size() <= 4096 &&
                 t.float_data_size() <= 1024;
    if (small) {
      *cg.add_initializer() = t;
      continue;
    }
    if (inputs.contains(t.name()))
      continue;
    auto *vi = cg.add_input();
    vi->set_name(t.name());
    auto *tt = vi->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(t.data_type());
    tt->mutable_shape();
    for (int64_t d : t.dims())
      tt->mutable_shape()->add_dim()->set_dim_value(d);
  }
  installInferenceGuards();
  try {
    onnx::ShapeInferenceOptions options(/*check_type=*/false,
                                        /*strict_mode=*/0,
                                        /*data_prop=*/true);
    onnx::shape_inference::InferShapes(
        copy, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception &) {
    // Lenient mode: whatever was inferred before the throw is kept.
  }
  llvm::StringMap<onnx::TypeProto> types;
  collectTypes(cg, types);
  return types;
}

void collectConstants(const onnx::GraphProto &g, GraphFacts &facts,
                      std::deque<onnx::TensorProto> &owned) {
  for (const auto &t : g.initializer())
    facts.constants[t.name()] = &t;
  for (const auto &n : g.node()) {
    for (const auto &a : n.attribute()) {
      if (a.has_g())
        collectConstants(a.g(), facts, owned);
      for (const auto &sub : a.graphs())
        collectConstants(sub, facts, owned);
    }
    if (n.op_type() != "Constant" || !isDefaultDomain(n.domain()) ||
        n.output_size() != 1 || n.attribute_size() != 1)
      continue;
    const onnx::AttributeProto &a = n.attribute(0);
    if (a.name() == "value") {
      facts.constants[n.output(0)] = &a.t();
    } else if (a.name() == "value_ints" || a.name() == "value_int") {
      onnx::TensorProto &t = owned.emplace_back();
      t.set_data_type(onnx::TensorProto::INT64);
      if (a.name() == "value_ints") {
        t.add_dims(a.ints_size());
        *t.mutable_int64_data() = a.ints();
      } else {
        t.add_int64_data(a.i());
      }
      facts.constants[n.output(0)] = &t;
    }
  }
}

/// The input and output counts of the newer schemas, which ONNX 1.12
/// cannot check: {min inputs, max inputs, min outputs, max outputs}.
Rewrite checkArity(NodeRewriter &r, const OpVersionEntry &e) {
  static const llvm::StringMap<std::array<int, 4>> arity = {
      {"Gelu", {1, 1, 1, 1}},
      {"Mish", {1, 1, 1, 1}},
      {"GroupNormalization", {3, 3, 1, 1}},
      {"RMSNormalization", {2, 2, 1, 1}},
      {"RotaryEmbedding", {3, 4, 1, 1}},
      {"Attention", {3, 6, 1, 4}},
      {"Pad", {2, 4, 1, 1}},
      {"Resize", {1, 4, 1, 1}},
      {"DFT", {1, 3, 1, 1}},
      {"CenterCropPad", {2, 2, 1, 1}},
      {"Col2Im", {3, 3, 1, 1}},
      {"BitwiseAnd", {2, 2, 1, 1}},
      {"BitwiseOr", {2, 2, 1, 1}},
      {"BitwiseXor", {2, 2, 1, 1}},
      {"BitwiseNot", {1, 1, 1, 1}},
  };
  const onnx::NodeProto &n = r.node;
  auto it = arity.find(n.op_type());
  int minIn = 1, maxIn = 1 << 20, minOut = 1, maxOut = 1 << 20;
  if (it != arity.end())
    std::tie(minIn, maxIn, minOut, maxOut) =
        std::tie(it->second[0], it->second[1], it->second[2], it->second[3]);
  int inputs = n.input_size(), outputs = n.output_size();
  if (inputs < minIn || inputs > maxIn)
    return r.fail("has " + std::to_string(inputs) + " inputs (" +
                  e.op + "-" + std::to_string(e.since) + " takes " +
                  std::to_string(minIn) +
                  (maxIn == minIn ? "" : " to " + std::to_string(maxIn)) + ")");
  for (int i = 0; i < minIn; ++i)
    if (n.input(i).empty())
      return r.fail("required input " + std::to_string(i) + " is empty");
  if (outputs < minOut || outputs > maxOut || n.output(0).empty())
    return r.fail("has " + std::to_string(outputs) +
                  " outputs or an empty first output");
  return Rewrite::Done;
}

struct Pass {
  int64_t opset;
  GraphFacts &facts;
  llvm::StringSet<> &done; // nodes already in their opset-17 form
  std::vector<DowngradeProblem> &problems;
  std::vector<DowngradeProblem> pending; // waiting for types
  int progress = 0;

  // Nodes are copied, not moved: `facts` points into Constant nodes.
  void run(onnx::GraphProto &g) {
    google::protobuf::RepeatedPtrField<onnx::NodeProto> next;
    for (onnx::NodeProto &node : *g.mutable_node()) {
      for (onnx::AttributeProto &a : *node.mutable_attribute()) {
        if (a.has_g())
          run(*a.mutable_g());
        for (onnx::GraphProto &sub : *a.mutable_graphs())
          run(sub);
      }
      rewriteNode(g, node, next);
    }
    g.mutable_node()->Swap(&next);
  }

  /// Why a rewrite that needs a shape could not have it: the first input
  /// whose dims are not all known, dynamic (a graph input to pin) or not
  /// inferred at all.
  std::string unknownShape(const onnx::NodeProto &node) const {
    for (const std::string &in : node.input()) {
      if (in.empty())
        continue;
      auto it = facts.types.find(in);
      if (it == facts.types.end() || !it->second.has_tensor_type() ||
          !it->second.tensor_type().has_shape())
        return "the shape of input '" + in + "' is not known (ONNX 1.12 "
               "cannot infer it through the nodes before)";
      std::string dims;
      bool dynamic = false;
      for (const auto &d : it->second.tensor_type().shape().dim()) {
        dims += (dims.empty() ? "" : "x") +
                (d.has_dim_value() ? std::to_string(d.dim_value())
                                   : d.has_dim_param() ? d.dim_param() : "?");
        dynamic |= !d.has_dim_value();
      }
      if (dynamic)
        return "input '" + in + "' has dynamic dims (" + dims +
               "): pin the graph's inputs with --input-shape";
    }
    return "an input's element type is not known";
  }

  void rewriteNode(onnx::GraphProto &g, onnx::NodeProto &node,
                   google::protobuf::RepeatedPtrField<onnx::NodeProto> &next) {
    const OpVersionEntry *e = nullptr;
    if (isDefaultDomain(node.domain()) && !done.contains(node.name()))
      e = newerOpVersion(node.op_type(), opset);
    if (!e || e->how == VersionHandling::TypesOnly) {
      *next.Add() = node;
      return;
    }
    auto problem = [&](const std::string &why) {
      return DowngradeProblem{node.name(), node.op_type(), e->since, why};
    };
    if (e->how == VersionHandling::Unsupported) {
      problems.push_back(problem(std::string("not supported at this "
                                             "version: ") + e->note));
      done.insert(node.name());
      *next.Add() = node;
      return;
    }
    NodeRewrite rewrite = rewrites().lookup(node.op_type());
    NodeRewriter r(node, facts, g, e->since);
    Rewrite result = rewrite ? checkArity(r, *e) : r.fail("no rewrite");
    if (result == Rewrite::Done)
      result = rewrite(r);
    if (result == Rewrite::NeedTypes) {
      pending.push_back(problem(unknownShape(node)));
      *next.Add() = node;
      return;
    }
    if (result == Rewrite::Failed) {
      problems.push_back(problem(r.error));
      done.insert(node.name());
      *next.Add() = node;
      return;
    }
    ++progress;
    for (onnx::NodeProto &n : r.out) {
      done.insert(n.name());
      *next.Add() = std::move(n);
    }
  }
};

bool needsRewrite(const onnx::GraphProto &g, int64_t opset,
                  const llvm::StringSet<> &done) {
  for (const auto &n : g.node()) {
    for (const auto &a : n.attribute()) {
      if (a.has_g() && needsRewrite(a.g(), opset, done))
        return true;
      for (const auto &sub : a.graphs())
        if (needsRewrite(sub, opset, done))
          return true;
    }
    if (!isDefaultDomain(n.domain()) || done.contains(n.name()))
      continue;
    const OpVersionEntry *e = newerOpVersion(n.op_type(), opset);
    if (e && e->how != VersionHandling::TypesOnly)
      return true;
  }
  return false;
}

} // namespace

std::vector<DowngradeProblem> downgradeToOpset17(onnx::ModelProto &model,
                                                 int64_t opset) {
  llvm::StringSet<> names;
  nameNodes(*model.mutable_graph(), "", names);
  std::vector<DowngradeProblem> problems;
  llvm::StringSet<> done;
  // Bounded: each pass but the last rewrites at least one node.
  while (needsRewrite(model.graph(), opset, done)) {
    GraphFacts facts;
    std::deque<onnx::TensorProto> owned;
    collectConstants(model.graph(), facts, owned);
    facts.types = inferTypes(model);
    facts.mainGraph = &model.graph();
    Pass pass{opset, facts, done, problems, {}};
    pass.run(*model.mutable_graph());
    if (!pass.progress) {
      for (DowngradeProblem &p : pass.pending) {
        done.insert(p.node);
        problems.push_back(std::move(p));
      }
      break;
    }
  }
  if (problems.empty())
    dropUnreadNewTypeWeights(*model.mutable_graph());
  // The ai.lpx domain of the ops without an opset-17 form (Bitwise*),
  // imported whether used or not.
  bool imported = false;
  for (auto &imp : *model.mutable_opset_import()) {
    if (isDefaultDomain(imp.domain()))
      imp.set_version(kCheckedOpset);
    imported |= imp.domain() == kLpxDomain;
  }
  if (!imported) {
    auto *imp = model.add_opset_import();
    imp->set_domain(kLpxDomain);
    imp->set_version(1);
  }
  if (model.ir_version() > 8)
    model.set_ir_version(8);
  return problems;
}

bool hasNodeRewrite(const std::string &op) {
  return rewrites().count(op) != 0;
}

std::string problemMessage(const DowngradeProblem &p) {
  return "node '" + p.node + "' (" + p.opType + "-" +
         std::to_string(p.version) + "): " + p.reason;
}

} // namespace lpx::onnximport
