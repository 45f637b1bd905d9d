//===- ModelLimits.cpp - Bounds on what a model file may ask for ----------===//
#include "lpx/Import/ModelLimits.h"

#include "llvm/ADT/Twine.h"

namespace lpx::onnximport {
namespace {

llvm::Error error(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg.str());
}

/// Known dims of a declared tensor: none negative and at most
/// kMaxTensorElements elements (checked without overflow).
template <typename Dims>
llvm::Error checkDims(const Dims &dims, const llvm::Twine &what) {
  int64_t elements = 1;
  for (int64_t d : dims) {
    if (d < 0)
      return error(what + " has a negative dim " + llvm::Twine(d));
    if (d > 0 && elements > kMaxTensorElements / d)
      return error(what + " declares more than 2^36 elements (the importer's "
                          "bound on one tensor)");
    elements *= d;
  }
  return llvm::Error::success();
}

llvm::Error checkValueInfo(const onnx::ValueInfoProto &v) {
  if (!v.type().has_tensor_type() || !v.type().tensor_type().has_shape())
    return llvm::Error::success();
  std::vector<int64_t> dims;
  for (const auto &d : v.type().tensor_type().shape().dim())
    if (d.has_dim_value())
      dims.push_back(d.dim_value());
  return checkDims(dims, "tensor '" + v.name() + "'");
}

struct Walker {
  int64_t nodes = 0;

  llvm::Error graph(const onnx::GraphProto &g, int depth) {
    if (depth > kMaxSubgraphDepth)
      return error("subgraphs nested more than " +
                   llvm::Twine(kMaxSubgraphDepth) + " deep (graph '" +
                   g.name() + "')");
    for (const auto &t : g.initializer())
      if (auto e = checkDims(t.dims(), "initializer '" + t.name() + "'"))
        return e;
    for (const auto *list : {&g.input(), &g.output(), &g.value_info()})
      for (const onnx::ValueInfoProto &v : *list)
        if (auto e = checkValueInfo(v))
          return e;
    nodes += g.node_size();
    if (nodes > kMaxModelNodes)
      return error("more than " + llvm::Twine(kMaxModelNodes) +
                   " nodes (the importer's bound on a model)");
    for (const onnx::NodeProto &n : g.node())
      for (const onnx::AttributeProto &a : n.attribute()) {
        if (a.has_t())
          if (auto e = checkDims(a.t().dims(), "attribute '" + a.name() +
                                                   "' of node '" + n.name() +
                                                   "'"))
            return e;
        if (a.has_g())
          if (auto e = graph(a.g(), depth + 1))
            return e;
        for (const onnx::GraphProto &sub : a.graphs())
          if (auto e = graph(sub, depth + 1))
            return e;
      }
    return llvm::Error::success();
  }
};

} // namespace

llvm::Expected<int64_t> foldedElementCount(llvm::ArrayRef<int64_t> dims) {
  int64_t elements = 1;
  for (int64_t d : dims) {
    if (d < 0)
      return error("shape has a negative dim " + llvm::Twine(d));
    if (d > 0 && elements > kMaxFoldedElements / d)
      return error("the constant would have more than 2^28 elements (the "
                   "importer's bound on a constant it computes)");
    elements *= d;
  }
  return elements;
}

llvm::Error checkModelLimits(const onnx::ModelProto &model) {
  Walker w;
  return w.graph(model.graph(), 0);
}

} // namespace lpx::onnximport
