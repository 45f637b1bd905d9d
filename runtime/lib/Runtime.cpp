//===- Runtime.cpp - Running a program on the CPU -------------------------===//
#include "lpx/runtime/Runtime.h"
#include "lpx/isa/Bindings.h"
#include "lpx/isa/StateLayout.h"
#include "Dispatch.h"
#include "Kernels.h"
#include "Shape.h"
#include <cstring>
#include <optional>
#include <unistd.h>

using namespace lpx::rt;
namespace isa = lpx::isa;
namespace pb = lpx::isa::pb;

static std::string describe(isa::DType t, llvm::ArrayRef<int64_t> shape) {
  return std::string(isa::dtypeName(t)) + shapeStr(shape);
}

static std::vector<uint64_t> nodeMemoryBytes(const pb::Program &p) {
  std::vector<uint64_t> size(p.num_nodes(), 0);
  for (const pb::Buffer &b : p.buffers())
    size[b.node()] = std::max<uint64_t>(size[b.node()], b.addr() + b.bytes());
  return size;
}

uint64_t lpx::rt::requiredMemoryBytes(const pb::Program &p) {
  uint64_t total = 0;
  for (uint64_t n : nodeMemoryBytes(p))
    total += n;
  return total;
}

uint64_t lpx::rt::physicalMemoryBytes() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0)
    return UINT64_MAX; // unknown: let the allocator decide
  return uint64_t(pages) * uint64_t(pageSize);
}

llvm::Error lpx::rt::checkMemoryFits(const pb::Program &p,
                                     uint64_t availableBytes) {
  uint64_t need = requiredMemoryBytes(p);
  if (need <= availableBytes)
    return llvm::Error::success();
  return fail("the program's node memories need " + llvm::Twine(need) +
              " bytes, more than the " + llvm::Twine(availableBytes) +
              " bytes of memory this machine has");
}

namespace {
/// Bytes [addr, addr + bytes) of one node.
struct Range {
  uint64_t addr, end;
};

/// For every constant buffer: whether a non-constant buffer on its node
/// overlaps it (and may overwrite it during a run).
std::vector<int> constantsSharingMemory(const pb::Program &p) {
  std::vector<std::vector<Range>> written(p.num_nodes());
  for (const pb::Buffer &b : p.buffers())
    if (b.kind() != pb::CONSTANT && b.bytes() > 0)
      written[b.node()].push_back({b.addr(), b.addr() + b.bytes()});
  // Sorted by start, with the largest end of every prefix.
  std::vector<std::vector<uint64_t>> maxEnd(p.num_nodes());
  for (uint32_t n = 0; n < p.num_nodes(); ++n) {
    llvm::sort(written[n], [](Range x, Range y) { return x.addr < y.addr; });
    uint64_t m = 0;
    for (Range r : written[n])
      maxEnd[n].push_back(m = std::max(m, r.end));
  }
  std::vector<int> shared;
  for (int i = 0; i < p.buffers_size(); ++i) {
    const pb::Buffer &b = p.buffers(i);
    if (b.kind() != pb::CONSTANT || b.bytes() == 0)
      continue;
    const auto &ws = written[b.node()];
    // Ranges starting before this constant ends; overlap if one ends after
    // it starts.
    auto count = std::partition_point(ws.begin(), ws.end(), [&](Range r) {
                   return r.addr < b.addr() + b.bytes();
                 }) - ws.begin();
    if (count > 0 && maxEnd[b.node()][count - 1] > b.addr())
      shared.push_back(i);
  }
  return shared;
}
} // namespace

llvm::Expected<Machine> Machine::load(const isa::VerifiedProgram &prog) {
  uint64_t physical = physicalMemoryBytes();
  return load(prog, physical == UINT64_MAX ? physical : physical / 2);
}

llvm::Expected<Machine> Machine::load(const isa::VerifiedProgram &prog,
                                      uint64_t widenBudget) {
  // Verified once when it was made: every buffer access below is in bounds.
  const pb::Program &p = prog.program();
  Machine m(prog);
  m.constData.assign(p.buffers_size(), {});
  for (int i = 0; i < p.constants_size(); ++i)
    if (!prog.data()[size_t(i)].empty())
      m.constData[p.constants(i).buffer()] = prog.data()[size_t(i)];
  for (int i = 0; i < p.buffers_size(); ++i) {
    const pb::Buffer &b = p.buffers(i);
    if (b.kind() == pb::CONSTANT && b.bytes() > 0 && m.constData[i].empty())
      return fail("program has shape-only constants; it can be simulated but "
                  "not run (constant '" + b.name() + "' has no data)");
  }
  // Before allocating: node memories that cannot fit in this machine are
  // refused, not half-run into an out-of-memory kill.
  if (llvm::Error e = checkMemoryFits(p, physicalMemoryBytes()))
    return std::move(e);
  m.memory.resize(p.num_nodes());
  std::vector<uint64_t> size = nodeMemoryBytes(p);
  for (uint32_t n = 0; n < p.num_nodes(); ++n)
    m.memory[n].assign(size[n], 0);
  for (int i = 0; i < p.buffers_size(); ++i)
    m.placeConstant(i);
  m.sharedConstants = constantsSharingMemory(p);
  m.widenConstants(widenBudget);
  return m;
}

void Machine::widenConstants(uint64_t budget) {
  // Only constants nothing else writes: their bytes are constData's for the
  // whole run, so the copy stays their value.
  const pb::Program &p = prog->program();
  std::vector<bool> shared(size_t(p.buffers_size()), false);
  for (int i : sharedConstants)
    shared[size_t(i)] = true;
  widened.assign(size_t(p.buffers_size()), {});
  uint64_t used = requiredMemoryBytes(p);
  for (const pb::Instruction &inst : p.instructions()) {
    const pb::Buffer &res = p.buffers(int(inst.result()));
    for (uint32_t id : inst.operands()) {
      const pb::Buffer &b = p.buffers(int(id));
      if (b.kind() != pb::CONSTANT || shared[id] || !widened[id].empty() ||
          !widensOperand(isa::opcodeOf(inst), isa::DType(b.dtype()),
                         isa::DType(res.dtype())))
        continue;
      // A copy that would not fit is not made: that operand is converted
      // on every run instead.
      uint64_t bytes =
          sizeof(float) * (b.bytes() / isa::dtypeBytes(isa::DType(b.dtype())));
      if (used > budget || bytes > budget - used)
        continue;
      used += bytes;
      widened[id] = widenToFloat(
          View{isa::DType(b.dtype()),
               llvm::ArrayRef<int64_t>(b.shape().data(), b.shape_size()),
               memory[b.node()].data() + b.addr()});
    }
  }
}

llvm::Expected<std::vector<HostTensor>>
Machine::run(const std::vector<HostTensor> &inputs) {
  const pb::Program &p = prog->program();
  auto place = [&](const pb::Buffer &b) {
    return memory[b.node()].data() + b.addr();
  };
  for (int i : sharedConstants)
    placeConstant(i);

  auto ins = isa::groupBindings(p, p.inputs());
  if (!ins)
    return ins.takeError();
  for (const isa::HostBinding &in : *ins) {
    auto found = std::find_if(inputs.begin(), inputs.end(), [&](const HostTensor &t) {
      return t.name == in.name;
    });
    if (found == inputs.end())
      return fail("missing input '" + in.name + "'");
    const HostTensor *it = &*found;
    auto want = static_cast<isa::DType>(in.dtype);
    // Float data for an input held in another float format is converted
    // here, on the host, as a deployment's runtime feeds the chip.
    std::optional<HostTensor> converted;
    if (it->dtype != want && isa::isFloat(it->dtype) && isa::isFloat(want) &&
        it->shape == in.shape) {
      auto c = convertTensor(*it, want);
      if (!c)
        return c.takeError();
      converted = std::move(*c);
      it = &*converted;
    }
    if (it->dtype != want || it->shape != in.shape)
      return fail("input '" + in.name + "' is " +
                  describe(it->dtype, it->shape) + ", the program expects " +
                  describe(want, in.shape));
    uint64_t bytes = isa::TensorDesc{want, in.shape}.bytes();
    if (it->data.size() != bytes)
      return fail("input '" + in.name + "' holds " +
                  llvm::Twine(it->data.size()) + " bytes, expected " +
                  llvm::Twine(bytes));
    for (const pb::Binding *piece : in.pieces)
      isa::copyPiece(p, *piece, in.shape,
                     const_cast<uint8_t *>(it->data.data()),
                     place(p.buffers(piece->buffer())), /*toPiece=*/true);
  }

  for (int i = 0; i < p.instructions_size(); ++i)
    if (llvm::Error e = runInstruction(p, p.instructions(i), i, memory, scratch,
                                       widened))
      return std::move(e);

  auto outs = isa::groupBindings(p, p.outputs());
  if (!outs)
    return outs.takeError();
  std::vector<HostTensor> outputs;
  outputs.reserve(outs->size());
  for (const isa::HostBinding &out : *outs) {
    HostTensor t;
    t.name = out.name;
    t.dtype = static_cast<isa::DType>(out.dtype);
    t.shape = out.shape;
    t.data.assign(isa::TensorDesc{t.dtype, t.shape}.bytes(), 0);
    for (const pb::Binding *piece : out.pieces)
      isa::copyPiece(p, *piece, out.shape, t.data.data(),
                     place(p.buffers(piece->buffer())), /*toPiece=*/false);
    outputs.push_back(std::move(t));
  }
  return outputs;
}

void Machine::reset() {
  for (const pb::Buffer &b : prog->program().buffers())
    if (b.kind() == pb::STATE && b.bytes() > 0)
      std::memset(memory[b.node()].data() + b.addr(), 0, b.bytes());
}

llvm::Error Machine::handStateTo(Machine &next) const {
  const pb::Program &from = prog->program(), &to = next.prog->program();
  if (llvm::Error e = isa::checkSameState(from, "the program handing it over",
                                          to, "the program taking it"))
    return fail("cannot hand the resident state over: " +
                llvm::toString(std::move(e)));
  // Same names, nodes and addresses: copy each state buffer where it lies.
  for (const pb::Binding &s : from.states()) {
    const pb::Buffer &b = from.buffers(int(s.buffer()));
    std::memcpy(next.memory[b.node()].data() + b.addr(),
                memory[b.node()].data() + b.addr(), b.bytes());
  }
  return llvm::Error::success();
}

llvm::ArrayRef<uint8_t> Machine::stateBytes(uint32_t buffer) const {
  const pb::Buffer &b = prog->program().buffers(int(buffer));
  if (b.kind() != pb::STATE)
    return {};
  return llvm::ArrayRef<uint8_t>(memory[b.node()].data() + b.addr(), b.bytes());
}

void Machine::placeConstant(int buffer) {
  const pb::Program &p = prog->program();
  if (llvm::ArrayRef<char> data = constData[buffer]; !data.empty()) {
    const pb::Buffer &b = p.buffers(buffer);
    std::memcpy(memory[b.node()].data() + b.addr(), data.data(), data.size());
  }
}

llvm::Expected<std::vector<HostTensor>>
lpx::rt::execute(const isa::VerifiedProgram &prog,
                 const std::vector<HostTensor> &inputs) {
  auto machine = Machine::load(prog);
  if (!machine)
    return machine.takeError();
  return machine->run(inputs);
}
