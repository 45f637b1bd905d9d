//===- InstructionAttrs.cpp - Each op's typed instruction attributes ------===//
//
// InstructionOpInterface::fillInstructionAttrs for the lpx_graph ops whose
// opcode carries an attribute message (Opcodes.def, last column), and the
// mapping of the IR's mode enums onto the program schema's.
//
//===----------------------------------------------------------------------===//
#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Dialect/Graph/IR/ProgramEnums.h"
#include "lpx/isa/ElementwiseFunctions.h"
#include "program.pb.h"

#include "llvm/Support/ErrorHandling.h"

using namespace mlir;
using namespace lpx::graph;
namespace pb = lpx::isa::pb;

#include "lpx/Dialect/Graph/IR/InstructionOpInterface.cpp.inc"

//===----------------------------------------------------------------------===//
// Mode enums. Each IR case has the name of its schema value without the
// prefix (`reflect` is PAD_REFLECT), so the mapping is by name, here only.
//===----------------------------------------------------------------------===//

template <typename E>
static E byName(llvm::StringRef prefix, llvm::StringRef mode,
                bool (*parse)(const std::string &, E *)) {
  E value{};
  if (!parse((prefix + mode.upper()).str(), &value))
    llvm::report_fatal_error(llvm::Twine("program.proto has no ") + prefix +
                             mode.upper());
  return value;
}

pb::PadMode lpx::graph::toProgram(PadMode m) {
  return byName("PAD_", stringifyPadMode(m), &pb::PadMode_Parse);
}
pb::ScatterReduction lpx::graph::toProgram(ScatterReduction r) {
  return byName("SCATTER_", stringifyScatterReduction(r),
                &pb::ScatterReduction_Parse);
}
pb::PoolKind lpx::graph::toProgram(PoolKind k) {
  return byName("POOL_", stringifyPoolKind(k), &pb::PoolKind_Parse);
}
pb::GridSampleMode lpx::graph::toProgram(GridSampleMode m) {
  return byName("GRID_SAMPLE_", stringifyGridSampleMode(m),
                &pb::GridSampleMode_Parse);
}
pb::GridSamplePadding lpx::graph::toProgram(GridSamplePadding p) {
  return byName("GRID_SAMPLE_", stringifyGridSamplePadding(p),
                &pb::GridSamplePadding_Parse);
}

//===----------------------------------------------------------------------===//
// Attribute messages.
//===----------------------------------------------------------------------===//

template <typename Range>
static void append(google::protobuf::RepeatedField<int64_t> *to,
                   const Range &from) {
  for (auto v : from)
    to->Add(int64_t(v));
}

/// `pads` holds the begin amounts of every dimension, then the end amounts.
static void appendPads(google::protobuf::RepeatedField<int64_t> *begin,
                       google::protobuf::RepeatedField<int64_t> *end,
                       ArrayRef<int64_t> pads) {
  append(begin, pads.take_front(pads.size() / 2));
  append(end, pads.drop_front(pads.size() / 2));
}

// The ops whose message is AxisAttrs: their one axis.
#define LPX_AXIS_ATTRS(Op)                                                     \
  void Op::fillInstructionAttrs(pb::Attributes &a) {                           \
    a.mutable_axis()->set_axis(getAxis());                                     \
  }
LPX_AXIS_ATTRS(SoftmaxOp)
LPX_AXIS_ATTRS(LogSoftmaxOp)
LPX_AXIS_ATTRS(HardmaxOp)
LPX_AXIS_ATTRS(ConcatOp)
LPX_AXIS_ATTRS(GatherOp)
LPX_AXIS_ATTRS(GatherElementsOp)
LPX_AXIS_ATTRS(StateWriteOp)
#undef LPX_AXIS_ATTRS

void ReduceMeanOp::fillInstructionAttrs(pb::Attributes &a) {
  append(a.mutable_axes()->mutable_axes(), getAxes());
}

void TransposeOp::fillInstructionAttrs(pb::Attributes &a) {
  append(a.mutable_transpose()->mutable_perm(), getPerm());
}

void SliceOp::fillInstructionAttrs(pb::Attributes &a) {
  append(a.mutable_slice()->mutable_starts(), getStarts());
  append(a.mutable_slice()->mutable_steps(), getSteps());
}

// Generic families: the function id (the verifier checked it exists).
static void fillUnary(pb::Attributes &a, StringRef fn, ArrayRef<double> params) {
  pb::UnaryAttrs *u = a.mutable_unary();
  u->set_fn(uint32_t(*lpx::isa::unaryFnFromMnemonic(fn.str())));
  for (double p : params)
    u->add_params(p);
}

void UnaryFnOp::fillInstructionAttrs(pb::Attributes &a) {
  fillUnary(a, getFn(), getParams());
}

void RescaleOp::fillInstructionAttrs(pb::Attributes &a) {
  fillUnary(a, getFn(), getParams());
}

void BinaryFnOp::fillInstructionAttrs(pb::Attributes &a) {
  a.mutable_binary()->set_fn(
      uint32_t(*isa::binaryFnFromMnemonic(getFn().str())));
}

void ReduceOp::fillInstructionAttrs(pb::Attributes &a) {
  pb::ReduceAttrs *r = a.mutable_reduce();
  r->set_fn(uint32_t(*isa::reduceFnFromMnemonic(getFn().str())));
  append(r->mutable_axes(), getAxes());
}

void ArgReduceOp::fillInstructionAttrs(pb::Attributes &a) {
  pb::ArgReduceAttrs *r = a.mutable_arg_reduce();
  r->set_fn(uint32_t(*isa::argReduceFnFromMnemonic(getFn().str())));
  r->set_axis(getAxis());
  r->set_select_last_index(getSelectLastIndex());
}

void CumSumOp::fillInstructionAttrs(pb::Attributes &a) {
  pb::CumSumAttrs *c = a.mutable_cumsum();
  c->set_axis(getAxis());
  c->set_exclusive(getExclusive());
  c->set_reverse(getReverse());
}

void PadOp::fillInstructionAttrs(pb::Attributes &a) {
  pb::PadAttrs *p = a.mutable_pad();
  p->set_mode(toProgram(getMode()));
  p->set_value(getValue().convertToDouble());
  appendPads(p->mutable_begin(), p->mutable_end(), getPads());
}

/// Conv and ConvTranspose share the message (output_padding: transpose only).
template <typename ConvLike>
static pb::ConvAttrs *fillConv(ConvLike op, pb::Attributes &a) {
  pb::ConvAttrs *c = a.mutable_conv();
  c->set_group(op.getGroup());
  append(c->mutable_strides(), op.getStrides());
  append(c->mutable_dilations(), op.getDilations());
  appendPads(c->mutable_pads_begin(), c->mutable_pads_end(), op.getPads());
  return c;
}

void ConvOp::fillInstructionAttrs(pb::Attributes &a) { fillConv(*this, a); }

void ConvTransposeOp::fillInstructionAttrs(pb::Attributes &a) {
  append(fillConv(*this, a)->mutable_output_padding(), getOutputPadding());
}

void PoolOp::fillInstructionAttrs(pb::Attributes &a) {
  pb::PoolAttrs *p = a.mutable_pool();
  p->set_kind(toProgram(getKind()));
  p->set_count_include_pad(getCountIncludePad());
  append(p->mutable_kernel(), getKernelShape());
  append(p->mutable_strides(), getStrides());
  append(p->mutable_dilations(), getDilations());
  appendPads(p->mutable_pads_begin(), p->mutable_pads_end(), getPads());
}

void TopKOp::fillInstructionAttrs(pb::Attributes &a) {
  pb::TopKAttrs *t = a.mutable_top_k();
  t->set_axis(getAxis());
  t->set_k(getK());
  t->set_largest(getLargest());
  t->set_sorted(getSorted());
}

void ScatterElementsOp::fillInstructionAttrs(pb::Attributes &a) {
  a.mutable_scatter()->set_axis(getAxis());
  a.mutable_scatter()->set_reduction(toProgram(getReduction()));
}

void ScatterNDOp::fillInstructionAttrs(pb::Attributes &a) {
  a.mutable_scatter()->set_reduction(toProgram(getReduction()));
}

void GridSampleOp::fillInstructionAttrs(pb::Attributes &a) {
  pb::GridSampleAttrs *g = a.mutable_grid_sample();
  g->set_mode(toProgram(getMode()));
  g->set_padding(toProgram(getPaddingMode()));
  g->set_align_corners(getAlignCorners());
}
