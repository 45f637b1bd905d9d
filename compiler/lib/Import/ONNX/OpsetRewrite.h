//===- OpsetRewrite.h - Rewriting one newer-opset node ----------*- C++ -*-===//
//
// The pieces a rewrite of one node of opset 18+ to opset-17 nodes uses: the
// graph's constants, the types ONNX 1.12 could infer so far, and a builder
// of replacement nodes named after the node they replace.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_LIB_IMPORT_ONNX_OPSETREWRITE_H
#define LPX_LIB_IMPORT_ONNX_OPSETREWRITE_H

#include "llvm/ADT/StringMap.h"

#include "onnx/onnx_pb.h"

#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace lpx::onnximport {

/// Outcome of one node's rewrite.
enum class Rewrite {
  Done,      ///< `out` holds the opset-17 nodes
  NeedTypes, ///< an input's shape is not known yet: try after inference
  Failed,    ///< `error` says why (malformed or not supported)
};

/// Static facts about the graph being rewritten.
struct GraphFacts {
  /// Initializers and Constant-node outputs, by name.
  llvm::StringMap<const onnx::TensorProto *> constants;
  /// Types ONNX 1.12 inferred (or the graph declares), by value name.
  llvm::StringMap<onnx::TypeProto> types;
  /// Values one rewrite of the model's main graph made for later rewrites
  /// of the same pass to reuse (RotaryEmbedding's full-width caches); a
  /// later pass may rewrite a node that comes before the one that made it.
  llvm::StringMap<std::string> shared;
  const onnx::GraphProto *mainGraph = nullptr;
};

class NodeRewriter {
public:
  NodeRewriter(const onnx::NodeProto &node, GraphFacts &facts,
               onnx::GraphProto &graph, int version)
      : node(node), version(version), facts(facts), graph(graph) {}

  const onnx::NodeProto &node;
  const int version; ///< the node's since-version at the model's opset
  std::deque<onnx::NodeProto> out; // deque: keep() stays valid
  std::string error;

  // Reading the node.
  const onnx::AttributeProto *attr(const std::string &name) const;
  int64_t intAttr(const std::string &name, int64_t dflt) const;
  float floatAttr(const std::string &name, float dflt) const;
  std::string stringAttr(const std::string &name,
                         const std::string &dflt) const;
  /// The ints attribute `name` when it has `count` entries, else `count`
  /// copies of `dflt` (a window's strides, pads, dilations).
  std::vector<int64_t> intsAttrOr(const std::string &name, int64_t dflt,
                                  size_t count) const;
  /// Input `i`, "" when absent.
  std::string input(int i) const;
  /// The int64 values of a constant input; nullopt (with `error`) if the
  /// input is not a compile-time constant.
  std::optional<std::vector<int64_t>> constInts(int i);
  std::optional<std::vector<float>> constFloats(int i);
  /// The initializer or Constant-node value named `name`, if it is one.
  const onnx::TensorProto *constant(const std::string &name) const;
  /// The static dims of a value, when inference knows them all.
  std::optional<std::vector<int64_t>> dims(const std::string &value) const;
  /// The element type ONNX knows for a value (0 when unknown).
  int32_t elemType(const std::string &value) const;
  /// `axes` made non-negative for `rank`; false (with `error`) when one is
  /// out of range or repeated.
  bool normaliseAxes(std::vector<int64_t> &axes, int64_t rank);
  /// Input 0's static dims and the node's `axes` attribute normalised for
  /// them (every axis when it has none): NeedTypes while the dims are not
  /// known, Failed (with `error`) as normaliseAxes.
  Rewrite inputAxes(std::vector<int64_t> &dims, std::vector<int64_t> &axes);
  /// The node of the graph being rewritten that outputs `value` (null for
  /// inputs, initializers and values of enclosing graphs).
  const onnx::NodeProto *producer(const std::string &value) const;
  /// `what` made once for the main graph (GraphFacts::shared): the value an
  /// earlier rewrite made, else `make()`'s, remembered for later ones
  /// (called only once the rewrite is certain to be Done). In a subgraph,
  /// always `make()`'s: its values are not visible outside it.
  std::string sharedValue(const std::string &what,
                          const std::function<std::string()> &make);

  // Building the replacement.
  /// The node itself (version-only rewrite), to be edited.
  onnx::NodeProto &keep();
  /// A new node; its one output gets a fresh name unless `output` is given.
  std::string add(const std::string &op, std::vector<std::string> inputs,
                  std::string output = "");
  /// The last added node, to give it attributes.
  onnx::NodeProto &last() { return out.back(); }
  void setInt(onnx::NodeProto &n, const std::string &name, int64_t v);
  void setInts(onnx::NodeProto &n, const std::string &name,
               const std::vector<int64_t> &v);
  void setFloat(onnx::NodeProto &n, const std::string &name, float v);
  void setString(onnx::NodeProto &n, const std::string &name,
                 const std::string &v);
  /// A new initializer of `elemType` and `dims` (a fresh name), to fill.
  onnx::TensorProto *newInitializer(int32_t elemType,
                                    const std::vector<int64_t> &dims);
  /// New initializers.
  std::string ints(const std::vector<int64_t> &v, bool scalar = false);
  std::string scalar(float v, int32_t elemType);
  std::string floats(const std::vector<float> &v,
                     const std::vector<int64_t> &shape, int32_t elemType);

  Rewrite fail(const std::string &why) {
    error = why;
    return Rewrite::Failed;
  }

private:
  std::string fresh(const std::string &tag);
  GraphFacts &facts;
  onnx::GraphProto &graph;
  int counter = 0;
};

using NodeRewrite = Rewrite (*)(NodeRewriter &);

// NewTypeWeights.cpp: DequantizeLinear of a float8 / int4 constant, folded.
bool isNewWeightType(int32_t onnxType);
Rewrite dequantizeNewTypeWeight(NodeRewriter &r);
/// Drops the float8 / int4 initializers nothing reads any more (and their
/// graph inputs and value_info), so that ONNX 1.12 never sees them.
void dropUnreadNewTypeWeights(onnx::GraphProto &g);

// Float8Activations.cpp: float8 activations as ai.lpx CastFloat8.
/// FLOAT8E4M3FN .. FLOAT8E5M2FNUZ (17 to 20, ONNX 1.14+'s numbers).
bool isFloat8Type(int64_t onnxType);
/// The float8 type of a (De)QuantizeLinear `n`: its zero point's, else its
/// output_dtype; 0 when neither is float8.
int32_t float8TypeOf(NodeRewriter &r, const onnx::NodeProto &n);
/// Whether `value` is a float8 activation: the output of a Cast to float8,
/// a float8 QuantizeLinear or (rewritten) a CastFloat8.
bool producesFloat8(NodeRewriter &r, const std::string &value);
Rewrite castToFloat8(NodeRewriter &r, int64_t to);
Rewrite quantizeFloat8(NodeRewriter &r, bool quantize);

// ChangedOpRewrites.cpp: ops whose opset-17 form exists.
Rewrite rewriteReduce(NodeRewriter &r);
Rewrite rewritePad(NodeRewriter &r);
Rewrite rewriteSplit(NodeRewriter &r);
Rewrite rewriteResize(NodeRewriter &r);
Rewrite rewriteCast(NodeRewriter &r);
Rewrite rewriteQuantize(NodeRewriter &r);
Rewrite rewriteAveragePool(NodeRewriter &r);
Rewrite rewriteDFT(NodeRewriter &r);
Rewrite rewriteGridSample(NodeRewriter &r);
Rewrite rewriteBitwise(NodeRewriter &r);

// NewOpDecompositions.cpp: ops new after opset 17.
Rewrite decomposeGelu(NodeRewriter &r);
Rewrite decomposeMish(NodeRewriter &r);
Rewrite decomposeGroupNormalization(NodeRewriter &r);
Rewrite decomposeRMSNormalization(NodeRewriter &r);
Rewrite decomposeRotaryEmbedding(NodeRewriter &r);
Rewrite decomposeCenterCropPad(NodeRewriter &r);
Rewrite decomposeCol2Im(NodeRewriter &r);
// AttentionDecomposition.cpp
Rewrite decomposeAttention(NodeRewriter &r);

} // namespace lpx::onnximport

#endif
