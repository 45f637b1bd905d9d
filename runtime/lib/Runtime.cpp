//===- Runtime.cpp - Running a program on the CPU -------------------------===//
#include "lpx/runtime/Runtime.h"
#include "lpx/isa/Bindings.h"
#include "Dispatch.h"
#include "Shape.h"
#include <cstring>

using namespace lpx::rt;
namespace isa = lpx::isa;
namespace pb = lpx::isa::pb;

static std::string describe(isa::DType t, llvm::ArrayRef<int64_t> shape) {
  return std::string(isa::dtypeName(t)) + shapeStr(shape);
}

llvm::Expected<std::vector<HostTensor>>
lpx::rt::execute(const isa::LoadedProgram &prog,
                 const std::vector<HostTensor> &inputs) {
  const pb::Program &p = prog.program;
  // LoadedProgram is a plain struct; re-checking (linear) keeps every buffer
  // access below in bounds even when it was not built by readProgramFile.
  if (llvm::Error e = isa::verifyProgram(p, prog.chip))
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
    std::vector<uint64_t> size(p.num_nodes(), 0);
    for (const pb::Buffer &b : p.buffers())
      size[b.node()] = std::max<uint64_t>(size[b.node()], b.addr() + b.bytes());
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

  auto ins = isa::groupBindings(p, p.inputs());
  if (!ins)
    return ins.takeError();
  for (const isa::HostBinding &in : *ins) {
    auto it = std::find_if(inputs.begin(), inputs.end(), [&](const HostTensor &t) {
      return t.name == in.name;
    });
    if (it == inputs.end())
      return fail("missing input '" + in.name + "'");
    auto want = static_cast<isa::DType>(in.dtype);
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

  std::vector<uint8_t> scratch;
  for (int i = 0; i < p.instructions_size(); ++i)
    if (llvm::Error e = runInstruction(p, p.instructions(i), i, memory, scratch))
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
