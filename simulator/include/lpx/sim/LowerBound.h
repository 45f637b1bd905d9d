//===- LowerBound.h - Cycles no schedule of a program can beat --*- C++ -*-===//
//
// A lower bound on the cycles of a program, from the chip description and the
// cost model alone (no issue cycles are used): the busiest queue, the node
// that streams the most SRAM bytes, and the longest dependency chain. Compared
// with the simulated cycles it gives the schedule's efficiency and names the
// resource that limits it. Host I/O is estimated here too, separately, because
// it is not part of the deterministic cycle count.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_SIM_LOWERBOUND_H
#define LPX_SIM_LOWERBOUND_H

#include "lpx/isa/Opcode.h"
#include "lpx/isa/Program.h"
#include <cstdint>
#include <string>
#include <vector>

namespace lpx::sim {

/// What a bound is made of.
enum class BoundKind : uint8_t {
  None,            // nothing contributes (an empty program)
  Queue,           // one unit queue or outgoing link of one node
  SramBandwidth,   // the SRAM of one node
  DependencyChain, // the longest producer -> reader chain
};

/// One bound: its cycles (deskew included) and what it is made of, as a
/// type (kind, node, unit, link, instruction) and as the text reports
/// print, e.g. "mxm on node 0", "link 3 of node 1", "SRAM bandwidth of
/// node 2" or "dependency chain ending at MatMul_7" (`what`, empty for
/// BoundKind::None).
struct Bound {
  uint64_t cycles = 0;
  std::string what;
  BoundKind kind = BoundKind::None;
  uint32_t node = 0;                 // Queue, SramBandwidth
  isa::Unit unit = isa::Unit::MEM;   // Queue
  uint32_t link = 0;                 // Queue of unit C2C
  int64_t instruction = -1;          // DependencyChain: where it ends
};

struct LowerBounds {
  /// Cycles before any instruction can issue: chip.topology.deskewCycles for
  /// multi-node programs with instructions, else 0. Every bound includes it.
  uint64_t deskew = 0;
  /// The busiest queue (a unit or an outgoing link of one node): the
  /// earliest cycle any of its instructions could start, plus the sum of
  /// their busy cycles, plus the shortest chain of latency and later work
  /// that must follow one of them (a Jackson-style head + work + tail bound).
  Bound resource;
  /// The most SRAM bytes one node streams (operands and results; a send's
  /// source on the sender, its result on the receiver), at one vector per
  /// bank per cycle.
  Bound sramBandwidth;
  /// The longest chain producer -> reader of busy + latency, starting from
  /// inputs and constants, which are in SRAM at the start.
  Bound criticalPath;

  /// The largest of the three. Ties prefer the dependency chain, then the
  /// queue, then SRAM bandwidth, so the choice is deterministic.
  const Bound &tightest() const;
};

/// Accumulates the bounds one instruction at a time, so the simulator can
/// reuse the cost it already computed. Feed every instruction in program
/// order; linear time and memory in buffers + instructions.
class LowerBoundBuilder {
public:
  explicit LowerBoundBuilder(const isa::VerifiedProgram &prog);

  void add(const isa::pb::Instruction &inst, const isa::Cost &cost);
  LowerBounds finish() const;

private:
  /// One instruction as the queue bound needs it.
  struct Step {
    uint64_t head;     // earliest issue: operands complete (chain start)
    uint64_t busy, latency;
    uint32_t queue;    // index into queueNames
    uint64_t fill;     // set-up cycles before it streams (isa::Cost)
    // Its share of its queue's work: busy, less what it may overlap with
    // its producer when the two share the ALU mesh (isa::fusesInMesh).
    uint64_t queueWork;
  };
  uint32_t queueOf(uint32_t node, const isa::pb::Instruction &inst);
  uint64_t readerLead(const isa::pb::Instruction &inst, uint32_t id,
                      const Step &s) const;

  const isa::VerifiedProgram &prog;
  uint64_t deskew = 0;
  bool any = false;
  std::vector<Step> steps;                     // per instruction
  std::vector<std::string> queueNames;
  std::vector<Bound> queueBounds; // per queue: kind, node, unit, link
  std::vector<uint32_t> queueCounts; // instruction queues of each unit
  std::vector<uint32_t> unitQueue;             // node * 4 + slot -> queue + 1
  std::vector<std::vector<uint32_t>> linkQueue; // [node][link] -> queue + 1
  std::vector<uint64_t> sramBytes;             // per node
  std::vector<uint64_t> chainDone;             // per buffer, after deskew
  // Per buffer its producer's earliest issue and cost, from which a
  // forwarding hop (a send delivered it: isa::forwardEarliest) or a chained
  // reader (it streams its result: isa::chainEarliest) may start early.
  struct Hop {
    bool set = false;     // a send delivered it
    bool streams = false; // isa::streamsResult of its producer
    uint64_t issue = 0;
    isa::Cost cost;
    // Elements of the buffer, counted only when its producer streams its
    // result or may stream its operands (else 0).
    uint64_t elements = 0;
  };
  bool chainsOperand(const isa::pb::Instruction &inst, uint32_t id) const;
  std::vector<Hop> chainHop;
  uint64_t longestChain = 0;
  int64_t longestChainEnd = -1; // instruction index
  int64_t index = 0;
};

/// The bounds of a whole program (what simulate() stores in SimResult).
LowerBounds computeLowerBounds(const isa::VerifiedProgram &prog);

/// Host transfer time in microseconds for `bytes` bytes in one direction:
/// host.latency_us + bytes / host.gb_per_second; 0 when there are no bytes,
/// since nothing is transferred then.
double hostTransferUs(const isa::ChipSpec &chip, uint64_t bytes);

} // namespace lpx::sim

#endif
