//===- Program.cpp - Reading, writing and verifying program files ---------===//
#include "lpx/isa/Program.h"
#include "lpx/isa/NumberFormats.h"
#include "VerifyInstruction.h"
#include "lpx/isa/Bindings.h"
#include "lpx/isa/UnitOps.h"
#include "lpx/isa/ElementwiseFunctions.h"
#include "lpx/isa/Topology.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/JSON.h"

using namespace lpx::isa;
using llvm::createStringError;
using llvm::inconvertibleErrorCode;

template <typename... Ts>
static llvm::Error fail(const char *fmt, Ts... args) {
  return createStringError(inconvertibleErrorCode(), fmt, args...);
}

TensorDesc lpx::isa::descOf(const pb::Buffer &b) {
  TensorDesc d;
  d.dtype = static_cast<DType>(b.dtype());
  d.shape.assign(b.shape().begin(), b.shape().end());
  return d;
}

Opcode lpx::isa::opcodeOf(const pb::Instruction &inst) {
  return static_cast<Opcode>(inst.opcode());
}

uint64_t lpx::isa::bytesWritten(const pb::Program &p,
                                const pb::Instruction &inst) {
  if (opcodeOf(inst) == Opcode::StateWrite && inst.operands_size() > 0)
    return p.buffers(int(inst.operands(0))).bytes();
  return p.buffers(int(inst.result())).bytes();
}

uint64_t lpx::isa::firstOperandReadBytes(const ChipSpec &chip,
                                         const pb::Program &p,
                                         const pb::Instruction &inst) {
  if (inst.operands_size() == 0)
    return 0;
  const TensorDesc data = descOf(p.buffers(int(inst.operands(0))));
  const Opcode op = opcodeOf(inst);
  if (op == Opcode::Gather && inst.operands_size() == 2)
    return gatherReadBytes(chip, data,
                           descOf(p.buffers(int(inst.operands(1)))),
                           inst.attributes().axis().axis());
  if (op == Opcode::Slice && inst.operands_size() == 1) {
    const pb::SliceAttrs &a = inst.attributes().slice();
    return sliceReadBytes(chip, data, descOf(p.buffers(int(inst.result()))),
                          {a.starts().begin(), a.starts().end()},
                          {a.steps().begin(), a.steps().end()});
  }
  return data.bytes();
}

uint64_t lpx::isa::bytesRead(const ChipSpec &chip, const pb::Program &p,
                             const pb::Instruction &inst) {
  uint64_t bytes = 0;
  for (int i = 0; i < inst.operands_size(); ++i) {
    const uint32_t id = inst.operands(i);
    bool seen = false;
    for (int j = 0; j < i && !seen; ++j)
      seen = inst.operands(j) == id;
    if (!seen)
      bytes += i == 0 ? firstOperandReadBytes(chip, p, inst)
                      : p.buffers(int(id)).bytes();
  }
  return bytes;
}

Cost lpx::isa::instructionCost(const ChipSpec &chip, const pb::Program &p,
                               const pb::Instruction &inst) {
  Opcode op = opcodeOf(inst);
  std::vector<TensorDesc> operands;
  for (uint32_t id : inst.operands())
    operands.push_back(descOf(p.buffers(int(id))));
  if (op == Opcode::Send)
    return sendCost(chip, operands.empty() ? 0 : operands[0].bytes(),
                    linkRate(chip, p.num_nodes(), inst.node(), inst.link()));
  return instructionCost(chip, op, operands, descOf(p.buffers(inst.result())),
                         inst.attributes());
}

/// Resident state: written only by state_write (in place; a chunked
/// prefill writes it once per chunk, in issue order), never bound to the
/// host, and sharing no byte with another buffer of its node (nothing else
/// may clobber it between runs).
static llvm::Error verifyStateBuffers(const pb::Program &p) {
  for (int i = 0; i < p.instructions_size(); ++i) {
    const pb::Instruction &inst = p.instructions(i);
    bool isState = p.buffers(int(inst.result())).kind() == pb::STATE;
    if (isState != (opcodeOf(inst) == Opcode::StateWrite))
      return fail("instruction %d: only state_write writes a state buffer", i);
  }
  for (const auto *list : {&p.inputs(), &p.outputs()})
    for (const pb::Binding &bind : *list)
      if (p.buffers(int(bind.buffer())).kind() == pb::STATE)
        return fail("binding %s: a state buffer is not bound to the host",
                    bind.name().c_str());
  // The state bindings say which state the program expects: each names a
  // state buffer, and every state buffer is bound exactly once.
  std::vector<int> bound(p.buffers_size(), 0);
  for (const pb::Binding &bind : p.states()) {
    if (p.buffers(int(bind.buffer())).kind() != pb::STATE)
      return fail("state binding %s: buffer %s is not a state buffer",
                  bind.name().c_str(),
                  p.buffers(int(bind.buffer())).name().c_str());
    if (++bound[bind.buffer()] > 1)
      return fail("state binding %s: buffer %s is bound twice",
                  bind.name().c_str(),
                  p.buffers(int(bind.buffer())).name().c_str());
  }
  for (int i = 0; i < p.buffers_size(); ++i)
    if (p.buffers(i).kind() == pb::STATE && !bound[i])
      return fail("state buffer %s has no state binding",
                  p.buffers(i).name().c_str());
  // By start address per node: a buffer overlaps an earlier one when it
  // starts before the furthest end seen so far (of any buffer, or of a
  // state), so one sweep finds every overlap that involves a state.
  std::vector<int> order;
  for (int i = 0; i < p.buffers_size(); ++i)
    if (p.buffers(i).bytes() > 0)
      order.push_back(i);
  llvm::sort(order, [&](int a, int b) {
    return std::make_pair(p.buffers(a).node(), p.buffers(a).addr()) <
           std::make_pair(p.buffers(b).node(), p.buffers(b).addr());
  });
  int furthest = -1, furthestState = -1;
  auto end = [&](int i) { return p.buffers(i).addr() + p.buffers(i).bytes(); };
  for (size_t k = 0; k < order.size(); ++k) {
    const pb::Buffer &b = p.buffers(order[k]);
    if (k && b.node() != p.buffers(order[k - 1]).node())
      furthest = furthestState = -1;
    int other = furthestState >= 0 && end(furthestState) > b.addr()
                    ? furthestState
                : b.kind() == pb::STATE && furthest >= 0 &&
                        end(furthest) > b.addr()
                    ? furthest
                    : -1;
    if (other >= 0)
      return fail("buffer %s overlaps buffer %s; a state buffer shares no "
                  "byte", b.name().c_str(), p.buffers(other).name().c_str());
    if (furthest < 0 || end(order[k]) > end(furthest))
      furthest = order[k];
    if (b.kind() == pb::STATE &&
        (furthestState < 0 || end(order[k]) > end(furthestState)))
      furthestState = order[k];
  }
  return llvm::Error::success();
}

llvm::Error lpx::isa::verifyProgram(const pb::Program &p,
                                    const ChipSpec &chip) {
  if (p.num_nodes() == 0)
    return fail("program has zero nodes");
  if (auto why = checkChipCount(chip, p.num_nodes()))
    return fail("%s", why->c_str());
  const uint32_t nodes = p.num_nodes();
  if ((p.tp() == 0) != (p.pp() == 0) ||
      uint64_t(p.tp()) * p.pp() > uint64_t(nodes))
    return fail("placement tp %u x pp %u does not fit the program's %u nodes",
                p.tp(), p.pp(), nodes);
  if (!isRecordableFormat(p.weights_format(), /*weights=*/true) ||
      !isRecordableFormat(p.activations_format(), /*weights=*/false))
    return fail("unknown number format (weights '%s', activations '%s')",
                p.weights_format().c_str(), p.activations_format().c_str());
  const int numBuffers = p.buffers_size();
  for (int i = 0; i < numBuffers; ++i) {
    const pb::Buffer &b = p.buffers(i);
    if (b.node() >= nodes)
      return fail("buffer %d (%s): node %u out of range", i, b.name().c_str(),
                  b.node());
    DType t = static_cast<DType>(b.dtype());
    if (dtypeBytes(t) == 0)
      return fail("buffer %d (%s): unknown element type %u", i,
                  b.name().c_str(), b.dtype());
    uint64_t elems = 1;
    for (int64_t d : b.shape()) {
      if (d < 0)
        return fail("buffer %d (%s): negative dimension", i, b.name().c_str());
      if (d != 0 && elems > (UINT64_MAX / 16) / static_cast<uint64_t>(d))
        return fail("buffer %d (%s): size overflows", i, b.name().c_str());
      elems *= static_cast<uint64_t>(d);
    }
    if (elems * dtypeBytes(t) != b.bytes())
      return fail("buffer %d (%s): %llu bytes do not match its shape", i,
                  b.name().c_str(), (unsigned long long)b.bytes());
    if (b.addr() > chip.sram.bytes || b.bytes() > chip.sram.bytes - b.addr())
      return fail("buffer %d (%s): [%llu, +%llu) lies outside node SRAM of "
                  "%llu bytes",
                  i, b.name().c_str(), (unsigned long long)b.addr(),
                  (unsigned long long)b.bytes(),
                  (unsigned long long)chip.sram.bytes);
  }
  for (const pb::Constant &c : p.constants()) {
    if (c.buffer() >= uint32_t(numBuffers))
      return fail("constant refers to missing buffer %u", c.buffer());
    const pb::Buffer &b = p.buffers(c.buffer());
    if (b.kind() != pb::CONSTANT)
      return fail("constant data for non-constant buffer %s", b.name().c_str());
    if (c.size() != 0 && c.size() != b.bytes())
      return fail("constant %s: %llu bytes of data for a %llu-byte buffer",
                  b.name().c_str(), (unsigned long long)c.size(),
                  (unsigned long long)b.bytes());
  }
  for (const auto *list : {&p.inputs(), &p.outputs(), &p.states()})
    for (const pb::Binding &bind : *list)
      if (bind.buffer() >= uint32_t(numBuffers))
        return fail("binding %s refers to missing buffer %u",
                    bind.name().c_str(), bind.buffer());
  for (const auto *list : {&p.inputs(), &p.outputs(), &p.states()})
    if (auto tensors = groupBindings(p, *list); !tensors)
      return tensors.takeError();

  uint64_t lastIssue = 0;
  for (int i = 0; i < p.instructions_size(); ++i) {
    const pb::Instruction &inst = p.instructions(i);
    if (inst.opcode() >= uint32_t(Opcode::NumOpcodes))
      return fail("instruction %d: unknown opcode %u", i, inst.opcode());
    if (inst.node() >= nodes)
      return fail("instruction %d: node %u out of range", i, inst.node());
    if (inst.issue() < lastIssue)
      return fail("instruction %d: issue cycle %llu precedes the previous "
                  "instruction's %llu (instructions must be sorted)",
                  i, (unsigned long long)inst.issue(),
                  (unsigned long long)lastIssue);
    lastIssue = inst.issue();
    if (inst.result() >= uint32_t(numBuffers))
      return fail("instruction %d: result buffer %u out of range", i,
                  inst.result());
    for (uint32_t id : inst.operands()) {
      if (id >= uint32_t(numBuffers))
        return fail("instruction %d: operand buffer %u out of range", i, id);
      if (p.buffers(id).node() != inst.node())
        return fail("instruction %d: operand %s lives on node %u, not on the "
                    "issuing node %u",
                    i, p.buffers(id).name().c_str(), p.buffers(id).node(),
                    inst.node());
    }
    bool send = opcodeOf(inst) == Opcode::Send;
    uint32_t resultNode = send ? inst.dst_node() : inst.node();
    if (send && (inst.dst_node() >= nodes || inst.dst_node() == inst.node()))
      return fail("instruction %d: send to invalid node %u", i,
                  inst.dst_node());
    if (send && linkTarget(chip, nodes, inst.node(), inst.link()) !=
                    std::optional<uint32_t>(inst.dst_node()))
      return fail("instruction %d: link %u of node %u does not lead to node "
                  "%u",
                  i, inst.link(), inst.node(), inst.dst_node());
    const uint32_t queues = queueCount(chip, unitOf(opcodeOf(inst)));
    if (inst.queue() >= queues)
      return fail("instruction %d: queue %u of %s, which has %u queue%s on "
                  "this chip",
                  i, inst.queue(),
                  std::string(unitName(unitOf(opcodeOf(inst)))).c_str(),
                  queues, queues == 1 ? "" : "s");
    if (p.buffers(inst.result()).node() != resultNode)
      return fail("instruction %d: result %s is not on node %u", i,
                  p.buffers(inst.result()).name().c_str(), resultNode);
    if (auto e = verifyInstruction(p, inst, i))
      return e;
  }
  return verifyStateBuffers(p);
}

std::string lpx::isa::validUtf8(llvm::StringRef s) {
  return llvm::json::isUTF8(s) ? s.str() : llvm::json::fixUTF8(s);
}

llvm::Error lpx::isa::checkChipHash(const pb::Program &p) {
  if (hashText(p.chip_yaml()) != p.chip_hash())
    return fail("chip description does not match its hash");
  return llvm::Error::success();
}

llvm::Expected<VerifiedProgram>
lpx::isa::VerifiedProgram::verify(pb::Program program, ChipSpec chip,
                                  ConstantData data) {
  if (llvm::Error e = checkChipHash(program))
    return std::move(e);
  if (llvm::Error e = verifyProgram(program, chip))
    return std::move(e);
  if (llvm::Error e = checkConstantData(program, data))
    return std::move(e);
  return VerifiedProgram(std::move(program), std::move(chip), std::move(data));
}

llvm::Error lpx::isa::checkConstantData(const pb::Program &p,
                                        const ConstantData &data) {
  if (data.size() > size_t(p.constants_size()))
    return fail("%zu constant data entries for %d constants", data.size(),
                p.constants_size());
  for (int i = 0; i < p.constants_size(); ++i) {
    const pb::Constant &c = p.constants(i);
    if (data[size_t(i)].size() != c.size())
      return fail("constant %d (buffer %u): %zu bytes of data, %llu declared",
                  i, c.buffer(), data[size_t(i)].size(),
                  (unsigned long long)c.size());
  }
  return llvm::Error::success();
}

