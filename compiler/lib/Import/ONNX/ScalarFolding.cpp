//===- ScalarFolding.cpp - Fold one-element constant arithmetic -----------===//
//
// Function-expanded models compute trip counts and conditions with a few
// scalar float ops (Range's expansion: Sub, Div, Ceil, Relu, Cast to int64
// and to bool). When every input of such a node is a one-element compile-time
// constant, the node is evaluated here, in the element type's own precision
// (float ops in float, so the result is what the chip would compute), and its
// output becomes a constant. Integer shape arithmetic of rank <= 1 is
// foldIntegerNode's; this covers floats, bools and the casts between them.
//
//===----------------------------------------------------------------------===//
#include "OpImporters.h"
#include "Tensors.h"

#include "llvm/ADT/StringSet.h"

#include <cmath>
#include <cstring>

namespace lpx::onnximport {
namespace {

enum class Kind { Float, Double, Int, Bool, Other };

Kind kindOf(int32_t t) {
  switch (t) {
  case onnx::TensorProto::FLOAT:
    return Kind::Float;
  case onnx::TensorProto::DOUBLE:
    return Kind::Double;
  case onnx::TensorProto::INT32:
  case onnx::TensorProto::INT64:
    return Kind::Int;
  case onnx::TensorProto::BOOL:
    return Kind::Bool;
  default:
    return Kind::Other;
  }
}

/// One element held in the widest form of its kind.
struct Scalar {
  Kind kind;
  double f = 0; // Float (exactly a float) and Double
  int64_t i = 0; // Int and Bool
  double asDouble() const {
    return kind == Kind::Float || kind == Kind::Double ? f : double(i);
  }
};

std::optional<Scalar> readScalar(const onnx::TensorProto &t) {
  Kind k = kindOf(t.data_type());
  if (k == Kind::Other)
    return std::nullopt;
  auto bytes = decodeTensor(t);
  if (!bytes) {
    llvm::consumeError(bytes.takeError());
    return std::nullopt;
  }
  if (bytes->numElements() != 1)
    return std::nullopt;
  Scalar s{k};
  if (k == Kind::Float) {
    float v;
    std::memcpy(&v, bytes->bytes.data(), sizeof v);
    s.f = v;
  } else if (k == Kind::Double) {
    std::memcpy(&s.f, bytes->bytes.data(), sizeof s.f);
  } else {
    auto ints = toInt64s(*bytes);
    if (!ints) {
      llvm::consumeError(ints.takeError());
      return std::nullopt;
    }
    s.i = (*ints)[0];
  }
  return s;
}

/// Rounds to the precision of `k` (float arithmetic is float arithmetic).
double round(Kind k, double v) { return k == Kind::Float ? double(float(v)) : v; }
/// Unary or binary float `op` (Add, Sub, Mul, Div, Max, Min, Neg, Abs,
/// Ceil, Floor, Relu) in T; `y` is ignored by the unary ones.
template <typename T> T applyFloat(llvm::StringRef op, T x, T y) {
  return op == "Add"     ? x + y
         : op == "Sub"   ? x - y
         : op == "Mul"   ? x * y
         : op == "Div"   ? x / y
         : op == "Max"   ? std::fmax(x, y)
         : op == "Min"   ? std::fmin(x, y)
         : op == "Neg"   ? -x
         : op == "Abs"   ? std::fabs(x)
         : op == "Ceil"  ? std::ceil(x)
         : op == "Floor" ? std::floor(x)
                         : (x > 0 ? x : T(0)); // Relu
}

} // namespace

bool foldScalarNode(NodeContext &n) {
  static const llvm::StringSet<> foldable = {
      "Identity", "Add", "Sub", "Mul", "Div", "Neg", "Abs", "Ceil",
      "Floor",    "Relu", "Cast", "Max", "Min"};
  const std::string &op = n.node.op_type();
  if (!foldable.contains(op) || n.node.output_size() != 1 ||
      n.node.input_size() == 0)
    return false;
  std::vector<Scalar> in;
  std::vector<int64_t> shape;
  int32_t type = 0;
  for (int i = 0; i < n.node.input_size(); ++i) {
    const onnx::TensorProto *t = n.constTensor(i);
    if (!t)
      return false;
    auto s = readScalar(*t);
    if (!s)
      return false;
    if (i == 0)
      type = t->data_type();
    else if (t->data_type() != type)
      return false;
    if (t->dims_size() >= int(shape.size()))
      shape.assign(t->dims().begin(), t->dims().end());
    in.push_back(*s);
  }
  const Kind k = in[0].kind;
  Scalar r{k};
  const bool binary = op == "Add" || op == "Sub" || op == "Mul" ||
                      op == "Div" || op == "Max" || op == "Min";
  if (binary != (in.size() == 2) || (!binary && op != "Cast" && in.size() != 1))
    return false;
  if (op == "Cast") {
    const onnx::AttributeProto *to = n.attr("to");
    if (!to || to->type() != onnx::AttributeProto::INT ||
        n.node.input_size() != 1)
      return false;
    type = int32_t(to->i());
    Kind rk = kindOf(type);
    r.kind = rk;
    if (rk == Kind::Other)
      return false;
    if (rk == Kind::Bool) {
      r.i = k == Kind::Float || k == Kind::Double ? in[0].f != 0 : in[0].i != 0;
    } else if (rk == Kind::Int) {
      double v = in[0].asDouble();
      if (k == Kind::Float || k == Kind::Double) {
        if (!std::isfinite(v) || std::fabs(v) >= 9.2e18)
          return false; // out of range: left to the run-time cast
        r.i = int64_t(std::trunc(v));
      } else {
        r.i = in[0].i;
      }
      if (type == onnx::TensorProto::INT32)
        r.i = int32_t(r.i);
    } else {
      r.f = round(rk, in[0].asDouble());
    }
  } else if (op == "Identity") {
    r = in[0];
  } else if (k == Kind::Bool) {
    return false; // arithmetic on bools is not ONNX
  } else if (k == Kind::Int) {
    int64_t x = in[0].i, y = in.size() > 1 ? in[1].i : 0;
    if (op == "Ceil" || op == "Floor" || (op == "Div" && y == 0))
      return false;
    r.i = op == "Add"   ? x + y
          : op == "Sub" ? x - y
          : op == "Mul" ? x * y
          : op == "Div" ? x / y
          : op == "Max" ? std::max(x, y)
          : op == "Min" ? std::min(x, y)
          : op == "Neg" ? -x
          : op == "Abs" ? std::abs(x)
                        : std::max<int64_t>(x, 0); // Relu
    if (type == onnx::TensorProto::INT32)
      r.i = int32_t(r.i);
  } else {
    double x = in[0].f, y = in.size() > 1 ? in[1].f : 0;
    // In the element type's own precision, as the chip would compute it.
    r.f = k == Kind::Float ? double(applyFloat<float>(op, float(x), float(y)))
                           : applyFloat<double>(op, x, y);
    if ((op == "Max" || op == "Min") && (std::isnan(x) || std::isnan(y)))
      return false; // NaN propagation: left to the run-time op
  }

  onnx::TensorProto t;
  t.set_data_type(type);
  for (int64_t d : shape)
    t.add_dims(d);
  switch (r.kind) {
  case Kind::Float:
    t.add_float_data(float(r.f));
    break;
  case Kind::Double:
    t.add_double_data(r.f);
    break;
  case Kind::Int:
    if (type == onnx::TensorProto::INT64)
      t.add_int64_data(r.i);
    else
      t.add_int32_data(int32_t(r.i));
    break;
  case Kind::Bool:
    t.add_int32_data(r.i ? 1 : 0);
    break;
  case Kind::Other:
    return false;
  }
  n.setConstOutput(0, std::move(t));
  return true;
}

} // namespace lpx::onnximport
