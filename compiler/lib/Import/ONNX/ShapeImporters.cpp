//===- ShapeImporters.cpp - Shape, Size, ConstantOfShape, Range -----------===//
//
// Ops whose value follows from static shapes and constant operands: they
// import as compile-time constants and emit no instruction. What consumes
// them (Gather, Concat, Cast, arithmetic on shape tensors) folds through the
// lpx_graph ops' fold() methods (ConstantFolding.cpp).
//
//===----------------------------------------------------------------------===//
#include "OpImporters.h"
#include "Tensors.h"

#include <algorithm>
#include <cmath>

using namespace mlir;

namespace lpx::onnximport {
namespace {

LogicalResult importShape(NodeContext &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> s = n.typeOf(*x).getShape();
  int64_t rank = s.size();
  int64_t start = n.intAttr("start", 0), end = n.intAttr("end", rank);
  if (start < 0)
    start += rank;
  if (end < 0)
    end += rank;
  start = std::clamp<int64_t>(start, 0, rank);
  end = std::clamp<int64_t>(end, 0, rank);
  std::vector<int64_t> dims;
  for (int64_t d = start; d < end; ++d)
    dims.push_back(s[d]);
  n.setConstInts(0, {int64_t(dims.size())}, dims);
  return success();
}

LogicalResult importSize(NodeContext &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  n.setConstInts(0, {}, {n.typeOf(*x).getNumElements()});
  return success();
}

LogicalResult importConstantOfShape(NodeContext &n) {
  auto shape = n.constInts(0);
  if (failed(shape))
    return failure();
  onnx::TensorProto t;
  std::string one;
  if (const onnx::AttributeProto *a = n.attr("value")) {
    auto bytes = decodeTensor(a->t());
    if (!bytes)
      return n.fail(llvm::toString(bytes.takeError()));
    if (bytes->numElements() != 1)
      return n.fail("value must have one element");
    t.set_data_type(bytes->dataType);
    one = bytes->bytes.str();
  } else {
    t.set_data_type(onnx::TensorProto::FLOAT);
    one.assign(4, '\0');
  }
  int64_t count = 1;
  for (int64_t d : *shape) {
    if (d < 0)
      return n.fail("shape has a negative dim");
    t.add_dims(d);
    count *= d;
  }
  std::string raw;
  raw.reserve(one.size() * count);
  for (int64_t i = 0; i < count; ++i)
    raw += one;
  t.set_raw_data(raw);
  n.setConstOutput(0, std::move(t));
  return success();
}

LogicalResult importRange(NodeContext &n) {
  auto start = n.constNumber(0);
  if (failed(start))
    return failure();
  auto limit = n.constNumber(1);
  if (failed(limit))
    return failure();
  auto delta = n.constNumber(2);
  if (failed(delta))
    return failure();
  if (*delta == 0)
    return n.fail("delta is 0");
  int32_t type = n.constTensor(0)->data_type();
  int64_t count = std::max<int64_t>(
      int64_t(std::ceil((*limit - *start) / *delta)), 0);
  onnx::TensorProto t;
  t.set_data_type(type);
  t.add_dims(count);
  for (int64_t i = 0; i < count; ++i) {
    double v = *start + double(i) * *delta;
    switch (type) {
    case onnx::TensorProto::FLOAT: t.add_float_data(float(v)); break;
    case onnx::TensorProto::DOUBLE: t.add_double_data(v); break;
    case onnx::TensorProto::INT16:
    case onnx::TensorProto::INT32: t.add_int32_data(int32_t(v)); break;
    case onnx::TensorProto::INT64: t.add_int64_data(int64_t(v)); break;
    default: return n.fail("element type of Range is not supported");
    }
  }
  n.setConstOutput(0, std::move(t));
  return success();
}

} // namespace

void addShapeImporters(llvm::StringMap<OpImporter> &table) {
  table["Shape"] = importShape;
  table["Size"] = importSize;
  table["ConstantOfShape"] = importConstantOfShape;
  table["Range"] = importRange;
}

} // namespace lpx::onnximport
