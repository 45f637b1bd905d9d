//===- ONNXImporter.cpp - ONNX model to lpx_graph IR (driver) -------------===//
//
// Load the file, resolve static types, check the graph's structure, then walk
// the nodes in order and let each op importer build its lpx_graph ops. A node
// that fails poisons its outputs, so the walk continues and every unsupported
// node is reported once.
//
//===----------------------------------------------------------------------===//
#include "lpx/Import/ONNXImporter.h"

#include "ConstantFolding.h"
#include "ImportContext.h"
#include "LpxSchemas.h"
#include "ModelLoader.h"
#include "OpImporters.h"
#include "OpsetDowngrade.h"
#include "QdqFusion.h"
#include "ShapeResolution.h"

#include "lpx/Dialect/Graph/IR/GraphDialect.h"
#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Dialect/Graph/IR/GraphNames.h"
#include "lpx/Import/OpsetVersions.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;

namespace lpx {
using namespace onnximport;

namespace {
bool isDefaultDomain(const std::string &d) { return d.empty() || d == "ai.onnx"; }
/// The default domain, or lpx's for the opset-18 ops moved there.
bool isImportedDomain(const std::string &d) {
  return isDefaultDomain(d) || d == kLpxDomain;
}

std::string nodeName(const onnx::NodeProto &node, int index) {
  if (!node.name().empty())
    return node.name();
  return node.op_type() + "_" + std::to_string(index);
}

/// Every node input is a graph input, an initializer or the output of an
/// earlier node. Reports each violation; fails if there was any.
LogicalResult checkStructure(MLIRContext &ctx, const onnx::GraphProto &g,
                             const std::vector<std::string> &names,
                             Location fileLoc) {
  llvm::StringSet<> defined;
  for (const auto &in : g.input())
    defined.insert(in.name());
  for (const auto &t : g.initializer())
    defined.insert(t.name());
  llvm::StringMap<int> producer;
  for (int i = 0; i < g.node_size(); ++i)
    for (const auto &out : g.node(i).output())
      if (!out.empty())
        producer.try_emplace(out, i);

  bool ok = true;
  for (int i = 0; i < g.node_size(); ++i) {
    const onnx::NodeProto &node = g.node(i);
    Location loc = NameLoc::get(StringAttr::get(&ctx, names[i]));
    for (const auto &in : node.input()) {
      if (in.empty() || defined.contains(in))
        continue;
      ok = false;
      auto p = producer.find(in);
      if (p != producer.end())
        emitError(loc) << "node '" << names[i] << "' (" << node.op_type()
                       << ") reads '" << in << "' before node '"
                       << names[p->second]
                       << "' produces it: the graph is not topologically "
                          "sorted";
      else
        emitError(loc) << "node '" << names[i] << "' (" << node.op_type()
                       << ") reads '" << in
                       << "', which no node, graph input or initializer "
                          "defines";
    }
    for (const auto &out : node.output()) {
      if (out.empty())
        continue;
      if (!defined.insert(out).second) {
        emitError(loc) << "node '" << names[i] << "' (" << node.op_type()
                       << ") redefines '" << out << "'";
        ok = false;
      }
    }
  }
  for (const auto &out : g.output())
    if (!defined.contains(out.name())) {
      emitError(fileLoc) << "graph output '" << out.name()
                         << "' is never produced";
      ok = false;
    }
  return success(ok);
}

/// Whether every node is one we can import; ONNX shape inference is only
/// run then, as it may throw on unknown domains before we could report them.
bool allNodesKnown(const onnx::GraphProto &g) {
  for (const auto &node : g.node())
    if (!isImportedDomain(node.domain()) || !findOpImporter(node.op_type()))
      return false;
  return true;
}

/// Our type for `name` must agree with a fully known ONNX type; a
/// difference is an importer bug, better caught here than in a verifier.
void crossCheck(NodeContext &n, const std::string &name, Value v) {
  const onnx::TypeProto *t = n.st.onnxTypes.lookup(name);
  if (!t)
    return;
  auto onnxType = knownStaticType(n.st.ctx, *t);
  // ONNX 1.12 types a float8 value as the float it was rounded from
  // (ai.lpx CastFloat8, Float8Activations.cpp): the shapes still agree.
  auto vt = llvm::dyn_cast<RankedTensorType>(v.getType());
  if (onnxType && vt &&
      (vt.getElementType().isFloat8E4M3FN() ||
       vt.getElementType().isFloat8E5M2()) &&
      llvm::cast<RankedTensorType>(*onnxType).getShape() == vt.getShape())
    return;
  if (onnxType && *onnxType != v.getType())
    (void)n.fail("importer computed " + typeString(v.getType()) + " for '" +
                 name + "' but ONNX infers " + typeString(*onnxType));
}

void importNode(GraphState &st, const onnx::NodeProto &node,
                const std::string &name) {
  NodeContext n(st, node, name);
  for (const auto &out : node.output())
    if (!out.empty())
      st.producers[out] = {&node, name};
  auto poison = [&] {
    for (const auto &out : node.output())
      if (!out.empty())
        st.poisoned.insert(out);
  };
  for (const auto &in : node.input())
    if (!in.empty() && st.poisoned.contains(in))
      return poison(); // The failing producer was reported already.
  if (node.domain() == "ai.onnx.ml") {
    (void)n.fail("an ai.onnx.ml (traditional ML) op: lpx compiles none of "
                 "that domain's ops");
    return poison();
  }
  if (!isImportedDomain(node.domain())) {
    (void)n.fail("unknown domain '" + node.domain() + "'");
    return poison();
  }
  OpImporter importer = findOpImporter(node.op_type());
  if (!importer) {
    (void)n.fail("op type '" + node.op_type() + "' is not supported");
    return poison();
  }
  unsigned before = st.errors;
  LogicalResult imported =
      allInputsConstant(n) ? importFolding(n, importer) : importer(n);
  if (failed(imported)) {
    if (st.errors == before)
      (void)n.fail("could not be imported");
    return poison();
  }
  for (const auto &out : node.output()) {
    if (out.empty() || st.constants.contains(out))
      continue;
    Value v = st.values.lookup(out);
    if (!v) {
      (void)n.fail("output '" + out + "' is not supported");
      st.poisoned.insert(out);
      continue;
    }
    crossCheck(n, out, v);
  }
}
} // namespace

FailureOr<OwningOpRef<ModuleOp>>
importOnnxFile(MLIRContext &ctx, llvm::StringRef path,
               const ImportOptions &opts) {
  ctx.loadDialect<func::FuncDialect, graph::GraphDialect>();
  Location fileLoc = FileLineColLoc::get(&ctx, path, 0, 0);

  auto loaded = loadModel(path);
  if (!loaded) {
    emitError(fileLoc) << llvm::toString(loaded.takeError());
    return failure();
  }
  onnx::ModelProto &model = **loaded;
  int64_t opset = -1;
  for (const auto &imp : model.opset_import())
    if (isDefaultDomain(imp.domain()))
      opset = imp.version();
  if (opset < 1)
    return emitError(fileLoc)
           << "the model imports no opset of the default ONNX domain";
  if (opset > kNewestKnownOpset)
    return emitError(fileLoc)
           << "the model uses default-domain opset " << opset
           << "; the importer supports opsets 1 to " << kNewestOpset
           << " (and knows which ops changed up to " << kNewestKnownOpset
           << ")";

  for (const auto &imp : model.opset_import())
    if (imp.domain() == "ai.onnx.ml" && imp.version() < 1)
      return emitError(fileLoc) << "the model imports ai.onnx.ml opset "
                                << imp.version()
                                << "; its opsets are numbered from 1";

  if (failed(foldConstInputs(model, opts.constInputs, fileLoc)) ||
      failed(applyInputShapes(model, opts.inputShapes, fileLoc)))
    return failure();
  if (opset > kCheckedOpset) {
    // ONNX 1.12 knows opset 17: newer forms are rewritten to it first.
    std::vector<DowngradeProblem> problems = downgradeToOpset17(model, opset);
    for (const DowngradeProblem &p : problems)
      emitError(NameLoc::get(StringAttr::get(&ctx, p.node)))
          << problemMessage(p);
    if (!problems.empty())
      return failure();
    opset = kCheckedOpset;
  }
  onnx::GraphProto &g = *model.mutable_graph();
  fuseQdqChains(g);
  std::vector<std::string> names;
  for (int i = 0; i < g.node_size(); ++i)
    names.push_back(nodeName(g.node(i), i));
  if (failed(checkStructure(ctx, g, names, fileLoc)))
    return failure();
  if (allNodesKnown(g)) {
    if (failed(runShapeInference(model, opset, fileLoc)))
      return failure();
    names.clear(); // the version converter may have rewritten nodes
    for (int i = 0; i < g.node_size(); ++i)
      names.push_back(nodeName(g.node(i), i));
  }

  // Arguments: graph inputs that no initializer gives a value (before IR
  // version 4 initializers were also listed as inputs).
  llvm::StringSet<> initializerNames;
  for (const auto &t : g.initializer())
    initializerNames.insert(t.name());
  SmallVector<Type> argTypes;
  SmallVector<std::string> argNames;
  bool inputsOk = true;
  for (const auto &in : g.input()) {
    if (initializerNames.contains(in.name()))
      continue;
    auto type = graphInputType(ctx, in, fileLoc);
    if (failed(type)) {
      inputsOk = false;
      continue;
    }
    argTypes.push_back(*type);
    argNames.push_back(in.name());
  }
  if (!inputsOk)
    return failure();

  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  GraphState st(ctx, opset);
  st.builder.setInsertionPointToEnd(module->getBody());
  auto func = st.builder.create<func::FuncOp>(
      fileLoc, "main", st.builder.getFunctionType(argTypes, {}));
  Block *body = func.addEntryBlock();
  for (unsigned i = 0; i < argNames.size(); ++i) {
    func.setArgAttr(i, graph::kInputNameAttr, st.builder.getStringAttr(argNames[i]));
    st.values[argNames[i]] = body->getArgument(i);
  }
  for (const auto &t : g.initializer()) {
    st.constants[t.name()] = &t;
    st.constantLocs[t.name()] = NameLoc::get(st.builder.getStringAttr(t.name()));
  }
  for (const auto &vi : g.value_info())
    st.onnxTypes[vi.name()] = &vi.type();
  for (const auto &vi : g.output())
    st.onnxTypes[vi.name()] = &vi.type();

  st.builder.setInsertionPointToEnd(body);
  st.importNode = [&st](const onnx::NodeProto &node, const std::string &name) {
    importNode(st, node, name);
  };
  for (int i = 0; i < g.node_size(); ++i)
    importNode(st, g.node(i), names[i]);

  SmallVector<Value> results;
  SmallVector<Attribute> outNames;
  for (const auto &out : g.output()) {
    if (st.poisoned.contains(out.name()))
      continue;
    auto v = st.lookup(out.name());
    if (failed(v))
      continue; // Reported where the value failed.
    results.push_back(*v);
    outNames.push_back(st.builder.getStringAttr(out.name()));
  }
  if (st.errors)
    return failure();
  st.builder.create<func::ReturnOp>(fileLoc, results);
  eraseUnusedConstants(*body);
  st.adoptBlobs(*module);
  func.setFunctionType(
      st.builder.getFunctionType(argTypes, ValueRange(results).getTypes()));
  func->setAttr(graph::kOutputNamesAttr, st.builder.getArrayAttr(outNames));
  return std::move(module);
}

std::vector<std::string> supportedOnnxOps() { return opImporterNames(); }

} // namespace lpx
