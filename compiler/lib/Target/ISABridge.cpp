//===- ISABridge.cpp - Map compiler IR onto the instruction set -----------===//
#include "lpx/Target/ISABridge.h"
#include "program.pb.h"

#include "lpx/isa/ElementwiseFunctions.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Dialect/Part/IR/PartOps.h"
#include "lpx/Dialect/Sched/IR/SchedOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace lpx;
using isa::DType;
using isa::Opcode;

std::optional<DType> lpx::dtypeOf(Type t) {
  if (t.isF32()) return DType::F32;
  if (t.isF16()) return DType::F16;
  if (t.isBF16()) return DType::BF16;
  if (t.isF64()) return DType::F64;
  if (t.isFloat8E4M3FN()) return DType::F8E4M3;
  if (t.isFloat8E5M2()) return DType::F8E5M2;
  if (auto i = dyn_cast<IntegerType>(t)) {
    bool u = i.isUnsigned();
    switch (i.getWidth()) {
    case 1: return DType::Bool;
    case 8: return u ? DType::U8 : DType::I8;
    case 16: return u ? DType::U16 : DType::I16;
    case 32: return u ? DType::U32 : DType::I32;
    case 64: return u ? DType::U64 : DType::I64;
    default: return std::nullopt;
    }
  }
  return std::nullopt;
}

isa::TensorDesc lpx::tensorDescOf(Type type) {
  isa::TensorDesc d;
  auto t = cast<RankedTensorType>(type);
  d.dtype = dtypeOf(t.getElementType()).value_or(DType::Undefined);
  d.shape.assign(t.getShape().begin(), t.getShape().end());
  return d;
}

FailureOr<Opcode> lpx::opcodeOf(Operation *op) {
  using namespace lpx::graph;
  std::optional<Opcode> code =
      llvm::TypeSwitch<Operation *, std::optional<Opcode>>(op)
          .Case([](MatMulOp) { return Opcode::MatMul; })
          .Case([](AddOp) { return Opcode::Add; })
          .Case([](SubOp) { return Opcode::Sub; })
          .Case([](MulOp) { return Opcode::Mul; })
          .Case([](DivOp) { return Opcode::Div; })
          .Case([](PowOp) { return Opcode::Pow; })
          .Case([](WhereOp) { return Opcode::Where; })
          .Case([](SqrtOp) { return Opcode::Sqrt; })
          .Case([](NegOp) { return Opcode::Neg; })
          .Case([](ReluOp) { return Opcode::Relu; })
          .Case([](SigmoidOp) { return Opcode::Sigmoid; })
          .Case([](TanhOp) { return Opcode::Tanh; })
          .Case([](CastOp) { return Opcode::Cast; })
          .Case([](SoftmaxOp) { return Opcode::Softmax; })
          .Case([](ReduceMeanOp) { return Opcode::ReduceMean; })
          .Case([](TransposeOp) { return Opcode::Transpose; })
          .Case([](ConcatOp) { return Opcode::Concat; })
          .Case([](SliceOp) { return Opcode::Slice; })
          .Case([](GatherOp) { return Opcode::Gather; })
          .Case([](ReshapeOp) { return Opcode::Copy; })
          .Case([](UnaryFnOp) { return Opcode::Unary; })
          .Case([](BinaryFnOp) { return Opcode::Binary; })
          .Case([](ReduceOp) { return Opcode::Reduce; })
          .Case([](ArgReduceOp) { return Opcode::ArgReduce; })
          .Case([](LogSoftmaxOp) { return Opcode::LogSoftmax; })
          .Case([](HardmaxOp) { return Opcode::Hardmax; })
          .Case([](CumSumOp) { return Opcode::CumSum; })
          .Case([](BroadcastOp) { return Opcode::Broadcast; })
          .Case([](PadOp) { return Opcode::Pad; })
          .Case([](GatherElementsOp) { return Opcode::GatherElements; })
          .Case([](ConvOp) { return Opcode::Conv; })
          .Case([](PoolOp) { return Opcode::Pool; })
          .Case([](TopKOp) { return Opcode::TopK; })
          .Case([](ScatterElementsOp) { return Opcode::ScatterElements; })
          .Case([](ScatterNDOp) { return Opcode::ScatterND; })
          .Case([](GridSampleOp) { return Opcode::GridSample; })
          .Case([](DetOp) { return Opcode::Det; })
          .Case([](ConvTransposeOp) { return Opcode::ConvTranspose; })
          .Case([](StateWriteOp) { return Opcode::StateWrite; })
          .Case([](part::TransferOp) { return Opcode::Send; })
          .Case([](sched::SendOp) { return Opcode::Send; })
          .Default([](Operation *) { return std::nullopt; });
  if (!code)
    return failure();
  return *code;
}

namespace pb = lpx::isa::pb;

/// The program's enum value for an IR mode string: the IR's modes (checked
/// by the op verifiers) are the schema's enum names without their prefix, in
/// lower case ("reflect" is PAD_REFLECT), so there is no table to keep.
template <typename E>
static E enumFor(llvm::StringRef prefix, llvm::StringRef mode,
                 bool (*parse)(const std::string &, E *)) {
  E value{};
  [[maybe_unused]] bool known = parse((prefix + mode.upper()).str(), &value);
  assert(known && "an IR mode without an enum value in program.proto");
  return value;
}

template <typename Range>
static void append(google::protobuf::RepeatedField<int64_t> *to,
                   const Range &from) {
  for (auto v : from)
    to->Add(int64_t(v));
}

static void setAxis(pb::Attributes &a, int64_t axis) {
  a.mutable_axis()->set_axis(axis);
}

pb::Attributes lpx::instructionAttrs(Operation *op) {
  using namespace lpx::graph;
  pb::Attributes a;
  llvm::TypeSwitch<Operation *>(op)
      .Case([&](SoftmaxOp o) { setAxis(a, o.getAxis()); })
      .Case([&](LogSoftmaxOp o) { setAxis(a, o.getAxis()); })
      .Case([&](HardmaxOp o) { setAxis(a, o.getAxis()); })
      .Case([&](ConcatOp o) { setAxis(a, o.getAxis()); })
      .Case([&](GatherOp o) { setAxis(a, o.getAxis()); })
      .Case([&](GatherElementsOp o) { setAxis(a, o.getAxis()); })
      .Case([&](StateWriteOp o) { setAxis(a, o.getAxis()); })
      .Case([&](ReduceMeanOp o) {
        append(a.mutable_axes()->mutable_axes(), o.getAxes());
      })
      .Case([&](TransposeOp o) {
        append(a.mutable_transpose()->mutable_perm(), o.getPerm());
      })
      .Case([&](SliceOp o) {
        append(a.mutable_slice()->mutable_starts(), o.getStarts());
        append(a.mutable_slice()->mutable_steps(), o.getSteps());
      })
      // Generic families: the function id (verified to exist).
      .Case([&](UnaryFnOp o) {
        pb::UnaryAttrs *u = a.mutable_unary();
        u->set_fn(uint32_t(*isa::unaryFnFromMnemonic(o.getFn().str())));
        for (double p : o.getParams())
          u->add_params(p);
      })
      .Case([&](BinaryFnOp o) {
        a.mutable_binary()->set_fn(
            uint32_t(*isa::binaryFnFromMnemonic(o.getFn().str())));
      })
      .Case([&](ReduceOp o) {
        pb::ReduceAttrs *r = a.mutable_reduce();
        r->set_fn(uint32_t(*isa::reduceFnFromMnemonic(o.getFn().str())));
        append(r->mutable_axes(), o.getAxes());
      })
      .Case([&](ArgReduceOp o) {
        pb::ArgReduceAttrs *r = a.mutable_arg_reduce();
        r->set_fn(uint32_t(*isa::argReduceFnFromMnemonic(o.getFn().str())));
        r->set_axis(o.getAxis());
        r->set_select_last_index(o.getSelectLastIndex());
      })
      .Case([&](CumSumOp o) {
        pb::CumSumAttrs *c = a.mutable_cumsum();
        c->set_axis(o.getAxis());
        c->set_exclusive(o.getExclusive());
        c->set_reverse(o.getReverse());
      })
      .Case([&](PadOp o) {
        pb::PadAttrs *p = a.mutable_pad();
        p->set_mode(enumFor("PAD_", o.getMode(), &pb::PadMode_Parse));
        p->set_value(o.getValue().convertToDouble());
        // pads: begin for every dimension, then end.
        ArrayRef<int64_t> pads = o.getPads();
        append(p->mutable_begin(), pads.take_front(pads.size() / 2));
        append(p->mutable_end(), pads.drop_front(pads.size() / 2));
      })
      .Case<ConvOp, ConvTransposeOp>([&](auto o) {
        pb::ConvAttrs *c = a.mutable_conv();
        c->set_group(o.getGroup());
        append(c->mutable_strides(), o.getStrides());
        append(c->mutable_dilations(), o.getDilations());
        ArrayRef<int64_t> pads = o.getPads();
        append(c->mutable_pads_begin(), pads.take_front(pads.size() / 2));
        append(c->mutable_pads_end(), pads.drop_front(pads.size() / 2));
        if constexpr (std::is_same_v<decltype(o), ConvTransposeOp>)
          append(c->mutable_output_padding(), o.getOutputPadding());
      })
      .Case([&](PoolOp o) {
        pb::PoolAttrs *p = a.mutable_pool();
        p->set_kind(enumFor("POOL_", o.getKind(), &pb::PoolKind_Parse));
        p->set_count_include_pad(o.getCountIncludePad());
        append(p->mutable_kernel(), o.getKernelShape());
        append(p->mutable_strides(), o.getStrides());
        append(p->mutable_dilations(), o.getDilations());
        ArrayRef<int64_t> pads = o.getPads();
        append(p->mutable_pads_begin(), pads.take_front(pads.size() / 2));
        append(p->mutable_pads_end(), pads.drop_front(pads.size() / 2));
      })
      .Case([&](TopKOp o) {
        pb::TopKAttrs *t = a.mutable_top_k();
        t->set_axis(o.getAxis());
        t->set_k(o.getK());
        t->set_largest(o.getLargest());
        t->set_sorted(o.getSorted());
      })
      .Case([&](ScatterElementsOp o) {
        a.mutable_scatter()->set_axis(o.getAxis());
        a.mutable_scatter()->set_reduction(enumFor(
            "SCATTER_", o.getReduction(), &pb::ScatterReduction_Parse));
      })
      .Case([&](ScatterNDOp o) {
        a.mutable_scatter()->set_reduction(enumFor(
            "SCATTER_", o.getReduction(), &pb::ScatterReduction_Parse));
      })
      .Case([&](GridSampleOp o) {
        pb::GridSampleAttrs *g = a.mutable_grid_sample();
        g->set_mode(
            enumFor("GRID_SAMPLE_", o.getMode(), &pb::GridSampleMode_Parse));
        g->set_padding(enumFor("GRID_SAMPLE_", o.getPaddingMode(),
                               &pb::GridSamplePadding_Parse));
        g->set_align_corners(o.getAlignCorners());
      });
  return a;
}

OperandRange lpx::instructionOperands(Operation *op) {
  // A state write names its state as its result buffer, not as an operand.
  if (llvm::isa<graph::StateWriteOp>(op))
    return op->getOperands().drop_front();
  return op->getOperands();
}

isa::Cost lpx::costOf(const isa::ChipSpec &chip, Operation *op) {
  FailureOr<Opcode> code = opcodeOf(op);
  if (failed(code))
    return {};
  std::vector<isa::TensorDesc> operands;
  for (Value v : instructionOperands(op))
    operands.push_back(tensorDescOf(v.getType()));
  return isa::instructionCost(chip, *code, operands,
                              tensorDescOf(op->getResult(0).getType()),
                              instructionAttrs(op));
}

void lpx::attachChip(ModuleOp module, const isa::ChipSpec &chip) {
  module->setAttr(part::PartDialect::kChipAttr,
                  StringAttr::get(module.getContext(), isa::printChipSpec(chip)));
}

FailureOr<isa::ChipSpec> lpx::chipOf(ModuleOp module) {
  auto text = module->getAttrOfType<StringAttr>(part::PartDialect::kChipAttr);
  if (!text)
    return module.emitError("module has no chip description; run "
                            "lpx-attach-chip first");
  auto spec = isa::parseChipSpec(text.getValue(), part::PartDialect::kChipAttr);
  if (!spec) {
    module.emitError() << llvm::toString(spec.takeError());
    return failure();
  }
  return std::move(*spec);
}
