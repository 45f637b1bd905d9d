//===- ShapeResolution.cpp - Static types for an ONNX graph ---------------===//
#include "ShapeResolution.h"

#include "lpx/Import/ShapeOnlyWeights.h"

#include "InferenceGuards.h"
#include "ModelLoader.h"
#include "Tensors.h"

#include "mlir/IR/Diagnostics.h"

#include "onnx/shape_inference/implementation.h"
#include "onnx/version_converter/convert.h"

#include <limits>

using namespace mlir;

namespace lpx::onnximport {

static std::string dimsString(const onnx::TensorShapeProto &shape) {
  std::string s;
  for (int i = 0; i < shape.dim_size(); ++i) {
    const auto &d = shape.dim(i);
    s += i ? "x" : "";
    s += d.has_dim_value() ? std::to_string(d.dim_value())
         : d.has_dim_param() ? d.dim_param()
                             : std::string("?");
  }
  return s.empty() ? "scalar" : s;
}

static onnx::ValueInfoProto *findInput(onnx::GraphProto &g,
                                       const std::string &name, int *index) {
  for (int i = 0; i < g.input_size(); ++i)
    if (g.input(i).name() == name) {
      *index = i;
      return g.mutable_input(i);
    }
  return nullptr;
}

LogicalResult
foldConstInputs(onnx::ModelProto &model,
                const std::map<std::string, std::string> &constInputs,
                Location fileLoc) {
  onnx::GraphProto &g = *model.mutable_graph();
  bool ok = true;
  for (const auto &[name, file] : constInputs) {
    int index = -1;
    onnx::ValueInfoProto *vi = findInput(g, name, &index);
    if (!vi) {
      emitError(fileLoc) << "constant input '" << name
                         << "' is not a graph input of the model";
      ok = false;
      continue;
    }
    auto tensor = loadTensorFile(file);
    if (!tensor) {
      emitError(fileLoc) << "constant input '" << name
                         << "': " << llvm::toString(tensor.takeError());
      ok = false;
      continue;
    }
    const auto &tt = vi->type().tensor_type();
    if (tt.elem_type() != 0 && tt.elem_type() != tensor->data_type()) {
      emitError(fileLoc) << "constant input '" << name << "' is "
                         << dataTypeName(tensor->data_type())
                         << " but the model declares "
                         << dataTypeName(tt.elem_type());
      ok = false;
      continue;
    }
    if (tt.has_shape()) {
      bool match = tt.shape().dim_size() == tensor->dims_size();
      for (int d = 0; match && d < tensor->dims_size(); ++d)
        if (tt.shape().dim(d).has_dim_value() &&
            tt.shape().dim(d).dim_value() != tensor->dims(d))
          match = false;
      if (!match) {
        std::vector<int64_t> dims(tensor->dims().begin(),
                                  tensor->dims().end());
        emitError(fileLoc) << "constant input '" << name << "' has shape "
                           << shapeString(dims) << " but the model declares "
                           << dimsString(tt.shape());
        ok = false;
        continue;
      }
    }
    tensor->set_name(name);
    *g.add_initializer() = std::move(*tensor);
    g.mutable_input()->DeleteSubrange(index, 1);
  }
  return success(ok);
}

LogicalResult
applyInputShapes(onnx::ModelProto &model,
                 const std::map<std::string, std::vector<int64_t>> &shapes,
                 Location fileLoc) {
  onnx::GraphProto &g = *model.mutable_graph();
  bool ok = true;
  for (const auto &[name, dims] : shapes) {
    int index = -1;
    onnx::ValueInfoProto *vi = findInput(g, name, &index);
    if (!vi) {
      emitError(fileLoc) << "--input-shape names '" << name
                         << "', which is not a graph input of the model";
      ok = false;
      continue;
    }
    auto *tt = vi->mutable_type()->mutable_tensor_type();
    if (tt->has_shape() && tt->shape().dim_size() != int(dims.size())) {
      emitError(fileLoc) << "--input-shape " << name << "=" << shapeString(dims)
                         << " has rank " << dims.size() << " but input '"
                         << name << "' has rank " << tt->shape().dim_size()
                         << " (" << dimsString(tt->shape()) << ")";
      ok = false;
      continue;
    }
    if (!tt->has_shape())
      for (size_t i = 0; i < dims.size(); ++i)
        tt->mutable_shape()->add_dim();
    for (size_t i = 0; i < dims.size(); ++i) {
      auto *d = tt->mutable_shape()->mutable_dim(int(i));
      if (dims[i] < 0) {
        emitError(fileLoc) << "--input-shape " << name << ": dim " << i
                           << " is negative";
        ok = false;
      } else if (d->has_dim_value() && d->dim_value() != dims[i]) {
        emitError(fileLoc) << "--input-shape " << name << "="
                           << shapeString(dims) << " conflicts with dim " << i
                           << " of input '" << name << "', fixed to "
                           << d->dim_value() << " by the model";
        ok = false;
      } else {
        d->set_dim_value(dims[i]);
      }
    }
  }
  return success(ok);
}

/// ONNX 1.12's STFT shape inference reads a missing onesided attribute as 0
/// although the schema's default is 1 (it then infers frame_length bins where
/// the model declares frame_length / 2 + 1): spell the default out.
static void pinStftOnesided(onnx::GraphProto &g) {
  for (onnx::NodeProto &node : *g.mutable_node()) {
    for (onnx::AttributeProto &a : *node.mutable_attribute())
      if (a.has_g())
        pinStftOnesided(*a.mutable_g());
    if (node.op_type() != "STFT" ||
        !(node.domain().empty() || node.domain() == "ai.onnx"))
      continue;
    bool has = false;
    for (const onnx::AttributeProto &a : node.attribute())
      has |= a.name() == "onesided";
    if (has)
      continue;
    onnx::AttributeProto *a = node.add_attribute();
    a->set_name("onesided");
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(1);
  }
}

/// One line of an ONNX message: its validation errors append node dumps.
static std::string firstLine(llvm::StringRef s) {
  return s.split('\n').first.rtrim().str();
}

/// Scan's input count against its num_scan_inputs: Scan-8's first input is
/// sequence_lens, the rest loop state then scan inputs; from Scan-9 on there
/// is no sequence_lens. ONNX counts the loop state in size_t.
static std::string checkScanCounts(const onnx::NodeProto &node,
                                   int sinceVersion) {
  int64_t scanInputs = -1;
  for (const onnx::AttributeProto &a : node.attribute())
    if (a.name() == "num_scan_inputs")
      scanInputs = a.i();
  int64_t available = node.input_size() - (sinceVersion < 9 ? 1 : 0);
  if (scanInputs >= 1 && scanInputs <= available)
    return "";
  return "num_scan_inputs is " + std::to_string(scanInputs) +
         " but the node has " + std::to_string(available) +
         " loop state and scan input(s)";
}

/// An axis attribute beyond 32 bits: ONNX 1.12's inference functions cast
/// `axis` to int before comparing it with the rank (LayerNormalization then
/// indexes dim -1 of a shape).
static std::string checkAxisWidth(const onnx::NodeProto &node) {
  auto wide = [](int64_t v) {
    return v < std::numeric_limits<int32_t>::min() ||
           v > std::numeric_limits<int32_t>::max();
  };
  for (const onnx::AttributeProto &a : node.attribute()) {
    if (a.name() == "axis" && wide(a.i()))
      return "axis " + std::to_string(a.i()) + " is out of range";
    if (a.name() == "axes")
      for (int64_t v : a.ints())
        if (wide(v))
          return "axes entry " + std::to_string(v) + " is out of range";
  }
  return "";
}

std::string nodeInferenceProblem(const onnx::NodeProto &node, int64_t opset) {
  if (!(node.domain().empty() || node.domain() == "ai.onnx"))
    return "";
  const onnx::OpSchema *schema =
      onnx::OpSchemaRegistry::Schema(node.op_type(), int(opset));
  if (!schema)
    return ""; // inference reports unknown operators itself
  try {
    schema->Verify(node);
  } catch (const std::exception &e) {
    return firstLine(e.what());
  }
  if (node.op_type() == "Scan")
    if (std::string p = checkScanCounts(node, schema->SinceVersion());
        !p.empty())
      return p;
  return checkAxisWidth(node);
}

/// ONNX 1.12's inference functions trust the schema (Scan-8 reads its
/// num_scan_inputs attribute through an unchecked pointer): every
/// default-domain node, subgraphs included, is checked before any
/// inference. The first violation, naming the node, in `error`.
static bool checkNodeSchemas(const onnx::GraphProto &g, int64_t opset,
                             std::string &error) {
  for (int i = 0; i < g.node_size(); ++i) {
    const onnx::NodeProto &node = g.node(i);
    for (const onnx::AttributeProto &a : node.attribute()) {
      if (a.has_g() && !checkNodeSchemas(a.g(), opset, error))
        return false;
      for (const onnx::GraphProto &sub : a.graphs())
        if (!checkNodeSchemas(sub, opset, error))
          return false;
    }
    std::string problem = nodeInferenceProblem(node, opset);
    if (!problem.empty()) {
      error = "node '" +
              (node.name().empty() ? node.op_type() + "_" + std::to_string(i)
                                   : node.name()) +
              "' (" + node.op_type() + "): " + problem;
      return false;
    }
  }
  return true;
}

/// ONNX shape inference (strict, with data propagation); false and the
/// message in `error` when ONNX rejects the model.
static bool inferShapes(onnx::ModelProto &model, std::string &error) {
  installInferenceGuards();
  try {
    onnx::ShapeInferenceOptions options(/*check_type=*/true,
                                        /*strict_mode=*/1,
                                        /*data_prop=*/true);
    onnx::shape_inference::InferShapes(
        model, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception &e) {
    error = e.what();
    return false;
  }
  return true;
}

LogicalResult runShapeInference(onnx::ModelProto &model, int64_t &opset,
                                Location fileLoc) {
  pinStftOnesided(*model.mutable_graph());
  std::string error;
  if (!checkNodeSchemas(model.graph(), opset, error))
    return emitError(fileLoc) << error;
  if (inferShapes(model, error))
    return success();
  // Old models that runtimes accept can fail ONNX 1.12's strict checks (an
  // int64 Constant before opset 9, whose schema listed only floats). ONNX's
  // own version converter rewrites them, old broadcasting included, to the
  // first opset whose inference accepts them.
  for (int64_t target : {int64_t(9), int64_t(13)}) {
    if (target <= opset)
      continue;
    try {
      onnx::ModelProto converted =
          onnx::version_conversion::ConvertVersion(model, int(target));
      std::string ignored;
      if (!inferShapes(converted, ignored))
        continue;
      // Swap the graph's contents, not the object: callers hold it.
      model.mutable_graph()->Swap(converted.mutable_graph());
      *model.mutable_opset_import() = converted.opset_import();
      opset = target;
      return success();
    } catch (const std::exception &) {
      // No adapter for some node: report the original problem.
    }
  }
  // ONNX names the tensor whose data it wanted; for a shape-only weight
  // say that, not "load external data".
  llvm::StringRef what = error;
  size_t at = what.find("external data into raw data for tensor: ");
  if (at != llvm::StringRef::npos) {
    llvm::StringRef name =
        what.drop_front(at).split(": ").second.split('\n').first.trim();
    for (const onnx::TensorProto &t : model.graph().initializer())
      if (t.name() == name && isShapeOnlyTensor(t))
        return emitError(fileLoc)
               << "initializer '" << name << "' is shape-only (external "
               << "data '" << kShapeOnlyLocation << "'), but a node needs "
               << "its values to infer shapes (keep shapes, axes and "
                  "scalars real)";
  }
  return emitError(fileLoc) << "ONNX shape inference failed: " << error;
}

FailureOr<RankedTensorType> graphInputType(MLIRContext &ctx,
                                           const onnx::ValueInfoProto &vi,
                                           Location loc) {
  const std::string &name = vi.name();
  if (!vi.type().has_tensor_type())
    return emitError(loc) << "graph input '" << name
                          << "' is not a tensor (sequences, maps and "
                             "optionals are not supported)";
  const auto &tt = vi.type().tensor_type();
  auto elt = elementTypeOf(ctx, tt.elem_type());
  if (!elt)
    return emitError(loc) << "graph input '" << name
                          << "': " << llvm::toString(elt.takeError());
  if (!tt.has_shape())
    return emitError(loc) << "graph input '" << name
                          << "' has no shape; fix it with --input-shape "
                          << name << "=dims";
  SmallVector<int64_t> dims;
  SmallVector<int64_t> example;
  std::string unknown;
  for (int i = 0; i < tt.shape().dim_size(); ++i) {
    const auto &d = tt.shape().dim(i);
    if (d.has_dim_value() && d.dim_value() >= 0) {
      dims.push_back(d.dim_value());
      example.push_back(d.dim_value());
      continue;
    }
    if (!unknown.empty())
      unknown += ", ";
    unknown += std::to_string(i);
    if (d.has_dim_param())
      unknown += " ('" + d.dim_param() + "')";
    example.push_back(1);
  }
  if (!unknown.empty())
    return emitError(loc) << "graph input '" << name << "' ("
                          << dimsString(tt.shape()) << ") has unknown dim "
                          << unknown << "; fix it with --input-shape " << name
                          << "=dims, for example --input-shape " << name << "="
                          << shapeString(example);
  return RankedTensorType::get(dims, *elt);
}

std::optional<RankedTensorType> knownStaticType(MLIRContext &ctx,
                                                const onnx::TypeProto &type) {
  if (!type.has_tensor_type() || !type.tensor_type().has_shape())
    return std::nullopt;
  auto elt = elementTypeOf(ctx, type.tensor_type().elem_type());
  if (!elt) {
    llvm::consumeError(elt.takeError());
    return std::nullopt;
  }
  SmallVector<int64_t> dims;
  for (const auto &d : type.tensor_type().shape().dim()) {
    if (!d.has_dim_value())
      return std::nullopt;
    dims.push_back(d.dim_value());
  }
  return RankedTensorType::get(dims, *elt);
}

} // namespace lpx::onnximport
