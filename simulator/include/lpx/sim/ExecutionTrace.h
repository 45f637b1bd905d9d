//===- ExecutionTrace.h - What each instruction did when simulated -*- C++ -*-===//
//
// An optional record the simulator fills while it executes a program
// (SimOptions::trace): one event per instruction with the cycles the
// simulator itself used for it, and one lifetime per buffer from the reads
// and writes it saw. Timelines (`lpx simulate --trace`, `--report`) are drawn
// from this record, never recomputed from the cost model, so a picture can
// not disagree with the simulation it shows.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_SIM_EXECUTIONTRACE_H
#define LPX_SIM_EXECUTIONTRACE_H

#include "lpx/isa/Opcode.h"
#include <cstdint>
#include <vector>

namespace lpx::sim {

struct InstructionEvent {
  uint64_t instruction = 0; // index in program.instructions
  uint32_t node = 0;        // issuing node
  isa::Unit unit = isa::Unit::MEM; // C2C for a send
  /// Queue number within the unit; for a send, the outgoing link.
  uint32_t queue = 0;
  uint64_t issue = 0;   // as scheduled
  uint64_t busyEnd = 0; // issue + busy: the queue or link may take the next
  uint64_t done = 0;    // busyEnd + latency: result complete (send: arrived)
  uint64_t bytesRead = 0;    // each distinct operand once
  uint64_t bytesWritten = 0; // the result
  uint64_t macs = 0;         // multiply-accumulates (MXM), else 0
  uint32_t hazards = 0;      // hazards found at this instruction
};

/// The cycles during which a buffer's SRAM range holds data that is still
/// needed: from its write (0 when preloaded) until its last reader has
/// finished; outputs and constants stay until the end of the program.
struct BufferLifetime {
  uint32_t buffer = 0;
  uint32_t node = 0;
  uint64_t addr = 0;
  uint64_t bytes = 0;
  uint64_t from = 0;
  uint64_t to = 0;
};

struct ExecutionTrace {
  std::vector<InstructionEvent> instructions; // program order
  /// Every buffer that was preloaded or written, by buffer id.
  std::vector<BufferLifetime> buffers;
};

} // namespace lpx::sim

#endif
