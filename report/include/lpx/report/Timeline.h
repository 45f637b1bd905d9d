//===- Timeline.h - A simulated run laid out as tracks ----------*- C++ -*-===//
//
// The shared model behind the trace file and the HTML report: the
// simulator's own per-instruction record (sim::ExecutionTrace) grouped into
// one track per unit queue and per link of every chip, the transfers as
// (send, consumer) pairs, and each chip's SRAM in use over time. Nothing here
// recomputes a cycle: every time comes from the record.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_REPORT_TIMELINE_H
#define LPX_REPORT_TIMELINE_H

#include "lpx/isa/Program.h"
#include "lpx/sim/ExecutionTrace.h"
#include "lpx/sim/Simulator.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lpx::report {

struct Track {
  uint32_t node = 0;
  std::string name;   // "mxm", "vxm1", "link3"
  uint32_t id = 0;    // unique within the node; also the sort order
  uint64_t busy = 0;  // sum of the slices' busy cycles
  std::vector<size_t> events; // indices into ExecutionTrace::instructions
};

/// A transfer: the send and an instruction on the receiving chip that reads
/// what it delivered.
struct Flow {
  size_t send = 0;
  size_t consumer = 0;
};

struct SramPoint {
  uint64_t cycle = 0;
  uint64_t bytes = 0; // in use from this cycle on
};

struct Timeline {
  const isa::VerifiedProgram *prog = nullptr;
  const sim::SimResult *result = nullptr;
  const sim::ExecutionTrace *trace = nullptr;
  std::vector<Track> tracks;         // by node, then id
  std::vector<size_t> trackOfEvent;  // per event, index into tracks
  std::vector<Flow> flows;           // in send order
  std::vector<std::vector<SramPoint>> sramInUse; // per node, by cycle
  uint64_t sramPeak(uint32_t node) const;

  const isa::pb::Instruction &instruction(size_t event) const;
  /// The mnemonic of an event's instruction.
  std::string op(size_t event) const;
  /// "op origin" (or the op alone when the instruction has no origin).
  std::string label(size_t event) const;
  double cyclesToUs(uint64_t cycles) const;
};

/// A queue's track name: "mxm", "vxm1" (when the unit has more than one
/// queue), "link3" for a send's outgoing link.
std::string trackName(const isa::ChipSpec &chip, const sim::InstructionEvent &e);

/// Lays out one run. `prog`, `result` and `trace` must outlive the timeline.
Timeline buildTimeline(const isa::VerifiedProgram &prog,
                       const sim::SimResult &result,
                       const sim::ExecutionTrace &trace);

} // namespace lpx::report

#endif
