//===- Chaining.cpp - The per-vector timing of chained streams ------------===//
//
// Times are rational cycles; both sides of the readiness rule are linear in
// the vector index j, so j = 0 and j = V - 1 decide, compared exactly after
// multiplying by V (docs/simulator.md, "Chaining").
//
//===----------------------------------------------------------------------===//
#include "lpx/isa/Chaining.h"

#include <algorithm>

using namespace lpx::isa;

namespace {

// Elementwise operations (isa::isElementwise) and copies: vector j of the
// result needs vector j's worth of each operand of the result's size, so
// they can both consume and emit as they go.
bool streamsElementwise(Opcode op) {
  return isElementwise(op) || op == Opcode::Copy;
}

using Wide = __int128;

// V x (the cycle vector j is available) and V x (the cycle it is read), for
// a producer and consumer that both stream.
Wide availTimesV(uint64_t v, const Emission &p, uint64_t j) {
  return Wide(v) * Wide(p.issue + p.cost.latency + p.cost.fill) +
         Wide(j + 1) * Wide(p.cost.streaming());
}
Wide readTimesV(uint64_t v, uint64_t issue, const Cost &c, uint64_t j) {
  return Wide(v) * Wide(issue + c.fill) + Wide(j) * Wide(c.streaming());
}

} // namespace

bool lpx::isa::streamsResult(const ChipSpec &chip, Opcode op) {
  if (!chip.stream.chaining)
    return false;
  // ASSUMPTION (docs/simulator.md): the MXM's tiles are ordered so that
  // result vectors leave the array in order at an even pace.
  return streamsElementwise(op) || op == Opcode::MatMul || op == Opcode::Conv ||
         op == Opcode::ConvTranspose;
}

bool lpx::isa::streamsOperand(const ChipSpec &chip, Opcode op,
                              uint64_t operandElements,
                              uint64_t resultElements) {
  return chip.stream.chaining && streamsElementwise(op) &&
         operandElements == resultElements;
}

uint64_t lpx::isa::chainEarliest(uint64_t vectors, const Emission &producer,
                                 const Cost &consumer, bool streamed) {
  const uint64_t done = producer.cost.done(producer.issue);
  if (!streamed || !producer.streams)
    return done;
  const Wide v = std::max<uint64_t>(vectors, 1);
  const Wide sp = Wide(producer.cost.streaming());
  const Wide sc = Wide(consumer.streaming());
  // issue_c + fill_c >= issue_p + latency_p + fill_p
  //                     + max(S_p, V S_p - (V - 1) S_c) / V
  const Wide lead = std::max(sp, v * sp - (v - 1) * sc);
  const Wide earliest = Wide(producer.issue + producer.cost.latency +
                             producer.cost.fill) +
                        (lead + v - 1) / v - Wide(consumer.fill);
  // Never later than waiting for the whole result.
  return uint64_t(std::clamp<Wide>(earliest, 0, Wide(done)));
}

std::optional<uint64_t>
lpx::isa::firstVectorReadEarly(uint64_t vectors, const Emission &producer,
                               uint64_t issue, const Cost &consumer,
                               bool streamed) {
  if (!streamed || !producer.streams) {
    if (issue < producer.cost.done(producer.issue))
      return 0;
    return std::nullopt;
  }
  const uint64_t v = std::max<uint64_t>(vectors, 1);
  // read(j) - avail(j), times V, is a + j (S_c - S_p): linear in j.
  const Wide a = readTimesV(v, issue, consumer, 0) - availTimesV(v, producer, 0);
  if (a < 0)
    return 0;
  if (readTimesV(v, issue, consumer, v - 1) >=
      availTimesV(v, producer, v - 1))
    return std::nullopt;
  // Fails first where j (S_p - S_c) > a.
  const Wide slope = Wide(producer.cost.streaming()) - Wide(consumer.streaming());
  return uint64_t(a / slope + 1);
}

bool lpx::isa::fusesInMesh(const ChipSpec &chip, const Cost &producer,
                           const Cost &consumer) {
  return chip.stream.chaining && producer.passes > 0 && consumer.passes > 0 &&
         (producer.passes + consumer.passes) * chip.vxm.vectorsPerCycle <=
             chip.vxm.alusPerLane;
}
