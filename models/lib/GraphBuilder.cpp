//===- GraphBuilder.cpp - Appending ONNX nodes and parameters -------------===//
#include "GraphBuilder.h"

using namespace lpx::models;

uint64_t Parameter::elements() const {
  uint64_t n = 1;
  for (int64_t d : dims)
    n *= uint64_t(d);
  return n;
}

std::string GraphBuilder::fresh(llvm::StringRef hint) {
  std::string base = scope.empty() ? std::string("/") : "/" + scope + "/";
  return base + hint.str() + "_" + std::to_string(counter++);
}

onnx::NodeProto &GraphBuilder::addNode(llvm::StringRef type,
                                       llvm::ArrayRef<std::string> inputs,
                                       llvm::ArrayRef<Attr> attrs) {
  onnx::NodeProto &n = *graph.add_node();
  n.set_op_type(type.str());
  n.set_name(fresh(type));
  for (const std::string &i : inputs)
    n.add_input(i);
  for (const Attr &a : attrs) {
    onnx::AttributeProto &p = *n.add_attribute();
    p.set_name(a.name);
    if (a.f) {
      p.set_type(onnx::AttributeProto::FLOAT);
      p.set_f(*a.f);
    } else if (a.s) {
      p.set_type(onnx::AttributeProto::STRING);
      p.set_s(*a.s);
    } else if (a.list) {
      p.set_type(onnx::AttributeProto::INTS);
      for (int64_t v : a.values)
        p.add_ints(v);
    } else {
      p.set_type(onnx::AttributeProto::INT);
      p.set_i(a.values.front());
    }
  }
  return n;
}

std::string GraphBuilder::op(llvm::StringRef type,
                             llvm::ArrayRef<std::string> inputs,
                             llvm::ArrayRef<Attr> attrs) {
  onnx::NodeProto &n = addNode(type, inputs, attrs);
  n.add_output(n.name() + "_output_0");
  return n.output(0);
}

std::vector<std::string> GraphBuilder::opN(llvm::StringRef type,
                                           llvm::ArrayRef<std::string> inputs,
                                           unsigned outputs,
                                           llvm::ArrayRef<Attr> attrs) {
  onnx::NodeProto &n = addNode(type, inputs, attrs);
  std::vector<std::string> names;
  for (unsigned i = 0; i < outputs; ++i) {
    names.push_back(n.name() + "_output_" + std::to_string(i));
    n.add_output(names.back());
  }
  return names;
}

void GraphBuilder::opNamed(llvm::StringRef type,
                           llvm::ArrayRef<std::string> inputs,
                           const std::string &name,
                           llvm::ArrayRef<Attr> attrs) {
  addNode(type, inputs, attrs).add_output(name);
}

std::vector<std::string>
GraphBuilder::opOutputs(llvm::StringRef type,
                        llvm::ArrayRef<std::string> inputs,
                        std::vector<std::string> outputs,
                        llvm::ArrayRef<Attr> attrs) {
  onnx::NodeProto &n = addNode(type, inputs, attrs);
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].empty())
      outputs[i] = n.name() + "_output_" + std::to_string(i);
    n.add_output(outputs[i]);
  }
  return outputs;
}

std::string GraphBuilder::ints(llvm::ArrayRef<int64_t> values, bool scalar) {
  onnx::TensorProto &t = *graph.add_initializer();
  t.set_name(fresh("const"));
  t.set_data_type(onnx::TensorProto::INT64);
  if (!scalar)
    t.add_dims(int64_t(values.size()));
  for (int64_t v : values)
    t.add_int64_data(v);
  return t.name();
}

std::string GraphBuilder::floats(llvm::StringRef name,
                                 llvm::ArrayRef<int64_t> dims,
                                 llvm::ArrayRef<float> values) {
  onnx::TensorProto &t = *graph.add_initializer();
  t.set_name(name.empty() ? fresh("const") : name.str());
  t.set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims)
    t.add_dims(d);
  for (float v : values)
    t.add_float_data(v);
  return t.name();
}

std::string GraphBuilder::floatScalar(float value) {
  return floats("", {}, {value});
}

std::string GraphBuilder::param(std::string name, std::vector<int64_t> dims,
                                Fill fill) {
  params.push_back({std::move(name), std::move(dims), fill});
  return params.back().name;
}

static void addValueInfo(onnx::ValueInfoProto &v, const std::string &name,
                         int32_t elemType, llvm::ArrayRef<int64_t> dims) {
  v.set_name(name);
  auto &t = *v.mutable_type()->mutable_tensor_type();
  t.set_elem_type(elemType);
  auto &shape = *t.mutable_shape();
  for (int64_t d : dims)
    shape.add_dim()->set_dim_value(d);
}

void GraphBuilder::input(const std::string &name, int32_t elemType,
                         llvm::ArrayRef<int64_t> dims) {
  addValueInfo(*graph.add_input(), name, elemType, dims);
}

void GraphBuilder::output(const std::string &name, int32_t elemType,
                          llvm::ArrayRef<int64_t> dims) {
  addValueInfo(*graph.add_output(), name, elemType, dims);
}
