//===- ImportContext.cpp - State shared by the op importers ---------------===//
#include "ImportContext.h"

#include "ConstantFolding.h"
#include "Tensors.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Dialect/Graph/IR/WeightBlobs.h"
#include "lpx/Import/ShapeOnlyWeights.h"

using namespace mlir;

namespace lpx::onnximport {

/// Whether a tensor of these bytes is held in a blob (WeightBlobs.h); i1
/// stays dense, whose bit-packed form the bool API makes.
static bool heldInBlob(const TensorBytes &t) {
  return t.dataType != onnx::TensorProto::BOOL &&
         t.bytes().size() >= graph::kBlobMinBytes;
}

/// The values of a constant with data: a weight's in a blob (viewing the
/// proto's raw_data until adoptBlobs, or taking the decoded bytes), a small
/// constant's in a dense attribute.
static llvm::Expected<ElementsAttr> valuesConstant(GraphState &st,
                                                   const onnx::TensorProto &t,
                                                   llvm::StringRef name) {
  auto fail = [&](llvm::Error e) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "constant '" + name + "': " +
                                       llvm::toString(std::move(e)));
  };
  auto bytes = decodeTensor(t);
  if (!bytes)
    return bytes.takeError();
  if (!heldInBlob(*bytes)) {
    auto attr = toElementsAttr(st.ctx, *bytes);
    if (!attr)
      return fail(attr.takeError());
    return cast<ElementsAttr>(*attr);
  }
  if (ElementsAttr seen = st.blobs.lookup(&t))
    return seen; // the same proto under a second name
  auto elt = elementTypeOf(st.ctx, bytes->dataType);
  if (!elt)
    return fail(elt.takeError());
  auto type = RankedTensorType::get(bytes->shape, *elt);
  ElementsAttr attr;
  if (bytes->borrowed.data()) {
    attr = graph::blobViewing(type, name,
                              ArrayRef<char>(bytes->borrowed.data(),
                                             bytes->borrowed.size()));
    st.viewing.insert(&t);
  } else {
    attr = graph::blobFromString(
        type, name, std::make_unique<std::string>(std::move(bytes->owned)));
  }
  st.blobs[&t] = attr;
  return attr;
}

GraphState::~GraphState() {
  for (auto &[proto, attr] : blobs)
    graph::releaseWeight(attr);
}

void GraphState::adoptBlobs(Operation *root) {
  SmallVector<ElementsAttr> made;
  for (auto &[proto, attr] : blobs)
    made.push_back(attr);
  graph::releaseUnusedWeights(root, made);
  for (auto &[proto, attr] : blobs)
    if (viewing.contains(proto) && graph::isBlobWeight(attr))
      graph::adoptBlob(attr, std::make_unique<std::string>(std::move(
                                 *const_cast<onnx::TensorProto *>(proto)
                                      ->mutable_raw_data())));
  blobs.clear();
  viewing.clear();
}

FailureOr<Value> GraphState::lookup(llvm::StringRef name) {
  auto it = values.find(name);
  if (it != values.end())
    return it->second;
  auto c = constants.find(name);
  if (c == constants.end())
    return failure();
  LocationAttr locAttr = constantLocs.lookup(name);
  Location loc = locAttr ? Location(locAttr)
                         : Location(NameLoc::get(StringAttr::get(&ctx, name)));
  // A shape-only weight becomes a values-free constant; anything else
  // holds its values (valuesConstant).
  llvm::Expected<ElementsAttr> attr =
      isShapeOnlyTensor(*c->second) ? shapeOnlyAttr(ctx, *c->second)
                                    : valuesConstant(*this, *c->second, name);
  if (!attr) {
    emitError(loc) << llvm::toString(attr.takeError());
    ++errors;
    return failure();
  }
  Value v = builder.create<graph::ConstantOp>(loc, attr->getType(), *attr);
  values[name] = v;
  return v;
}

LogicalResult NodeContext::fail(const llvm::Twine &reason) {
  emitError(loc) << "node '" << name << "' (" << node.op_type()
                 << "): " << reason;
  ++st.errors;
  return failure();
}

LogicalResult
NodeContext::withReason(llvm::function_ref<LogicalResult()> rule) {
  std::string reason;
  LogicalResult result = success();
  {
    ScopedDiagnosticHandler capture(&st.ctx, [&](Diagnostic &d) {
      reason = d.str();
      return success();
    });
    result = rule();
  }
  if (failed(result))
    return fail(reason.empty() ? "the operands are not valid" : reason);
  return success();
}

FailureOr<Value> NodeContext::input(unsigned i) {
  if (!hasInput(i))
    return fail("input " + llvm::Twine(i) + " is required but missing");
  // Undefined names were reported by the graph check and poisoned names by
  // the node that failed, so a miss here needs no second message.
  return st.lookup(node.input(i));
}

LogicalResult NodeContext::failNotConstant(unsigned i) {
  return fail("input '" + node.input(i) + "' must be a compile-time constant: " +
              runtimeSource(st, node.input(i)));
}

const onnx::TensorProto *NodeContext::constTensor(unsigned i) const {
  if (!hasInput(i))
    return nullptr;
  return st.constants.lookup(node.input(i));
}

FailureOr<std::vector<double>> NodeContext::constDoubles(unsigned i) {
  if (!hasInput(i))
    return std::vector<double>{};
  const onnx::TensorProto *t = constTensor(i);
  if (!t)
    return failNotConstant(i);
  auto bytes = decodeTensor(*t);
  if (!bytes)
    return fail(llvm::toString(bytes.takeError()));
  auto attr = toElementsAttr(st.ctx, *bytes);
  if (!attr)
    return fail(llvm::toString(attr.takeError()));
  if (!llvm::isa<FloatType>(attr->getElementType()))
    return fail("input " + llvm::Twine(i) + " must be floating-point, not " +
                dataTypeName(bytes->dataType));
  std::vector<double> out;
  for (APFloat f : attr->getValues<APFloat>())
    out.push_back(f.convertToDouble());
  return out;
}

FailureOr<double> NodeContext::constNumber(unsigned i) {
  const onnx::TensorProto *t = constTensor(i);
  if (!t)
    return fail("input " + llvm::Twine(i) + " must be a compile-time constant" +
                (hasInput(i) ? ": " + runtimeSource(st, node.input(i))
                             : std::string()));
  auto bytes = decodeTensor(*t);
  if (!bytes)
    return fail(llvm::toString(bytes.takeError()));
  auto attr = toElementsAttr(st.ctx, *bytes);
  if (!attr || attr->getNumElements() != 1) {
    if (!attr)
      llvm::consumeError(attr.takeError());
    return fail("input " + llvm::Twine(i) + " must be a scalar");
  }
  if (llvm::isa<FloatType>(attr->getElementType()))
    return (*attr->getValues<APFloat>().begin()).convertToDouble();
  return double((*attr->getValues<APInt>().begin()).getSExtValue());
}

Value NodeContext::floatConstant(ArrayRef<int64_t> shape, Type elt,
                                 ArrayRef<double> values) {
  const llvm::fltSemantics &sem = cast<FloatType>(elt).getFloatSemantics();
  SmallVector<APFloat> data;
  data.reserve(values.size());
  for (double v : values) {
    APFloat f(v);
    bool lost;
    f.convert(sem, APFloat::rmNearestTiesToEven, &lost);
    data.push_back(f);
  }
  return create<graph::ConstantOp>(
      DenseElementsAttr::get(tensorOf(shape, elt), data));
}

FailureOr<std::vector<int64_t>> NodeContext::constInts(unsigned i) {
  const onnx::TensorProto *t = constTensor(i);
  if (!t) {
    if (!hasInput(i))
      return fail("input " + llvm::Twine(i) + " is required but missing");
    return failNotConstant(i);
  }
  auto bytes = decodeTensor(*t);
  if (!bytes)
    return fail(llvm::toString(bytes.takeError()));
  auto ints = toInt64s(*bytes);
  if (!ints)
    return fail("input '" + node.input(i) +
                "': " + llvm::toString(ints.takeError()));
  return std::move(*ints);
}

const onnx::AttributeProto *NodeContext::attr(llvm::StringRef attrName) const {
  for (const auto &a : node.attribute())
    if (a.name() == attrName)
      return &a;
  return nullptr;
}

int64_t NodeContext::intAttr(llvm::StringRef attrName, int64_t dflt) const {
  const onnx::AttributeProto *a = attr(attrName);
  return a ? a->i() : dflt;
}

float NodeContext::floatAttr(llvm::StringRef attrName, float dflt) const {
  const onnx::AttributeProto *a = attr(attrName);
  return a ? a->f() : dflt;
}

std::optional<std::vector<int64_t>>
NodeContext::intsAttr(llvm::StringRef attrName) const {
  const onnx::AttributeProto *a = attr(attrName);
  if (!a)
    return std::nullopt;
  return std::vector<int64_t>(a->ints().begin(), a->ints().end());
}

FailureOr<SmallVector<Value>> NodeContext::presentInputs() {
  SmallVector<Value> values;
  for (unsigned i = 0; i < unsigned(node.input_size()); ++i) {
    if (!hasInput(i))
      continue;
    auto v = input(i);
    if (failed(v))
      return failure();
    values.push_back(*v);
  }
  if (values.empty()) {
    (void)fail("needs at least one input");
    return failure();
  }
  return values;
}

FailureOr<std::vector<int64_t>> NodeContext::axes(std::vector<int64_t> list,
                                                 int64_t rank) {
  for (int64_t &a : list) {
    auto norm = axis(a, rank, "axis");
    if (failed(norm))
      return failure();
    a = *norm;
  }
  llvm::sort(list);
  if (std::adjacent_find(list.begin(), list.end()) != list.end()) {
    (void)fail("axes repeat an axis");
    return failure();
  }
  return list;
}

FailureOr<int64_t> NodeContext::axis(int64_t a, int64_t rank,
                                     llvm::StringRef what) {
  if (a < -rank || a >= rank) {
    (void)fail(what + " " + llvm::Twine(a) + " is out of range for rank " +
               llvm::Twine(rank));
    return failure();
  }
  return a < 0 ? a + rank : a;
}

void NodeContext::setOutput(unsigned i, Value v) {
  if (int(i) < node.output_size() && !node.output(i).empty())
    st.values[node.output(i)] = v;
}

LogicalResult NodeContext::setOutput(unsigned i, FailureOr<Value> v) {
  if (failed(v))
    return failure();
  setOutput(i, *v);
  return success();
}

Value NodeContext::reshape(Value v, llvm::ArrayRef<int64_t> shape) {
  auto t = typeOf(v);
  if (t.getShape() == shape)
    return v;
  return create<graph::ReshapeOp>(tensorOf(shape, t.getElementType()), v);
}

Value NodeContext::copy(Value v) {
  return create<graph::ReshapeOp>(v.getType(), v);
}

double NodeContext::numberAttr(llvm::StringRef attrName, double dflt) const {
  const onnx::AttributeProto *a = attr(attrName);
  if (!a)
    return dflt;
  if (a->type() == onnx::AttributeProto::INT)
    return double(a->i());
  return double(a->f());
}

void NodeContext::setConstOutput(unsigned i, onnx::TensorProto t) {
  if (int(i) >= node.output_size() || node.output(i).empty())
    return;
  const std::string &out = node.output(i);
  t.set_name(out);
  st.constants[out] = &st.ownedConstants.emplace_back(std::move(t));
  st.constantLocs[out] = loc;
}

void NodeContext::setConstInts(unsigned i, llvm::ArrayRef<int64_t> shape,
                               llvm::ArrayRef<int64_t> values) {
  onnx::TensorProto t;
  t.set_data_type(onnx::TensorProto::INT64);
  for (int64_t d : shape)
    t.add_dims(d);
  for (int64_t v : values)
    t.add_int64_data(v);
  setConstOutput(i, std::move(t));
}

std::string typeString(mlir::Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

} // namespace lpx::onnximport
