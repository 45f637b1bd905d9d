//===- Runtime.h - Running a program on the CPU -----------------*- C++ -*-===//
//
// Executes a program's values (not its timing): one byte array per node,
// constants and inputs copied in, instructions run in file (issue) order on
// the issuing node's memory, sends copying bytes into the destination node's
// memory, outputs read back.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_RUNTIME_RUNTIME_H
#define LPX_RUNTIME_RUNTIME_H

#include "lpx/isa/Program.h"
#include "lpx/runtime/HostTensor.h"
#include "llvm/Support/Error.h"
#include <vector>

namespace lpx::rt {

/// A program placed in its nodes' memory, constants copied in once, so that
/// repeated runs of one program (lpx run --repeat, benchmarks) do not copy
/// the weights again. Constants whose bytes a non-constant buffer shares are
/// copied again on every run. Constants in a reduced format (fp16, bf16, fp8,
/// int8 weights) that a matrix kernel reads as float are also kept widened
/// to float from load on (4 bytes per element more), so a run does not
/// convert the weights again either, as long as node memory and the copies
/// stay within `widenBudget` bytes (by default half of this machine's
/// memory); past it the kernels convert those operands on every run. Other bytes keep what the previous run left
/// there (a program reading a buffer before writing it would see them).
/// State buffers (a decoder's resident KV cache) are zero after load and
/// carry what each run writes into the next, until reset().
/// `prog` must outlive the Machine.
class Machine {
public:
  /// Checks the program and places its constants; shape-only constants are
  /// an error.
  static llvm::Expected<Machine> load(const isa::VerifiedProgram &prog);
  static llvm::Expected<Machine> load(const isa::VerifiedProgram &prog,
                                      uint64_t widenBudget);
  /// As execute() below, on the placed program.
  llvm::Expected<std::vector<HostTensor>>
  run(const std::vector<HostTensor> &inputs);
  /// Zeroes every state buffer, as after load: a new sequence starts.
  void reset();
  /// Hands this machine's resident state to `next`, whose program must
  /// expect the same state (isa::checkSameState: names, shapes, types, and
  /// per piece node, address and offsets), so that on the chip the state
  /// stays where it is and `next`'s program continues from it (a prefill,
  /// then decode steps). Here the machines' memories are apart, so the
  /// state's bytes are copied. Other bytes of `next` are left alone.
  llvm::Error handStateTo(Machine &next) const;
  /// The bytes a state buffer of the program holds now (what the runs so
  /// far wrote into it), to compare two programs' caches.
  llvm::ArrayRef<uint8_t> stateBytes(uint32_t buffer) const;

private:
  explicit Machine(const isa::VerifiedProgram &prog) : prog(&prog) {}
  void placeConstant(int buffer);
  void widenConstants(uint64_t budget);
  const isa::VerifiedProgram *prog;
  std::vector<llvm::ArrayRef<char>> constData; // per buffer, empty if none
  std::vector<std::vector<uint8_t>> memory; // one byte array per node
  std::vector<int> sharedConstants;         // constant buffers to re-place
  std::vector<uint8_t> scratch;             // one instruction's result
  std::vector<std::vector<float>> widened;  // per buffer; empty if not kept
};

/// Runs `prog` on `inputs`, which are matched to the program's input bindings
/// by name (tensors with other names are ignored). Returns the outputs in the
/// order of the program's output bindings, named by binding name. A missing
/// input, an input of the wrong type or shape, a program with shape-only
/// constants, or an instruction whose operands are inconsistent is an error.
llvm::Expected<std::vector<HostTensor>>
execute(const isa::VerifiedProgram &prog, const std::vector<HostTensor> &inputs);

/// Bytes of node memory `execute` allocates for `p`: per node, the highest
/// address a buffer of that node ends at.
uint64_t requiredMemoryBytes(const isa::pb::Program &p);

/// Physical memory of this machine, in bytes.
uint64_t physicalMemoryBytes();

/// An error naming both figures when `p` needs more node memory than
/// `availableBytes`; `execute` checks against the physical memory before it
/// allocates anything.
llvm::Error checkMemoryFits(const isa::pb::Program &p, uint64_t availableBytes);

} // namespace lpx::rt

#endif
