//===- FloatFolding.cpp - Folding of floating-point scalar arithmetic -----===//
//
// Function-expanded models (the window functions' expansions) compute a
// size in floating point from a constant integer: Cast to float, then
// Add / Sub / Mul / Div with float scalars, and feed it to Range, which needs
// compile-time bounds. foldFloatScalarNode evaluates such nodes when every
// input is a one-element constant, in the result's own precision (float32
// or float64 IEEE arithmetic, the same operations the chip would perform),
// so the folded value is exactly what running the node would give. Tensors
// with more elements are left to the regular importers.
//
//===----------------------------------------------------------------------===//
#include "OpImporters.h"
#include "Tensors.h"

#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <cstring>
#include <optional>

namespace lpx::onnximport {
namespace {

struct Scalar {
  int32_t type;
  int64_t rank;
  double value; // exact for float, double and the integers folded here
};

std::optional<Scalar> readScalar(const onnx::TensorProto *t) {
  if (!t)
    return std::nullopt;
  int32_t type = t->data_type();
  bool isFloat =
      type == onnx::TensorProto::FLOAT || type == onnx::TensorProto::DOUBLE;
  bool isInt =
      type == onnx::TensorProto::INT32 || type == onnx::TensorProto::INT64;
  if (!isFloat && !isInt)
    return std::nullopt;
  auto bytes = decodeTensor(*t);
  if (!bytes) {
    llvm::consumeError(bytes.takeError());
    return std::nullopt;
  }
  if (bytes->numElements() != 1)
    return std::nullopt;
  Scalar s{type, int64_t(bytes->shape.size()), 0};
  if (type == onnx::TensorProto::FLOAT) {
    float f;
    std::memcpy(&f, bytes->bytes.data(), 4);
    s.value = f;
  } else if (type == onnx::TensorProto::DOUBLE) {
    std::memcpy(&s.value, bytes->bytes.data(), 8);
  } else {
    auto ints = toInt64s(*bytes);
    if (!ints) {
      llvm::consumeError(ints.takeError());
      return std::nullopt;
    }
    // Beyond 2^53 a double would not hold the integer exactly.
    if ((*ints)[0] > (int64_t(1) << 53) || (*ints)[0] < -(int64_t(1) << 53))
      return std::nullopt;
    s.value = double((*ints)[0]);
  }
  return s;
}

template <typename T> T apply(llvm::StringRef op, T a, T b) {
  if (op == "Add")
    return a + b;
  if (op == "Sub")
    return a - b;
  if (op == "Mul")
    return a * b;
  return a / b;
}

} // namespace

bool foldFloatScalarNode(NodeContext &n) {
  static const llvm::StringSet<> foldable = {"Add", "Sub", "Mul", "Div",
                                             "Neg", "Cast"};
  const std::string &op = n.node.op_type();
  if (!foldable.contains(op) || n.node.output_size() != 1)
    return false;
  const int arity = (op == "Neg" || op == "Cast") ? 1 : 2;
  if (n.node.input_size() != arity)
    return false;
  std::vector<Scalar> in;
  for (int i = 0; i < arity; ++i) {
    auto s = readScalar(n.constTensor(i));
    if (!s)
      return false;
    in.push_back(*s);
  }
  int32_t type = in[0].type;
  double result;
  if (op == "Cast") {
    const onnx::AttributeProto *to = n.attr("to");
    if (!to || to->type() != onnx::AttributeProto::INT ||
        (to->i() != onnx::TensorProto::FLOAT &&
         to->i() != onnx::TensorProto::DOUBLE))
      return false;
    type = int32_t(to->i());
    result = in[0].value;
  } else {
    // Float arithmetic only (integers are foldIntegerNode's), one type.
    if (type != onnx::TensorProto::FLOAT && type != onnx::TensorProto::DOUBLE)
      return false;
    if (arity == 2 && in[1].type != type)
      return false;
    if (op == "Neg")
      result = -in[0].value;
    else if (type == onnx::TensorProto::FLOAT)
      result = apply<float>(op, float(in[0].value), float(in[1].value));
    else
      result = apply<double>(op, in[0].value, in[1].value);
  }
  onnx::TensorProto t;
  t.set_data_type(type);
  int64_t rank = in[0].rank;
  for (const Scalar &s : in)
    rank = std::max(rank, s.rank);
  for (int64_t d = 0; d < rank; ++d)
    t.add_dims(1);
  if (type == onnx::TensorProto::FLOAT)
    t.add_float_data(float(result));
  else
    t.add_double_data(result);
  n.setConstOutput(0, std::move(t));
  return true;
}

} // namespace lpx::onnximport
