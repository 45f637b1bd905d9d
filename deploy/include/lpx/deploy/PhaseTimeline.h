//===- PhaseTimeline.h - When each pipeline stage of a phase is busy -*- C++ -*-===//
//
// What `lpx decode --report` draws of a simulated phase (a prefill or a
// decode step), kept small enough to hold per deployment: per pipeline
// stage, when each chunk of the tokens crosses it and how busy its chips are
// over time, and the queues of the busiest chips of the busiest stage in
// full. Every cycle comes from the simulator's execution trace
// (sim::ExecutionTrace), binned over the phase's cycles, never recomputed.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_PHASETIMELINE_H
#define LPX_DEPLOY_PHASETIMELINE_H

#include "lpx/isa/Program.h"
#include "lpx/sim/ExecutionTrace.h"
#include "lpx/sim/Simulator.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lpx::deploy {

/// Cycles from a first issue to a last completion; empty when to <= from.
struct CycleSpan {
  uint64_t from = 0, to = 0;
  bool empty() const { return to <= from; }
};

/// One pipeline stage of the phase (LatencyBound.h's stages: chips
/// [firstChip, firstChip + chips)).
struct StageTiming {
  uint32_t firstChip = 0, chips = 1;
  /// Per chunk of the tokens (one for a decode step or an unchunked
  /// prefill): its instructions on the stage's chips.
  std::vector<CycleSpan> chunks;
  /// Per bin: the queues' busy cycles over the bin's cycles and the
  /// stage's chips (busy queues per chip, on average).
  std::vector<float> busy;
  uint32_t busiestChip = 0; // the stage's chip occupied longest
  uint64_t busiestOccupied = 0;
};

/// One queue of a chip drawn in full: its busy share per bin (0..1) of
/// PhaseTimeline::detailWindow.
struct QueueTiming {
  std::string name; // "mxm", "vxm1", "link3"
  isa::Unit unit = isa::Unit::MEM;
  std::vector<float> busy;
  uint64_t busyCycles = 0;
};

struct ChipTiming {
  uint32_t chip = 0;
  uint64_t occupied = 0; // PhaseResult::occupied
  std::vector<QueueTiming> queues;
};

struct PhaseTimeline {
  uint64_t cycles = 0; // the phase's simulated cycles, the time axis
  unsigned stageBins = 0, chipBins = 0;
  int64_t chunks = 1;
  std::vector<StageTiming> stages;
  uint32_t busiestStage = 0; // the stage of the chip occupied longest
  /// The busiest chips of the busiest stage (kDetailChips at most),
  /// busiest first, binned over `detailWindow`: the stage's chunks' first
  /// issue to their last completion (work before it, off the tokens' path
  /// such as rotary tables and masks, is left out).
  std::vector<ChipTiming> detail;
  CycleSpan detailWindow;
};

inline constexpr unsigned kStageBins = 200, kChipBins = 400, kDetailChips = 4;

/// Per instruction, the chunk of the tokens it works on: the highest chunk
/// whose `input_ids` (chunk 0) or `input_ids.chunkK` input reaches one of
/// its operands other than resident state (which every chunk writes), or
/// -1 for an instruction off the tokens' path (rotary tables, masks, their
/// forwarding). Empty when the program has no `input_ids`.
std::vector<int32_t> chunkOfInstructions(const isa::pb::Program &p);

/// The phase's timeline from its trace; `occupied` per chip as
/// PhaseResult holds it, `chunkOf` from chunkOfInstructions.
PhaseTimeline buildPhaseTimeline(const isa::VerifiedProgram &prog,
                                 const sim::SimResult &sim,
                                 const sim::ExecutionTrace &trace,
                                 const std::vector<uint64_t> &occupied,
                                 const std::vector<int32_t> &chunkOf);

} // namespace lpx::deploy

#endif
