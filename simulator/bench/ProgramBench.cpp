//===- ProgramBench.cpp - How fast the simulator replays one program ------===//
//
// Reads a compiled program once and times simulate() on it: the best of 5
// batches of `runs` calls, in CPU time of the process (std::clock), which a
// machine shared with other jobs disturbs far less than wall time. Prints the multiply-accumulates the program
// performs (isa::multiplyAccumulates over its instructions) and how many of
// them the simulator replays per second of wall time, the figure
// docs/benchmarks.md records for the Llama-2-7B-size decoder layer.
//
// Usage: lpx-sim-program-bench program.lpx [runs] [--no-vector-check]
//        (default 2000 runs; the flag times the replay checks alone)
//
//===----------------------------------------------------------------------===//
#include "lpx/isa/Program.h"
#include "lpx/isa/Timing.h"
#include "lpx/sim/Simulator.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <ctime>
#include <cstdlib>
#include <vector>

using namespace lpx;

static uint64_t programMacs(const isa::VerifiedProgram &prog) {
  const isa::pb::Program &p = prog.program();
  uint64_t macs = 0;
  for (const isa::pb::Instruction &inst : p.instructions()) {
    std::vector<isa::TensorDesc> operands;
    for (uint32_t id : inst.operands())
      operands.push_back(isa::descOf(p.buffers(int(id))));
    macs += isa::multiplyAccumulates(isa::opcodeOf(inst), operands,
                                     isa::descOf(p.buffers(int(inst.result()))));
  }
  return macs;
}

int main(int argc, char **argv) {
  // --no-vector-check (last): time the replay checks alone.
  sim::SimOptions opts;
  if (argc > 1 && llvm::StringRef(argv[argc - 1]) == "--no-vector-check")
    opts.vectorCheck = false, --argc;
  if (argc < 2) {
    llvm::errs() << "usage: lpx-sim-program-bench program.lpx [runs] [--no-vector-check]\n";
    return 2;
  }
  uint64_t runs = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 2000;
  runs = std::max<uint64_t>(runs, 1);
  auto prog = isa::readProgramFile(argv[1]);
  if (!prog) {
    llvm::errs() << "lpx-sim-program-bench: " << llvm::toString(prog.takeError())
                 << "\n";
    return 2;
  }
  double best = 1e300;
  uint64_t cycles = 0, hazards = 0;
  for (int round = 0; round < 5; ++round) {
    std::clock_t t0 = std::clock();
    for (uint64_t i = 0; i < runs; ++i) {
      auto r = sim::simulate(*prog, opts);
      if (!r) {
        llvm::errs() << "lpx-sim-program-bench: " << llvm::toString(r.takeError())
                     << "\n";
        return 1;
      }
      cycles = r->totalCycles;
      hazards = r->hazardCount;
    }
    std::clock_t t1 = std::clock();
    best = std::min(best, double(t1 - t0) / CLOCKS_PER_SEC / double(runs));
  }
  const uint64_t macs = programMacs(*prog);
  llvm::outs() << llvm::formatv(
      "{0} instructions, {1} nodes, {2} cycles, {3} hazards, {4} MACs\n"
      "simulate(): {5:e3} s of CPU (best of 5 batches of {6}), {7:e3} simulated "
      "MACs/s, {8:e3} instructions/s\n",
      prog->program().instructions_size(), prog->program().num_nodes(), cycles,
      hazards, macs, best, runs, double(macs) / best,
      double(prog->program().instructions_size()) / best);
  return hazards == 0 ? 0 : 1;
}
