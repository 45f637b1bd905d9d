//===- Dispatch.cpp - Opcode to kernel ------------------------------------===//
//
// The result is computed into a scratch buffer and then copied to its place,
// so a kernel never sees its output overlap an operand; state_write alone
// writes its state in place (the verifier keeps every other buffer off it).
//
//===----------------------------------------------------------------------===//
#include "Dispatch.h"
#include "Kernels.h"
#include <cstring>

using namespace lpx::rt;
namespace isa = lpx::isa;
using lpx::isa::Opcode;
namespace pb = lpx::isa::pb;

static View viewOf(const pb::Buffer &b, const NodeMemory &mem) {
  return View{static_cast<isa::DType>(b.dtype()),
              llvm::ArrayRef<int64_t>(b.shape().data(), b.shape_size()),
              mem.data() + b.addr()};
}

static llvm::Error dispatch(Opcode op, llvm::ArrayRef<View> in,
                            const pb::Attributes &attrs, const OutView &out) {
  // Arities and the attribute message of each opcode were checked by
  // isa::verifyProgram.
  switch (op) {
  case Opcode::MatMul:
    return matMul(in[0], in[1], out);
  case Opcode::Add:
  case Opcode::Sub:
  case Opcode::Mul:
  case Opcode::Div:
  case Opcode::Pow:
    return binary(op, in[0], in[1], out);
  case Opcode::Where:
    return where(in[0], in[1], in[2], out);
  case Opcode::Sqrt:
  case Opcode::Neg:
  case Opcode::Relu:
  case Opcode::Sigmoid:
  case Opcode::Tanh:
    return unary(op, in[0], out);
  case Opcode::Cast:
    return cast(in[0], out);
  case Opcode::Softmax:
    return softmax(in[0], attrs.axis().axis(), out);
  case Opcode::ReduceMean:
    return reduceMean(in[0], arrayOf(attrs.axes().axes()), out);
  case Opcode::Transpose:
    return transpose(in[0], arrayOf(attrs.transpose().perm()), out);
  case Opcode::Concat:
    return concat(in, attrs.axis().axis(), out);
  case Opcode::Slice:
    return slice(in[0], attrs.slice(), out);
  case Opcode::Gather:
    return gather(in[0], in[1], attrs.axis().axis(), out);
  case Opcode::Copy:
  case Opcode::Send:
    return copyBytes(in[0], out);
  case Opcode::Unary:
    return unaryFn(in[0], attrs.unary(), out);
  case Opcode::Binary:
    return binaryFn(in[0], in[1], attrs.binary(), out);
  case Opcode::Reduce:
    return reduce(in[0], attrs.reduce(), out);
  case Opcode::ArgReduce:
    return argReduce(in[0], attrs.arg_reduce(), out);
  case Opcode::LogSoftmax:
    return logSoftmax(in[0], attrs.axis().axis(), out);
  case Opcode::Hardmax:
    return hardmax(in[0], attrs.axis().axis(), out);
  case Opcode::CumSum:
    return cumSum(in[0], attrs.cumsum(), out);
  case Opcode::Broadcast:
    return broadcast(in[0], out);
  case Opcode::Pad:
    return pad(in[0], attrs.pad(), out);
  case Opcode::GatherElements:
    return gatherElements(in[0], in[1], attrs.axis().axis(), out);
  case Opcode::Conv:
    return conv(in, attrs.conv(), out);
  case Opcode::Pool:
    return pool(in[0], attrs.pool(), out);
  case Opcode::TopK:
    return topK(in[0], attrs.top_k(), out);
  case Opcode::ScatterElements:
    return scatterElements(in[0], in[1], in[2], attrs.scatter(), out);
  case Opcode::ScatterND:
    return scatterND(in[0], in[1], in[2], attrs.scatter(), out);
  case Opcode::GridSample:
    return gridSample(in[0], in[1], attrs.grid_sample(), out);
  case Opcode::Det:
    return det(in[0], out);
  case Opcode::ConvTranspose:
    return convTranspose(in, attrs.conv(), out);
  case Opcode::StateWrite:
    return stateWrite(in[0], in[1], attrs.axis().axis(), out);
  case Opcode::NumOpcodes:
    break;
  }
  return fail("unknown opcode " + llvm::Twine(static_cast<unsigned>(op)));
}

llvm::Error lpx::rt::runInstruction(const pb::Program &p,
                                    const pb::Instruction &inst, size_t index,
                                    std::vector<NodeMemory> &memory,
                                    std::vector<uint8_t> &scratch,
                                    llvm::ArrayRef<std::vector<float>> widened) {
  Opcode op = isa::opcodeOf(inst);
  const NodeMemory &src = memory[inst.node()];
  llvm::SmallVector<View, 4> in;
  for (uint32_t id : inst.operands()) {
    in.push_back(viewOf(p.buffers(id), src));
    if (id < widened.size() && !widened[id].empty())
      in.back().widened = widened[id].data();
  }
  const pb::Buffer &res = p.buffers(inst.result());
  const bool inPlace = op == Opcode::StateWrite;
  scratch.assign(inPlace ? 0 : res.bytes(), 0);
  OutView out{static_cast<isa::DType>(res.dtype()),
              llvm::ArrayRef<int64_t>(res.shape().data(), res.shape_size()),
              inPlace ? memory[res.node()].data() + res.addr()
                      : scratch.data()};
  if (llvm::Error e = dispatch(op, in, inst.attributes(), out)) {
    std::string where = "instruction " + std::to_string(index) + " (" +
                        std::string(isa::mnemonic(op)) + " on node " +
                        std::to_string(inst.node());
    if (!inst.origin().empty())
      where += ", from '" + inst.origin() + "'";
    return fail(where + "): " + llvm::toString(std::move(e)));
  }
  // A send's result buffer lives on the destination node.
  if (!scratch.empty())
    std::memcpy(memory[res.node()].data() + res.addr(), scratch.data(),
                scratch.size());
  return llvm::Error::success();
}
