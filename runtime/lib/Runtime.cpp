//===- Runtime.cpp - Running a program on the CPU -------------------------===//
#include "lpx/runtime/Runtime.h"
#include "Dispatch.h"
#include "Shape.h"
#include <cstring>
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

llvm::Expected<std::vector<HostTensor>>
lpx::rt::execute(const isa::VerifiedProgram &prog,
                 const std::vector<HostTensor> &inputs) {
  // Verified once when it was made: every buffer access below is in bounds.
  const pb::Program &p = prog.program();
  if (llvm::Error e = checkMemoryFits(p, physicalMemoryBytes()))
    return std::move(e);

  std::vector<const std::string *> constData(p.buffers_size(), nullptr);
  for (const pb::Constant &c : p.constants())
    if (!c.data().empty())
      constData[c.buffer()] = &c.data();
  for (int i = 0; i < p.buffers_size(); ++i) {
    const pb::Buffer &b = p.buffers(i);
    if (b.kind() == pb::CONSTANT && b.bytes() > 0 && !constData[i])
      return fail("program has shape-only constants; it can be simulated but "
                  "not run (constant '" + b.name() + "' has no data)");
  }

  std::vector<NodeMemory> memory(p.num_nodes());
  {
    std::vector<uint64_t> size = nodeMemoryBytes(p);
    for (uint32_t n = 0; n < p.num_nodes(); ++n)
      memory[n].assign(size[n], 0);
  }
  auto place = [&](const pb::Buffer &b) {
    return memory[b.node()].data() + b.addr();
  };
  for (int i = 0; i < p.buffers_size(); ++i)
    if (constData[i])
      std::memcpy(place(p.buffers(i)), constData[i]->data(),
                  constData[i]->size());

  for (const pb::Binding &bind : p.inputs()) {
    const pb::Buffer &b = p.buffers(bind.buffer());
    auto it = std::find_if(inputs.begin(), inputs.end(), [&](const HostTensor &t) {
      return t.name == bind.name();
    });
    if (it == inputs.end())
      return fail("missing input '" + bind.name() + "'");
    auto want = static_cast<isa::DType>(b.dtype());
    llvm::ArrayRef<int64_t> shape(b.shape().data(), b.shape_size());
    if (it->dtype != want || llvm::ArrayRef<int64_t>(it->shape) != shape)
      return fail("input '" + bind.name() + "' is " +
                  describe(it->dtype, it->shape) + ", the program expects " +
                  describe(want, shape));
    if (it->data.size() != b.bytes())
      return fail("input '" + bind.name() + "' holds " +
                  llvm::Twine(it->data.size()) + " bytes, expected " +
                  llvm::Twine(b.bytes()));
    if (!it->data.empty())
      std::memcpy(place(b), it->data.data(), it->data.size());
  }

  std::vector<uint8_t> scratch;
  for (int i = 0; i < p.instructions_size(); ++i)
    if (llvm::Error e = runInstruction(p, p.instructions(i), i, memory, scratch))
      return std::move(e);

  std::vector<HostTensor> outputs;
  outputs.reserve(p.outputs_size());
  for (const pb::Binding &bind : p.outputs()) {
    const pb::Buffer &b = p.buffers(bind.buffer());
    HostTensor t;
    t.name = bind.name();
    t.dtype = static_cast<isa::DType>(b.dtype());
    t.shape.assign(b.shape().begin(), b.shape().end());
    const uint8_t *src = place(b);
    t.data.assign(src, src + b.bytes());
    outputs.push_back(std::move(t));
  }
  return outputs;
}
