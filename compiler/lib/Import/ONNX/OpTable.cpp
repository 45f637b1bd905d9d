//===- OpTable.cpp - ONNX op type -> importer, and Constant ---------------===//
#include "OpImporters.h"

#include "llvm/ADT/StringMap.h"

using namespace mlir;

namespace lpx::onnximport {

LogicalResult importConstant(NodeContext &n) {
  if (n.node.attribute_size() != 1)
    return n.fail("expected exactly one value attribute");
  const onnx::AttributeProto &a = n.node.attribute(0);
  const onnx::TensorProto *value = nullptr;
  if (a.name() == "value") {
    value = &a.t();
  } else {
    // The scalar and list forms (opset 12) become float32 / int64 tensors.
    onnx::TensorProto &t = n.st.ownedConstants.emplace_back();
    if (a.name() == "value_float") {
      t.set_data_type(onnx::TensorProto::FLOAT);
      t.add_float_data(a.f());
    } else if (a.name() == "value_floats") {
      t.set_data_type(onnx::TensorProto::FLOAT);
      t.add_dims(a.floats_size());
      *t.mutable_float_data() = a.floats();
    } else if (a.name() == "value_int") {
      t.set_data_type(onnx::TensorProto::INT64);
      t.add_int64_data(a.i());
    } else if (a.name() == "value_ints") {
      t.set_data_type(onnx::TensorProto::INT64);
      t.add_dims(a.ints_size());
      *t.mutable_int64_data() = a.ints();
    } else {
      return n.fail("attribute '" + a.name() +
                    "' is not supported (sparse and string constants)");
    }
    value = &t;
  }
  if (n.node.output_size() < 1 || n.node.output(0).empty())
    return success();
  // Like initializers, the op is built at the first tensor use, so constants
  // that only feed shapes or axes leave no trace in the IR.
  const std::string &out = n.node.output(0);
  n.st.constants[out] = value;
  n.st.constantLocs[out] = n.loc;
  return success();
}

static llvm::StringMap<OpImporter> makeTable() {
  llvm::StringMap<OpImporter> t = {
      {"Add", importAdd},
      {"Cast", importCast},
      {"Concat", importConcat},
      {"Constant", importConstant},
      {"Div", importDiv},
      {"Gather", importGather},
      {"Gemm", importGemm},
      {"MatMul", importMatMul},
      {"Mul", importMul},
      {"Neg", importNeg},
      {"Pow", importPow},
      {"ReduceMean", importReduceMean},
      {"Relu", importRelu},
      {"Reshape", importReshape},
      {"Sigmoid", importSigmoid},
      {"Slice", importSlice},
      {"Sqrt", importSqrt},
      {"Squeeze", importSqueeze},
      {"Sub", importSub},
      {"Tanh", importTanh},
      {"Transpose", importTranspose},
      {"Unsqueeze", importUnsqueeze},
      {"Where", importWhere},
  };
  addElementwiseImporters(t);
  addReductionImporters(t);
  addLinearAlgebraImporters(t);
  addDataMovementImporters(t);
  addShapeImporters(t);
  addConvImporters(t);
  addSelectionImporters(t);
  addEinsumImporter(t);
  addResizeImporters(t);
  addQuantImporters(t);
  addControlFlowImporters(t);
  addRecurrentImporters(t);
  addSignalImporters(t);
  addGatherScatterImporters(t);
  return t;
}

static const llvm::StringMap<OpImporter> &table() {
  static const llvm::StringMap<OpImporter> t = makeTable();
  return t;
}

OpImporter findOpImporter(llvm::StringRef opType) {
  return table().lookup(opType);
}

std::vector<std::string> opImporterNames() {
  std::vector<std::string> names;
  for (const auto &e : table())
    if (!reportsOnly(e.getKey()))
      names.push_back(e.getKey().str());
  llvm::sort(names);
  return names;
}

} // namespace lpx::onnximport
