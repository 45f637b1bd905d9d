//===- OpsetRewrite.cpp - Reading and replacing one newer-opset node ------===//
#include "OpsetRewrite.h"

#include "Tensors.h"

#include <set>

namespace lpx::onnximport {

const onnx::AttributeProto *NodeRewriter::attr(const std::string &name) const {
  for (const auto &a : node.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

int64_t NodeRewriter::intAttr(const std::string &name, int64_t dflt) const {
  const auto *a = attr(name);
  return a ? a->i() : dflt;
}

float NodeRewriter::floatAttr(const std::string &name, float dflt) const {
  const auto *a = attr(name);
  return a ? a->f() : dflt;
}

std::string NodeRewriter::stringAttr(const std::string &name,
                                     const std::string &dflt) const {
  const auto *a = attr(name);
  return a ? a->s() : dflt;
}

std::string NodeRewriter::input(int i) const {
  return i < node.input_size() ? node.input(i) : std::string();
}

static const onnx::TensorProto *lookupConstant(const GraphFacts &f,
                                               const std::string &name) {
  auto it = f.constants.find(name);
  return it == f.constants.end() ? nullptr : it->second;
}

std::optional<std::vector<int64_t>> NodeRewriter::constInts(int i) {
  std::string name = input(i);
  const onnx::TensorProto *t = lookupConstant(facts, name);
  if (!t) {
    error = "input '" + name + "' must be a compile-time constant";
    return std::nullopt;
  }
  auto bytes = decodeTensor(*t);
  if (!bytes) {
    error = "input '" + name + "': " + llvm::toString(bytes.takeError());
    return std::nullopt;
  }
  auto v = toInt64s(*bytes);
  if (!v) {
    error = "input '" + name + "': " + llvm::toString(v.takeError());
    return std::nullopt;
  }
  return *v;
}

std::optional<std::vector<float>> NodeRewriter::constFloats(int i) {
  std::string name = input(i);
  const onnx::TensorProto *t = lookupConstant(facts, name);
  if (!t || t->data_type() != onnx::TensorProto::FLOAT) {
    error = "input '" + name + "' must be a float32 compile-time constant";
    return std::nullopt;
  }
  auto bytes = decodeTensor(*t);
  if (!bytes) {
    error = "input '" + name + "': " + llvm::toString(bytes.takeError());
    return std::nullopt;
  }
  std::vector<float> v(bytes->numElements());
  std::memcpy(v.data(), bytes->bytes().data(), v.size() * sizeof(float));
  return v;
}

std::optional<std::vector<int64_t>>
NodeRewriter::dims(const std::string &value) const {
  auto it = facts.types.find(value);
  if (it == facts.types.end() || !it->second.has_tensor_type() ||
      !it->second.tensor_type().has_shape())
    return std::nullopt;
  std::vector<int64_t> d;
  for (const auto &dim : it->second.tensor_type().shape().dim()) {
    if (!dim.has_dim_value())
      return std::nullopt;
    d.push_back(dim.dim_value());
  }
  return d;
}

int32_t NodeRewriter::elemType(const std::string &value) const {
  auto it = facts.types.find(value);
  if (it == facts.types.end() || !it->second.has_tensor_type())
    return 0;
  return it->second.tensor_type().elem_type();
}

std::string NodeRewriter::fresh(const std::string &tag) {
  return node.name() + "/" + tag + "_" + std::to_string(counter++);
}

onnx::NodeProto &NodeRewriter::keep() {
  out.push_back(node);
  return out.back();
}

std::string NodeRewriter::add(const std::string &op,
                              std::vector<std::string> inputs,
                              std::string output) {
  onnx::NodeProto &n = out.emplace_back();
  n.set_op_type(op);
  n.set_name(fresh(op));
  for (auto &in : inputs)
    n.add_input(in);
  if (output.empty())
    output = n.name();
  n.add_output(output);
  return output;
}

void NodeRewriter::setInt(onnx::NodeProto &n, const std::string &name,
                          int64_t v) {
  auto *a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
}

void NodeRewriter::setInts(onnx::NodeProto &n, const std::string &name,
                           const std::vector<int64_t> &v) {
  auto *a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (int64_t x : v)
    a->add_ints(x);
}

void NodeRewriter::setFloat(onnx::NodeProto &n, const std::string &name,
                            float v) {
  auto *a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::FLOAT);
  a->set_f(v);
}

void NodeRewriter::setString(onnx::NodeProto &n, const std::string &name,
                             const std::string &v) {
  auto *a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::STRING);
  a->set_s(v);
}

std::string NodeRewriter::ints(const std::vector<int64_t> &v, bool scalar) {
  onnx::TensorProto *t = graph.add_initializer();
  t->set_name(fresh("const"));
  t->set_data_type(onnx::TensorProto::INT64);
  if (!scalar)
    t->add_dims(int64_t(v.size()));
  for (int64_t x : v)
    t->add_int64_data(x);
  facts.constants[t->name()] = t;
  return t->name();
}

const onnx::TensorProto *
NodeRewriter::constant(const std::string &name) const {
  return lookupConstant(facts, name);
}

onnx::TensorProto *
NodeRewriter::newInitializer(int32_t elemType,
                             const std::vector<int64_t> &dims) {
  onnx::TensorProto *t = graph.add_initializer();
  t->set_name(fresh("const"));
  t->set_data_type(elemType);
  for (int64_t d : dims)
    t->add_dims(d);
  return t;
}

std::string NodeRewriter::floats(const std::vector<float> &v,
                                 const std::vector<int64_t> &shape,
                                 int32_t elemType) {
  onnx::TensorProto *t = newInitializer(onnx::TensorProto::FLOAT, shape);
  for (float x : v)
    t->add_float_data(x);
  std::string name = t->name();
  if (elemType != 0 && elemType != onnx::TensorProto::FLOAT) {
    name = add("Cast", {name});
    setInt(last(), "to", elemType);
  }
  return name;
}

std::string NodeRewriter::scalar(float v, int32_t elemType) {
  return floats({v}, {}, elemType);
}

const onnx::NodeProto *
NodeRewriter::producer(const std::string &value) const {
  for (const onnx::NodeProto &n : graph.node())
    for (const std::string &out : n.output())
      if (out == value)
        return &n;
  return nullptr;
}

std::string NodeRewriter::sharedValue(const std::string &what,
                                      const std::function<std::string()> &make) {
  if (&graph != facts.mainGraph)
    return make();
  auto it = facts.shared.find(what);
  if (it != facts.shared.end())
    return it->second;
  std::string v = make();
  facts.shared[what] = v;
  return v;
}

bool NodeRewriter::normaliseAxes(std::vector<int64_t> &axes, int64_t rank) {
  std::set<int64_t> seen;
  for (int64_t &a : axes) {
    if (a < -rank || a >= rank) {
      error = "axis " + std::to_string(a) + " is out of range for rank " +
              std::to_string(rank);
      return false;
    }
    if (a < 0)
      a += rank;
    if (!seen.insert(a).second) {
      error = "axis " + std::to_string(a) + " is repeated";
      return false;
    }
  }
  return true;
}

Rewrite NodeRewriter::inputAxes(std::vector<int64_t> &dims,
                                std::vector<int64_t> &axes) {
  auto d = this->dims(input(0));
  if (!d)
    return Rewrite::NeedTypes;
  dims = std::move(*d);
  int64_t rank = int64_t(dims.size());
  axes.clear();
  if (const onnx::AttributeProto *a = attr("axes"))
    axes.assign(a->ints().begin(), a->ints().end());
  else
    for (int64_t i = 0; i < rank; ++i)
      axes.push_back(i);
  return normaliseAxes(axes, rank) ? Rewrite::Done : Rewrite::Failed;
}

std::vector<int64_t> NodeRewriter::intsAttrOr(const std::string &name,
                                              int64_t dflt,
                                              size_t count) const {
  std::vector<int64_t> v(count, dflt);
  if (const onnx::AttributeProto *a = attr(name))
    if (size_t(a->ints_size()) == count)
      v.assign(a->ints().begin(), a->ints().end());
  return v;
}

} // namespace lpx::onnximport
