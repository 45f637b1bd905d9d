//===- ISABridge.cpp - Map compiler IR onto the instruction set -----------===//
#include "lpx/Target/ISABridge.h"

#include "lpx/isa/ElementwiseFunctions.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Dialect/Part/IR/PartOps.h"
#include "lpx/Dialect/Sched/IR/SchedOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringSwitch.h"
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
          .Case([](part::TransferOp) { return Opcode::Send; })
          .Case([](sched::SendOp) { return Opcode::Send; })
          .Default([](Operation *) { return std::nullopt; });
  if (!code)
    return failure();
  return *code;
}

/// A scatter's reduction as its attribute value (Opcodes.def).
static int64_t scatterReduction(StringRef r) {
  return llvm::StringSwitch<int64_t>(r)
      .Case("add", 1)
      .Case("mul", 2)
      .Case("max", 3)
      .Case("min", 4)
      .Default(0);
}

SmallVector<int64_t> lpx::instructionAttrs(Operation *op) {
  using namespace lpx::graph;
  return llvm::TypeSwitch<Operation *, SmallVector<int64_t>>(op)
      .Case([](SoftmaxOp o) { return SmallVector<int64_t>{int64_t(o.getAxis())}; })
      .Case([](ReduceMeanOp o) { return SmallVector<int64_t>(o.getAxes()); })
      .Case([](TransposeOp o) { return SmallVector<int64_t>(o.getPerm()); })
      .Case([](ConcatOp o) { return SmallVector<int64_t>{int64_t(o.getAxis())}; })
      .Case([](SliceOp o) {
        SmallVector<int64_t> a(o.getStarts());
        llvm::append_range(a, o.getSteps());
        return a;
      })
      .Case([](GatherOp o) { return SmallVector<int64_t>{int64_t(o.getAxis())}; })
      // Generic families: the function id (verified to exist), then the
      // float parameters as IEEE-754 bit patterns or the axes.
      .Case([](UnaryFnOp o) {
        SmallVector<int64_t> a{
            int64_t(*isa::unaryFnFromMnemonic(o.getFn().str()))};
        for (double p : o.getParams())
          a.push_back(int64_t(llvm::bit_cast<uint64_t>(p)));
        return a;
      })
      .Case([](BinaryFnOp o) {
        return SmallVector<int64_t>{
            int64_t(*isa::binaryFnFromMnemonic(o.getFn().str()))};
      })
      .Case([](ReduceOp o) {
        SmallVector<int64_t> a{
            int64_t(*isa::reduceFnFromMnemonic(o.getFn().str()))};
        llvm::append_range(a, o.getAxes());
        return a;
      })
      .Case([](ArgReduceOp o) {
        return SmallVector<int64_t>{
            int64_t(*isa::argReduceFnFromMnemonic(o.getFn().str())),
            int64_t(o.getAxis()), int64_t(o.getSelectLastIndex())};
      })
      .Case([](LogSoftmaxOp o) { return SmallVector<int64_t>{int64_t(o.getAxis())}; })
      .Case([](HardmaxOp o) { return SmallVector<int64_t>{int64_t(o.getAxis())}; })
      .Case([](CumSumOp o) {
        return SmallVector<int64_t>{int64_t(o.getAxis()),
                                    int64_t(o.getExclusive()),
                                    int64_t(o.getReverse())};
      })
      .Case([](PadOp o) {
        int64_t mode = o.getMode() == "reflect" ? 1 : o.getMode() == "edge" ? 2 : 0;
        SmallVector<int64_t> a{
            mode, int64_t(llvm::bit_cast<uint64_t>(
                      o.getValue().convertToDouble()))};
        llvm::append_range(a, o.getPads());
        return a;
      })
      .Case([](GatherElementsOp o) { return SmallVector<int64_t>{int64_t(o.getAxis())}; })
      .Case([](ConvOp o) {
        SmallVector<int64_t> a{int64_t(o.getGroup())};
        llvm::append_range(a, o.getStrides());
        llvm::append_range(a, o.getDilations());
        llvm::append_range(a, o.getPads());
        return a;
      })
      .Case([](ConvTransposeOp o) {
        SmallVector<int64_t> a{int64_t(o.getGroup())};
        llvm::append_range(a, o.getStrides());
        llvm::append_range(a, o.getDilations());
        llvm::append_range(a, o.getPads());
        llvm::append_range(a, o.getOutputPadding());
        return a;
      })
      .Case([](PoolOp o) {
        SmallVector<int64_t> a{o.getKind() == "avg" ? 1 : 0,
                               int64_t(o.getCountIncludePad())};
        llvm::append_range(a, o.getKernelShape());
        llvm::append_range(a, o.getStrides());
        llvm::append_range(a, o.getDilations());
        llvm::append_range(a, o.getPads());
        return a;
      })
      .Case([](TopKOp o) {
        return SmallVector<int64_t>{int64_t(o.getAxis()), int64_t(o.getK()),
                                    int64_t(o.getLargest()),
                                    int64_t(o.getSorted())};
      })
      .Case([](ScatterElementsOp o) {
        return SmallVector<int64_t>{int64_t(o.getAxis()),
                                    scatterReduction(o.getReduction())};
      })
      .Case([](ScatterNDOp o) {
        return SmallVector<int64_t>{scatterReduction(o.getReduction())};
      })
      .Case([](GridSampleOp o) {
        StringRef m = o.getMode(), p = o.getPaddingMode();
        return SmallVector<int64_t>{
            m == "nearest" ? 1 : m == "bicubic" ? 2 : 0,
            p == "border" ? 1 : p == "reflection" ? 2 : 0,
            int64_t(o.getAlignCorners())};
      })
      .Default([](Operation *) { return SmallVector<int64_t>{}; });
}

isa::Cost lpx::costOf(const isa::ChipSpec &chip, Operation *op) {
  FailureOr<Opcode> code = opcodeOf(op);
  if (failed(code))
    return {};
  std::vector<isa::TensorDesc> operands;
  for (Value v : op->getOperands())
    operands.push_back(tensorDescOf(v.getType()));
  SmallVector<int64_t> attrs = instructionAttrs(op);
  return isa::instructionCost(chip, *code, operands,
                              tensorDescOf(op->getResult(0).getType()),
                              {attrs.begin(), attrs.end()});
}

FailureOr<isa::ChipSpec> lpx::loadChipForPass(StringRef chip,
                                              Operation *anchor) {
  std::string name = chip.empty() ? isa::presetNames().front() : chip.str();
  auto spec = isa::loadChipSpec(name);
  if (!spec) {
    anchor->emitError() << llvm::toString(spec.takeError());
    return failure();
  }
  return *spec;
}
