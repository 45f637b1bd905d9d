//===- GraphBuilder.h - Appending ONNX nodes and parameters -----*- C++ -*-===//
//
// A thin layer over onnx::GraphProto: nodes with fresh output names, small
// constants written at once, and parameters (the model's weights) recorded
// by shape and fill rule so the writer decides later whether and where their
// data goes (inline, an external file, or the shape-only marker).
//
//===----------------------------------------------------------------------===//
#ifndef LPX_MODELS_GRAPHBUILDER_H
#define LPX_MODELS_GRAPHBUILDER_H

#include "onnx/onnx_pb.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace lpx::models {

/// How a parameter's values are made: uniform in [center - halfWidth,
/// center + halfWidth] from a generator seeded by the parameter's name.
struct Fill {
  float center = 0, halfWidth = 0;
};

struct Parameter {
  std::string name;
  std::vector<int64_t> dims;
  Fill fill;
  uint64_t elements() const;
};

/// One integer, integer-list, float or string attribute of a node.
struct Attr {
  std::string name;
  std::vector<int64_t> values;
  bool list = false;
  std::optional<float> f;
  std::optional<std::string> s;
};
inline Attr intAttr(std::string name, int64_t v) { return {std::move(name), {v}, false}; }
inline Attr intsAttr(std::string name, std::vector<int64_t> v) {
  return {std::move(name), std::move(v), true};
}
inline Attr floatAttr(std::string name, float v) {
  Attr a{std::move(name), {}, false};
  a.f = v;
  return a;
}
inline Attr stringAttr(std::string name, std::string v) {
  Attr a{std::move(name), {}, false};
  a.s = std::move(v);
  return a;
}

class GraphBuilder {
public:
  explicit GraphBuilder(onnx::GraphProto &graph) : graph(graph) {}

  /// Prefix of the names of the nodes made from now on (e.g. "layers.3.attn").
  void setScope(std::string s) { scope = std::move(s); }

  /// Appends a node with one output and returns the output's name.
  std::string op(llvm::StringRef type, llvm::ArrayRef<std::string> inputs,
                 llvm::ArrayRef<Attr> attrs = {});
  /// Appends a node with `outputs` outputs.
  std::vector<std::string> opN(llvm::StringRef type,
                               llvm::ArrayRef<std::string> inputs,
                               unsigned outputs, llvm::ArrayRef<Attr> attrs = {});
  /// Same, with the output named `name` (a graph output).
  void opNamed(llvm::StringRef type, llvm::ArrayRef<std::string> inputs,
               const std::string &name, llvm::ArrayRef<Attr> attrs = {});

  /// Same, with the outputs named (an empty name: a fresh one); returns
  /// the names.
  std::vector<std::string> opOutputs(llvm::StringRef type,
                                     llvm::ArrayRef<std::string> inputs,
                                     std::vector<std::string> outputs,
                                     llvm::ArrayRef<Attr> attrs = {});

  /// Small constants: always stored with their values.
  std::string ints(llvm::ArrayRef<int64_t> values, bool scalar = false);
  std::string floatScalar(float value);
  std::string floats(llvm::StringRef name, llvm::ArrayRef<int64_t> dims,
                     llvm::ArrayRef<float> values);

  /// A weight; its data is produced by the writer.
  std::string param(std::string name, std::vector<int64_t> dims, Fill fill);

  void input(const std::string &name, int32_t elemType,
             llvm::ArrayRef<int64_t> dims);
  void output(const std::string &name, int32_t elemType,
              llvm::ArrayRef<int64_t> dims);

  std::vector<Parameter> &parameters() { return params; }

private:
  std::string fresh(llvm::StringRef hint);
  onnx::NodeProto &addNode(llvm::StringRef type,
                           llvm::ArrayRef<std::string> inputs,
                           llvm::ArrayRef<Attr> attrs);

  onnx::GraphProto &graph;
  std::vector<Parameter> params;
  std::string scope;
  unsigned counter = 0;
};

} // namespace lpx::models

#endif
