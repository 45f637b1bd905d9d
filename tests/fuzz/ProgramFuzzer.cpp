//===- ProgramFuzzer.cpp - Program files into loader, verifier and users --===//
//
// Input: a program payload (the protobuf after the 16-byte header). The
// target also feeds the raw bytes to the loader as a whole file, then gives
// the payload a valid header and chip hash, so the fuzzer gets past those
// two checks into the verifier. Whatever the verifier accepts is simulated,
// disassembled, reported and, when its node memories are small, run on the
// CPU runtime with zero inputs: "after verification simulator and runtime
// trust the program", so no accepted program may crash them.
//
//===----------------------------------------------------------------------===//
#include "lpx/isa/Disassemble.h"
#include "lpx/isa/Program.h"
#include "lpx/runtime/Runtime.h"
#include "lpx/sim/Simulator.h"

#include "llvm/Support/raw_ostream.h"

using namespace lpx;

/// Zero-filled tensors for every input binding.
static std::vector<rt::HostTensor> zeroInputs(const isa::pb::Program &p) {
  std::vector<rt::HostTensor> inputs;
  for (const isa::pb::Binding &bind : p.inputs()) {
    const isa::pb::Buffer &b = p.buffers(bind.buffer());
    rt::HostTensor t;
    t.name = bind.name();
    t.dtype = static_cast<isa::DType>(b.dtype());
    t.shape.assign(b.shape().begin(), b.shape().end());
    t.data.assign(b.bytes(), 0);
    inputs.push_back(std::move(t));
  }
  return inputs;
}

static void exercise(const isa::VerifiedProgram &lp) {
  sim::SimOptions opts;
  opts.maxCycles = uint64_t(1) << 40;
  if (auto r = sim::simulate(lp, opts)) {
    sim::printReport(*r, lp, llvm::nulls());
    sim::printJson(*r, lp, llvm::nulls());
  } else {
    llvm::consumeError(r.takeError());
  }
  isa::disassemble(lp, llvm::nulls());
  // Running allocates the node memories; keep that small while fuzzing.
  if (rt::requiredMemoryBytes(lp.program()) > (uint64_t(16) << 20))
    return;
  uint64_t inputBytes = 0;
  for (const isa::pb::Binding &bind : lp.program().inputs())
    inputBytes += lp.program().buffers(bind.buffer()).bytes();
  if (inputBytes > (uint64_t(16) << 20))
    return;
  auto out = rt::execute(lp, zeroInputs(lp.program()));
  if (!out)
    llvm::consumeError(out.takeError());
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  if (auto lp = isa::parseProgram(bytes, "fuzz.lpxb"))
    exercise(*lp);
  else
    llvm::consumeError(lp.takeError());

  isa::pb::Program p;
  if (!p.ParseFromArray(data, static_cast<int>(size)))
    return 0;
  p.set_chip_hash(isa::hashText(p.chip_yaml()));
  auto lp = isa::parseProgram(isa::serializeProgram(p), "fuzz.lpxb");
  if (!lp) {
    llvm::consumeError(lp.takeError());
    return 0;
  }
  exercise(*lp);
  return 0;
}
