//===- Simulator.h - Cycle-level check of a program schedule ----*- C++ -*-===//
//
// Replays a verified program against the cost model of the chip it was
// scheduled for. The schedule is taken as written: the simulator never stalls
// an instruction, it reports every place where the schedule could not have
// run as declared (a hazard) and the cycles and utilisation it implies, next
// to a lower bound from the chip description alone (LowerBound.h) and the
// host I/O time, which is kept out of the cycle count. docs/simulator.md
// describes what is modelled.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_SIM_SIMULATOR_H
#define LPX_SIM_SIMULATOR_H

#include "lpx/isa/Program.h"
#include "lpx/sim/ExecutionTrace.h"
#include "lpx/sim/LatencyBound.h"
#include "lpx/sim/LowerBound.h"
#include "lpx/sim/PhysicalBound.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace lpx::sim {

/// One place where the schedule cannot run as written.
struct Hazard {
  uint32_t node = 0;        // node of the instruction that hits the hazard
  uint64_t instruction = 0; // index in program.instructions
  uint64_t cycle = 0;       // its issue cycle
  /// "operand-not-ready", "unit-busy", "link-busy", "sram-overwrite",
  /// "bank-conflict", "arrival-mismatch" or "before-deskew"; from the
  /// vector check, "vector-not-ready", "stream-conflict" or
  /// "sram-port-conflict".
  std::string kind;
  /// One line naming the mnemonic, the origin and the buffer concerned.
  std::string message;
};

/// Occupancy of one in-order queue: a unit ("mem", "mxm", "sxm", "vxm") or an
/// outgoing link ("link<k>") of a node.
struct QueueStats {
  uint32_t node = 0;
  std::string queue;
  uint64_t busyCycles = 0;   // cycles in which the queue was occupied
  uint64_t instructions = 0; // instructions issued to it
};

struct SimResult {
  uint64_t totalCycles = 0; // latest completion of any instruction
  double seconds = 0;       // totalCycles at the chip clock
  uint64_t instructions = 0;
  /// The first SimOptions::maxHazards hazards, in program order.
  std::vector<Hazard> hazards;
  /// All hazards found, including those not kept in `hazards`.
  uint64_t hazardCount = 0;
  /// Every unit queue of every node and every link queue that carried a
  /// send; sorted by node, then queue name (link numbers compare as numbers).
  /// Utilisation is busyCycles / totalCycles.
  std::vector<QueueStats> queues;
  uint64_t bytesOverLinks = 0; // tensor bytes carried by sends (no framing)
  /// Useful multiply-accumulates of the MXM instructions (no tile padding).
  uint64_t macs = 0;
  /// macs / (isa::mxmPeakMacsPerCycle x nodes x totalCycles); 0 for an
  /// empty program.
  double mxmUtilisation = 0;

  /// Cycles no schedule of these instructions can beat on this chip (see
  /// LowerBound.h): the largest of `bounds`.
  uint64_t lowerBound = 0;
  /// What sets lowerBound, as text, e.g. "mxm on node 0"; as a type:
  /// bounds.tightest() (its kind, node, unit).
  std::string bottleneck;
  /// lowerBound / totalCycles; 1.0 for an empty program. Above 1 only when
  /// hazards make the simulated schedule shorter than physically possible.
  double efficiency = 1.0;
  LowerBounds bounds;

  /// The floor from the model's work and the chip's peaks (PhysicalBound.h),
  /// independent of the instructions and the cost model.
  PhysicalBound physical;
  /// physical.cycles / totalCycles (1.0 for an empty program): how close the
  /// program comes to what the chip can do. Reports print it first.
  double physicalEfficiency = 1.0;
  /// totalCycles - physical.cycles, split by cause.
  GapAttribution gap;

  /// The floor on this one request's latency along the pipeline stages
  /// (LatencyBound.h): the bound a single token or prompt is judged by.
  LatencyBound latency;
  /// latency.cycles / totalCycles (1.0 for an empty program).
  double latencyEfficiency = 1.0;
  /// totalCycles - latency.cycles, split by cause as `gap` is.
  GapAttribution latencyGap;

  /// Host transfers of the inputs before and the outputs after the program,
  /// from the chip's host model. Not part of totalCycles: host I/O is the
  /// one non-deterministic part of a run.
  uint64_t hostInputBytes = 0;
  uint64_t hostOutputBytes = 0;
  double hostInputUs = 0;
  double hostOutputUs = 0;
};

struct SimOptions {
  /// An instruction issuing after this cycle stops the simulation with an
  /// error.
  uint64_t maxCycles = UINT64_MAX;
  /// Hazards kept in SimResult::hazards; the rest are only counted.
  size_t maxHazards = 100;
  /// When set, filled with one event per instruction and the buffers'
  /// lifetimes as this run executed them (ExecutionTrace.h). Costs nothing
  /// when null.
  ExecutionTrace *trace = nullptr;
  /// Also time every instruction with the vector check's own model and
  /// check each vector's readiness, the queues' streams and the SRAM ports
  /// per vector (docs/simulator.md, "The vector check").
  bool vectorCheck = true;
};

/// Walks the instructions once in issue order. Fails only when an option's
/// limit is exceeded; schedule violations are hazards, not errors.
llvm::Expected<SimResult> simulate(const lpx::isa::VerifiedProgram &prog,
                                   const SimOptions &opts = {});

/// Human-readable summary: cycles, time at the chip clock, per-queue busy
/// cycles and utilisation, one line per hazard.
void printReport(const SimResult &result, const lpx::isa::VerifiedProgram &prog,
                 llvm::raw_ostream &os);

/// The same content as JSON, keys sorted, so identical runs print identical
/// text.
void printJson(const SimResult &result, const lpx::isa::VerifiedProgram &prog,
               llvm::raw_ostream &os);

/// The physical bound as the JSON object `lpx simulate --json` and
/// `lpx decode --json` print.
llvm::json::Object physicalJson(const PhysicalBound &b, double clockMHz);

/// The latency bound as the JSON object `lpx simulate --json` and
/// `lpx decode --json` print: its cycles and each stage's terms.
llvm::json::Object latencyJson(const LatencyBound &b, double clockMHz);

} // namespace lpx::sim

#endif
