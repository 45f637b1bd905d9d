//===- VectorTiming.h - The vector check's own model of an instruction -*- C++ -*-===//
//
// How long an instruction's streams occupy its queue or link and when each of
// its result vectors lands, worked out vector by vector from the chip
// description's rates (vectors per cycle per queue, ALUs per lane, SRAM bytes
// per cycle, matrix planes and tile installs, link lanes and flits) and
// pipeline depths. It deliberately never calls isa::instructionCost: the
// vector check (VectorCheck.h) compares a schedule made with the cost model
// against this second, independently written model. docs/simulator.md,
// "The vector check", gives the rules and a worked example.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_SIM_VECTORTIMING_H
#define LPX_SIM_VECTORTIMING_H

#include "lpx/isa/Program.h"
#include <cstdint>

namespace lpx::sim {

/// One instruction's streams. After `fill` cycles of set-up (the MXM's
/// first tile install; 0 elsewhere), stream unit i of N (a vector, or a
/// flit for a send) leaves the unit at issue + fill + (i+1)*(span-fill)/N
/// and lands `depth` cycles later. Operand unit i is read at issue +
/// i*span/N of that operand's units.
struct VectorPlan {
  uint64_t span = 1;  // cycles the instruction's streams occupy its queue/link
  uint64_t fill = 0;  // set-up at the start of the span before any unit leaves
  uint64_t depth = 0; // pipeline + transport (a send: the hop's flight)
  uint64_t units = 1; // stream units of the result (vectors, flits)
  uint64_t unitBytes = 1;
  uint64_t passes = 0; // ALU passes per lane-vector of a VXM operation
  /// Result unit i is computed from operand data up to the same position
  /// (elementwise, copy; the MXM with its tiles ordered by result vector;
  /// a send, flit by flit) and lands unit by unit; otherwise (reductions,
  /// softmax, permutations, ...) every unit lands at issue + span + depth.
  bool streamsResult = false;
  /// The instruction reads operands with as many elements as its result in
  /// step, unit by unit (elementwise, copy); otherwise it needs every
  /// operand whole from its issue. A send's reading of a send's result
  /// (forwarding) is the link's own rule (VectorCheck).
  bool readsInStep = false;
};

/// The plan of `inst` of program `p` on `chip`.
VectorPlan planInstruction(const isa::ChipSpec &chip, const isa::pb::Program &p,
                           const isa::pb::Instruction &inst);

/// Whether `inst` (with plan `plan`) reads `operand` in step: it reads in
/// step and the operand has as many elements as its result.
bool readsOperandInStep(const isa::pb::Program &p,
                        const isa::pb::Instruction &inst,
                        const VectorPlan &plan, uint32_t operand);

} // namespace lpx::sim

#endif
