//===- Chaining.h - The per-vector timing of chained streams ----*- C++ -*-===//
//
// docs/simulator.md, "Chaining": a streaming producer emits its result's V
// vectors evenly over its streaming window [issue + fill, issue + busy),
// each available `latency` later; a streaming consumer reads a streamed
// operand's vectors evenly over its own window. A consumer may read vector
// j once it is available. The scheduler issues by chainEarliest, the
// simulator and the lower bound check and follow the same rule.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ISA_CHAINING_H
#define LPX_ISA_CHAINING_H

#include "lpx/isa/ChipSpec.h"
#include "lpx/isa/Opcode.h"
#include "lpx/isa/Timing.h"

#include <cstdint>
#include <optional>

namespace lpx::isa {

/// Whether `op` emits its result vector by vector over its streaming window
/// (contract item 1). Always false without stream.chaining.
bool streamsResult(const ChipSpec &chip, Opcode op);

/// Whether `op` reads an operand of `operandElements` vector by vector
/// (item 2): an elementwise operation (or copy) whose operand has as many
/// elements as its result. Always false without stream.chaining.
bool streamsOperand(const ChipSpec &chip, Opcode op, uint64_t operandElements,
                    uint64_t resultElements);

/// A producer as a chained read sees it.
struct Emission {
  uint64_t issue = 0;
  Cost cost;
  bool streams = false; // streamsResult of its opcode
};

/// The earliest issue (item 4) of a consumer of cost `consumer` reading an
/// operand of `vectors` vectors written by `producer`; `streamed` says
/// whether the consumer streams that operand. Unless both stream: the
/// producer's completion.
uint64_t chainEarliest(uint64_t vectors, const Emission &producer,
                       const Cost &consumer, bool streamed);

/// The first vector a consumer issued at `issue` reads before it is
/// available (item 3), or none. Unless both stream, vector 0 as soon as
/// the issue is before the producer's completion.
std::optional<uint64_t> firstVectorReadEarly(uint64_t vectors,
                                             const Emission &producer,
                                             uint64_t issue,
                                             const Cost &consumer,
                                             bool streamed);

/// Whether a vector operation of cost `consumer`, streaming the result of
/// a vector operation of cost `producer` on the same queue, may issue
/// while the producer still holds the queue (item 6): both stream and
/// their ALU passes together fit the mesh, (passes_p + passes_c) x
/// vxm.vectors_per_cycle <= vxm.alus_per_lane.
bool fusesInMesh(const ChipSpec &chip, const Cost &producer,
                 const Cost &consumer);

} // namespace lpx::isa

#endif
