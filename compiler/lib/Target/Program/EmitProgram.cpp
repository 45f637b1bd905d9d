//===- EmitProgram.cpp - Level-3 IR to a program file ---------------------===//
#include "lpx/Target/Program/EmitProgram.h"

#include "lpx/Dialect/Graph/IR/GraphNames.h"
#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Dialect/Graph/IR/ShapeOnly.h"
#include "lpx/Dialect/Graph/IR/WeightBlobs.h"
#include "lpx/Dialect/Part/IR/PartOps.h"
#include "lpx/Dialect/Sched/IR/SchedOps.h"
#include "lpx/Support/StageWork.h"
#include "lpx/Target/ISABridge.h"
#include "lpx/isa/Program.h"
#include "lpx/isa/Version.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace lpx;

namespace {

/// The bytes of a splat or i1 constant in the program's little-endian
/// layout (i1 as one byte per element, splats expanded).
std::string expandedBytes(DenseElementsAttr attr) {
  auto type = cast<RankedTensorType>(attr.getType());
  int64_t n = type.getNumElements();
  Type elem = type.getElementType();
  std::string out;
  if (elem.isInteger(1)) {
    out.reserve(n);
    for (bool b : attr.getValues<bool>())
      out.push_back(b ? 1 : 0);
    return out;
  }
  ArrayRef<char> raw = attr.getRawData();
  unsigned eb = elem.getIntOrFloatBitWidth() / 8;
  out.reserve(size_t(n) * eb);
  for (int64_t i = 0; i < n; ++i)
    out.append(raw.data(), eb);
  return out;
}

std::string originOf(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location l : fused.getLocations())
      if (auto s = originOf(l); !s.empty())
        return s;
  return "";
}

class Emitter {
public:
  Emitter(const isa::ChipSpec &spec) : spec(spec) {}

  FailureOr<isa::ProgramWithData> run(func::FuncOp f, StringRef sourceName,
                                  unsigned numNodes) {
    program.set_producer("lpx 0.1.0 (program format " +
                         std::to_string(isa::kFormatMajor) + "." +
                         std::to_string(isa::kFormatMinor) + ")");
    program.set_source_model(isa::validUtf8(sourceName));
    program.set_chip_yaml(isa::printChipSpec(spec));
    program.set_chip_hash(isa::hashText(program.chip_yaml()));
    program.set_num_nodes(numNodes);
    Block &body = f.getBody().front();
    for (BlockArgument arg : body.getArguments()) {
      auto name = f.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                 graph::kInputNameAttr);
      std::string n = name ? name.str()
                           : "arg" + std::to_string(arg.getArgNumber());
      auto addr = f.getArgAttrOfType<IntegerAttr>(
          arg.getArgNumber(), sched::SchedDialect::kAddrAttr);
      if (!addr)
        return f.emitError("argument ") << n << " has no SRAM address; run "
                                               "lpx-allocate-sram first";
      // Resident state lives in SRAM across runs; the host never sees it.
      const bool state = bool(f.getArgAttr(arg.getArgNumber(), graph::kStateAttr));
      uint32_t id = addBuffer(arg, n, part::getNodeOfValue(arg), addr.getInt(),
                              state ? isa::pb::STATE : isa::pb::INPUT);
      auto *bind = state ? program.add_states() : program.add_inputs();
      bind->set_name(isa::validUtf8(n));
      bind->set_buffer(id);
      if (auto offsets = f.getArgAttrOfType<DenseI64ArrayAttr>(
              arg.getArgNumber(), part::PartDialect::kOffsetsAttr))
        bind->mutable_offsets()->Add(offsets.asArrayRef().begin(),
                                     offsets.asArrayRef().end());
    }
    auto ret = cast<func::ReturnOp>(body.getTerminator());
    llvm::DenseMap<Value, std::string> outputNames;
    auto names = f->getAttrOfType<ArrayAttr>(graph::kOutputNamesAttr);
    for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
      std::string n = "output" + std::to_string(i);
      if (names && i < names.size())
        if (auto s = dyn_cast<StringAttr>(names[i]))
          n = s.str();
      outputNames[v] = n;
    }
    std::vector<std::pair<uint64_t, isa::pb::Instruction>> insts;
    lpx::StageWork work(body.getOperations().size() - 1); // all but the return
    for (Operation &op : body.without_terminator()) {
      work.step();
      std::optional<int64_t> node = part::getNode(&op);
      auto addr = op.getAttrOfType<IntegerAttr>(sched::SchedDialect::kAddrAttr);
      if (!node || !addr)
        return op.emitOpError("is not placed and allocated; run the whole "
                              "pipeline before emission");
      Value v = op.getResult(0);
      std::string origin = originOf(op.getLoc());
      if (tensorDescOf(v.getType()).dtype == isa::DType::Undefined)
        return op.emitOpError("produces ")
               << v.getType() << ", an element type the chip cannot hold";
      if (auto c = dyn_cast<graph::ConstantOp>(op)) {
        auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
        bool blob = graph::isBlobWeight(c.getValue());
        if (!dense && !blob && !graph::isShapeOnly(c.getValue()))
          return c.emitOpError("has values in a form the program cannot "
                               "hold (a dense, blob or shape-only constant "
                               "is needed)");
        uint32_t id = addBuffer(v, origin.empty() ? "const" : origin, *node,
                                addr.getInt(), isa::pb::CONSTANT);
        if (blob) // the blob's bytes, written from where they lie
          data.addView(program, id, *graph::weightBytes(c.getValue()));
        else if (!dense) // shape-only: simulated, not run
          data.addView(program, id, {});
        else if (dense.isSplat() || dense.getElementType().isInteger(1))
          data.addOwned(program, id, expandedBytes(dense));
        else // the attribute's own bytes, alive as long as the context
          data.addView(program, id, dense.getRawData());
        continue;
      }
      auto slot = op.getAttrOfType<sched::SlotAttr>(
          sched::SchedDialect::kSlotAttr);
      auto instOp = dyn_cast<InstructionOpInterface>(op);
      if (!slot || !instOp)
        return op.emitOpError("is not a scheduled instruction");
      auto out = outputNames.find(v);
      bool isOutput = out != outputNames.end();
      uint32_t id;
      if (auto write = dyn_cast<graph::StateWriteOp>(op)) {
        if (isOutput)
          return op.emitOpError("result is resident state, not an output");
        id = ids[v] = ids.lookup(write.getState()); // written in place
      } else {
        id = addBuffer(v, isOutput ? out->second : bufferName(origin), *node,
                       addr.getInt(),
                       isOutput ? isa::pb::OUTPUT : isa::pb::TEMP);
      }
      isa::pb::Instruction inst;
      inst.set_opcode(uint32_t(instOp.getOpcode()));
      inst.set_issue(slot.getIssue());
      inst.set_result(id);
      inst.set_origin(isa::validUtf8(origin));
      for (Value operand : instructionOperands(&op))
        inst.add_operands(ids.lookup(operand));
      isa::pb::Attributes attrs = instructionAttrs(instOp);
      if (attrs.kind_case() != isa::pb::Attributes::KIND_NOT_SET)
        *inst.mutable_attributes() = std::move(attrs);
      if (auto send = dyn_cast<sched::SendOp>(op)) {
        inst.set_node(uint32_t(send.getFrom()));
        inst.set_dst_node(uint32_t(send.getTo()));
        inst.set_link(uint32_t(send.getLink()));
        inst.set_arrive(uint64_t(send.getArrive()));
      } else {
        inst.set_node(uint32_t(*node));
        inst.set_queue(uint32_t(slot.getQueue()));
      }
      insts.emplace_back(insts.size(), std::move(inst));
    }
    for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
      auto *bind = program.add_outputs();
      bind->set_name(isa::validUtf8(outputNames[v]));
      bind->set_buffer(ids.lookup(v));
      if (auto offsets = f.getResultAttrOfType<DenseI64ArrayAttr>(
              unsigned(i), part::PartDialect::kOffsetsAttr))
        bind->mutable_offsets()->Add(offsets.asArrayRef().begin(),
                                     offsets.asArrayRef().end());
    }
    // Issue order, program order among equals: the order every reader needs.
    std::stable_sort(insts.begin(), insts.end(), [](auto &a, auto &b) {
      return a.second.issue() < b.second.issue();
    });
    for (auto &entry : insts)
      *program.add_instructions() = std::move(entry.second);
    return isa::ProgramWithData{std::move(program), std::move(data)};
  }

private:
  std::string bufferName(const std::string &origin) {
    return (origin.empty() ? "t" : origin) + "#" +
           std::to_string(program.buffers_size());
  }

  uint32_t addBuffer(Value v, const std::string &name, int64_t node,
                     int64_t addr, isa::pb::BufferKind kind) {
    isa::TensorDesc d = tensorDescOf(v.getType());
    auto *b = program.add_buffers();
    b->set_name(isa::validUtf8(name));
    b->set_node(uint32_t(node));
    b->set_addr(uint64_t(addr));
    b->set_bytes(d.bytes());
    b->set_dtype(uint32_t(d.dtype));
    for (int64_t s : d.shape)
      b->add_shape(s);
    b->set_kind(kind);
    uint32_t id = uint32_t(program.buffers_size() - 1);
    ids[v] = id;
    return id;
  }

  const isa::ChipSpec &spec;
  isa::pb::Program program;
  isa::ConstantData data;
  llvm::DenseMap<Value, uint32_t> ids;
};

} // namespace

FailureOr<isa::VerifiedProgram>
lpx::emitProgram(ModuleOp module, StringRef sourceName,
                 ArrayRef<isa::pb::FoldedInput> folded) {
  auto funcs = llvm::to_vector(module.getOps<func::FuncOp>());
  if (funcs.size() != 1)
    return module.emitError("expected exactly one function to emit");
  auto nodes = module->getAttrOfType<IntegerAttr>(
      part::PartDialect::kNumNodesAttr);
  if (!nodes)
    return module.emitError("module is not partitioned; run lpx-partition");
  FailureOr<isa::ChipSpec> spec = chipOf(module);
  if (failed(spec))
    return failure();
  auto program = Emitter(*spec).run(funcs.front(), sourceName, nodes.getInt());
  if (failed(program))
    return failure();
  // The formats lpx-convert-types held values in, for lpx run's tolerances.
  func::FuncOp f = funcs.front();
  if (auto w = f->getAttrOfType<StringAttr>(graph::kWeightsFormatAttr))
    program->program.set_weights_format(w.str());
  if (auto a = f->getAttrOfType<StringAttr>(graph::kActivationsFormatAttr))
    program->program.set_activations_format(a.str());
  if (auto mesh = module->getAttrOfType<DenseI64ArrayAttr>(
          part::PartDialect::kPlacementAttr)) {
    program->program.set_tp(uint32_t(mesh[0]));
    program->program.set_pp(uint32_t(mesh[1]));
  }
  for (const isa::pb::FoldedInput &in : folded)
    *program->program.add_folded_inputs() = in;
  // Verified at birth: what leaves the compiler is what a file reader
  // would accept, so no caller serialises it to check.
  auto verified = isa::VerifiedProgram::verify(std::move(*program), *spec);
  if (!verified)
    return module.emitError("the emitted program does not verify: ")
           << llvm::toString(verified.takeError());
  return std::move(*verified);
}
