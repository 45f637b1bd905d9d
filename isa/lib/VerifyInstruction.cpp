//===- VerifyInstruction.cpp - Checks of one instruction ------------------===//
#include "VerifyInstruction.h"
#include "lpx/isa/Attributes.h"
#include "lpx/isa/DType.h"
#include "lpx/isa/ElementwiseFunctions.h"

#include <string>

using namespace lpx::isa;

namespace {

/// One instruction under check, with the error helpers every rule uses.
struct Check {
  const pb::Program &p;
  const pb::Instruction &inst;
  size_t index;
  Opcode op;

  std::string name() const { return std::string(mnemonic(op)); }
  int operands() const { return inst.operands_size(); }
  int rank() const { return p.buffers(inst.result()).shape_size(); }
  int operandRank(int i) const {
    return p.buffers(inst.operands(i)).shape_size();
  }
  DType operandType(int i) const {
    return static_cast<DType>(p.buffers(inst.operands(i)).dtype());
  }
  DType resultType() const {
    return static_cast<DType>(p.buffers(inst.result()).dtype());
  }

  llvm::Error fail(const std::string &what) const {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "instruction %zu (%s): %s", index,
                                   name().c_str(), what.c_str());
  }
  llvm::Error ok() const { return llvm::Error::success(); }
  llvm::Error arity(int lo, int hi) const {
    int n = operands();
    if (n >= lo && n <= hi)
      return ok();
    std::string want = lo == hi ? std::to_string(lo)
                                : std::to_string(lo) + " or " + std::to_string(hi);
    return fail("expects " + want + " operands, has " + std::to_string(n));
  }
  /// `axis` indexes a tensor of rank `r` (a scalar has axis 0).
  llvm::Error axisBelow(int64_t axis, int64_t r) const {
    if (axis < 0 || axis >= std::max<int64_t>(r, 1))
      return fail("axis out of range");
    return ok();
  }
  /// Sorted, unique axes below `r`.
  template <typename Axes> llvm::Error sortedAxes(const Axes &axes, int r) const {
    for (int i = 0; i < axes.size(); ++i)
      if (axes[i] < 0 || axes[i] >= r || (i && axes[i] <= axes[i - 1]))
        return fail("axes must be sorted, unique and below rank " +
                    std::to_string(r));
    return ok();
  }
  template <typename List> llvm::Error count(const List &l, int want,
                                             const char *what) const {
    if (l.size() != want)
      return fail("expects " + std::to_string(want) + " " + what + ", has " +
                  std::to_string(l.size()));
    return ok();
  }
  llvm::Error integerIndices(int i) const {
    DType idx = operandType(i);
    if (idx != DType::I32 && idx != DType::I64)
      return fail("indices must be i32 or i64");
    return ok();
  }
};

/// Operand counts.
llvm::Error verifyArity(const Check &c) {
  switch (c.op) {
  case Opcode::Where:
    return c.arity(3, 3);
  case Opcode::MatMul:
  case Opcode::Add:
  case Opcode::Sub:
  case Opcode::Mul:
  case Opcode::Div:
  case Opcode::Pow:
  case Opcode::Gather:
  case Opcode::Binary:
  case Opcode::GatherElements:
  case Opcode::GridSample:
  case Opcode::StateWrite:
    return c.arity(2, 2);
  case Opcode::ScatterElements:
  case Opcode::ScatterND:
    return c.arity(3, 3);
  case Opcode::Conv:
  case Opcode::ConvTranspose:
    return c.arity(2, 3);
  case Opcode::Concat:
    return c.operands() >= 1 ? c.ok() : c.fail("needs an operand");
  case Opcode::Sqrt:
  case Opcode::Neg:
  case Opcode::Relu:
  case Opcode::Sigmoid:
  case Opcode::Tanh:
  case Opcode::Cast:
  case Opcode::Copy:
  case Opcode::Send:
  case Opcode::Softmax:
  case Opcode::ReduceMean:
  case Opcode::Transpose:
  case Opcode::Slice:
  case Opcode::Unary:
  case Opcode::Reduce:
  case Opcode::ArgReduce:
  case Opcode::LogSoftmax:
  case Opcode::Hardmax:
  case Opcode::CumSum:
  case Opcode::Broadcast:
  case Opcode::Pad:
  case Opcode::Pool:
  case Opcode::TopK:
  case Opcode::Det:
    return c.arity(1, 1);
  case Opcode::NumOpcodes:
    break;
  }
  return c.fail("unknown opcode");
}

/// Convolution attributes: one entry per spatial dimension in each list.
llvm::Error verifyConv(const Check &c, const pb::ConvAttrs &a) {
  const int s = c.rank() - 2;
  if (s < 1)
    return c.fail("result must have rank 3 or more");
  const bool transposed = c.op == Opcode::ConvTranspose;
  for (const auto *l : {&a.strides(), &a.dilations(), &a.pads_begin(),
                        &a.pads_end()})
    if (auto e = c.count(*l, s, "entries per list"))
      return e;
  if (auto e = c.count(a.output_padding(), transposed ? s : 0,
                       "output_padding entries"))
    return e;
  if (a.group() < 1)
    return c.fail("group must be positive");
  if (!transposed)
    return c.ok();
  for (int i = 0; i < s; ++i)
    if (a.strides(i) < 1 || a.dilations(i) < 1)
      return c.fail("strides and dilations must be positive");
  for (int64_t v : a.output_padding())
    if (v < 0)
      return c.fail("output_padding must not be negative");
  return c.ok();
}

llvm::Error verifyPool(const Check &c, const pb::PoolAttrs &a) {
  const int s = c.rank() - 2;
  if (s < 1)
    return c.fail("result must have rank 3 or more");
  for (const auto *l : {&a.kernel(), &a.strides(), &a.dilations(),
                        &a.pads_begin(), &a.pads_end()})
    if (auto e = c.count(*l, s, "entries per list"))
      return e;
  if (!pb::PoolKind_IsValid(a.kind()))
    return c.fail("unknown kind " + std::to_string(a.kind()));
  return c.ok();
}

llvm::Error verifyTopK(const Check &c, const pb::TopKAttrs &a) {
  const pb::Buffer &x = c.p.buffers(c.inst.operands(0));
  if (a.axis() < 0 || a.axis() >= x.shape_size())
    return c.fail("axis out of range");
  const int64_t len = x.shape(static_cast<int>(a.axis()));
  if (a.k() < 1 || a.k() > len)
    return c.fail("k must be in [1, " + std::to_string(len) + "]");
  if (c.resultType() != DType::I64)
    return c.fail("result must be i64");
  return c.ok();
}

llvm::Error verifyScatter(const Check &c, const pb::ScatterAttrs &a) {
  if (c.op == Opcode::ScatterElements) {
    if (a.axis() < 0 || a.axis() >= c.rank())
      return c.fail("axis out of range");
  } else if (a.axis() != 0) {
    return c.fail("has no axis");
  }
  if (!pb::ScatterReduction_IsValid(a.reduction()))
    return c.fail("unknown reduction " + std::to_string(a.reduction()));
  return c.integerIndices(1);
}

llvm::Error verifyGridSample(const Check &c, const pb::GridSampleAttrs &a) {
  const pb::Buffer &x = c.p.buffers(c.inst.operands(0));
  const pb::Buffer &g = c.p.buffers(c.inst.operands(1));
  if (x.shape_size() != 4 || g.shape_size() != 4 || g.shape(3) != 2 ||
      c.rank() != 4)
    return c.fail("needs X [N, C, H, W], grid [N, Ho, Wo, 2] and a rank-4 "
                  "result");
  if (!pb::GridSampleMode_IsValid(a.mode()) ||
      !pb::GridSamplePadding_IsValid(a.padding()))
    return c.fail("unknown mode or padding");
  return c.ok();
}

/// state_write: the result is a STATE buffer, the update is its shape with
/// n positions (1 to the state's) along dim `axis` (not the batch dim 0),
/// and the position operand holds one index per batch row and position
/// ([B, n], or [B] when n = 1).
llvm::Error verifyStateWrite(const Check &c, int64_t axis) {
  const pb::Buffer &state = c.p.buffers(c.inst.result());
  const pb::Buffer &update = c.p.buffers(c.inst.operands(0));
  const pb::Buffer &pos = c.p.buffers(c.inst.operands(1));
  if (state.kind() != pb::STATE)
    return c.fail("result must be a state buffer");
  if (axis < 1 || axis >= state.shape_size())
    return c.fail("axis must index a non-batch dim of the state");
  bool fits = update.dtype() == state.dtype() &&
              update.shape_size() == state.shape_size();
  const int64_t n = fits ? update.shape(int(axis)) : 0;
  fits = fits && n >= 1 && n <= state.shape(int(axis));
  for (int d = 0; fits && d < state.shape_size(); ++d)
    fits = d == axis || update.shape(d) == state.shape(d);
  if (!fits)
    return c.fail("update must have the state's type and shape with 1 to "
                  "the state's positions along dim " + std::to_string(axis));
  if (auto e = c.integerIndices(1))
    return e;
  const int64_t rows = state.shape(0);
  bool posFits = pos.shape_size() == 2
                     ? pos.shape(0) == rows && pos.shape(1) == n
                     : pos.shape_size() == 1 && n == 1 && pos.shape(0) == rows;
  if (!posFits)
    return c.fail("position must be [B, n] (or [B] when n = 1), B the "
                  "state's dim 0 and n the positions written");
  return c.ok();
}

/// The attribute values of an instruction whose attributes carry the
/// message Opcodes.def names, and the operand types and shapes they imply.
llvm::Error verifyValues(const Check &c, const pb::Attributes &a) {
  switch (a.kind_case()) {
  case pb::Attributes::kAxis: {
    const int64_t axis = a.axis().axis();
    switch (c.op) {
    case Opcode::Softmax: // the kernel checks its axis
      return c.ok();
    case Opcode::Concat: // an axis of the result, which is never a scalar
      return axis >= 0 && axis < c.rank() ? c.ok()
                                          : c.fail("axis out of range");
    case Opcode::Gather: // an axis of the data
      if (axis < 0 || axis >= c.operandRank(0))
        return c.fail("axis out of range");
      return c.integerIndices(1);
    case Opcode::GatherElements:
      if (auto e = c.axisBelow(axis, c.rank()))
        return e;
      return c.integerIndices(1);
    case Opcode::StateWrite:
      return verifyStateWrite(c, axis);
    default: // log_softmax, hardmax
      return c.axisBelow(axis, c.rank());
    }
  }
  case pb::Attributes::kAxes:
    return c.sortedAxes(a.axes().axes(), c.operandRank(0));
  case pb::Attributes::kTranspose:
    return c.count(a.transpose().perm(), c.rank(), "perm entries");
  case pb::Attributes::kSlice:
    if (auto e = c.count(a.slice().starts(), c.rank(), "starts"))
      return e;
    return c.count(a.slice().steps(), c.rank(), "steps");
  case pb::Attributes::kUnary: {
    const FnInfo *fn = unaryFnInfo(a.unary().fn());
    if (!fn)
      return c.fail("unknown function");
    if (fn->convertsType() &&
        !fn->resultKindOk(isFloat(c.resultType()),
                          !isFloat(c.resultType()) &&
                              c.resultType() != DType::Bool))
      return c.fail(std::string(fn->mnemonic) + " of a result of type " +
                    std::string(dtypeName(c.resultType())));
    return c.count(a.unary().params(), int(fn->params), "parameters");
  }
  case pb::Attributes::kBinary:
    return binaryFnInfo(a.binary().fn()) ? c.ok()
                                         : c.fail("unknown function");
  case pb::Attributes::kReduce:
    if (!reduceFnInfo(a.reduce().fn()))
      return c.fail("unknown function");
    return c.sortedAxes(a.reduce().axes(), c.operandRank(0));
  case pb::Attributes::kArgReduce:
    if (!argReduceFnInfo(a.arg_reduce().fn()))
      return c.fail("unknown function");
    if (auto e = c.axisBelow(a.arg_reduce().axis(), c.operandRank(0)))
      return e;
    return c.resultType() == DType::I64 ? c.ok()
                                        : c.fail("result must be i64");
  case pb::Attributes::kCumsum:
    return c.axisBelow(a.cumsum().axis(), c.rank());
  case pb::Attributes::kPad:
    if (!pb::PadMode_IsValid(a.pad().mode()))
      return c.fail("unknown mode " + std::to_string(a.pad().mode()));
    if (auto e = c.count(a.pad().begin(), c.rank(), "begin pads"))
      return e;
    return c.count(a.pad().end(), c.rank(), "end pads");
  case pb::Attributes::kConv:
    return verifyConv(c, a.conv());
  case pb::Attributes::kPool:
    return verifyPool(c, a.pool());
  case pb::Attributes::kTopK:
    return verifyTopK(c, a.top_k());
  case pb::Attributes::kScatter:
    return verifyScatter(c, a.scatter());
  case pb::Attributes::kGridSample:
    return verifyGridSample(c, a.grid_sample());
  case pb::Attributes::KIND_NOT_SET:
    break;
  }
  if (c.op == Opcode::Det) {
    const pb::Buffer &x = c.p.buffers(c.inst.operands(0));
    const int xr = x.shape_size();
    if (xr < 2 || x.shape(xr - 1) != x.shape(xr - 2) || c.rank() != xr - 2)
      return c.fail("needs X [..., n, n] and a result of X's batch shape");
  }
  return c.ok();
}

} // namespace

llvm::Error lpx::isa::verifyInstruction(const pb::Program &p,
                                        const pb::Instruction &inst,
                                        size_t index) {
  const Check c{p, inst, index, static_cast<Opcode>(inst.opcode())};
  if (auto e = verifyArity(c))
    return e;
  const pb::Attributes &a = inst.attributes();
  if (a.kind_case() != attributesCaseOf(c.op))
    return c.fail(a.kind_case() == pb::Attributes::KIND_NOT_SET
                      ? "missing attributes"
                      : "carries attributes of another opcode");
  return verifyValues(c, a);
}
