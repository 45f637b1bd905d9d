//===- SxmCost.cpp - Cost of switch-unit instructions ---------------------===//
//
// Plain data movement (transpose, concat, slice, broadcast, pad,
// gather_elements) is one pass over the largest stream, priced in
// Timing.cpp; the entries here depend on attributes or on what the
// instruction actually reads.
//
//===----------------------------------------------------------------------===//
#include "UnitCost.h"

#include <algorithm>

using namespace lpx::isa;
using namespace lpx::isa::cost;

// Assumed: the SXM streams the data into the result once, then the indices
// and the updates, writing each update at its place; a reduction reads the
// old values first (one more pass over the updates' size).
Cost lpx::isa::cost::scatterCost(const Streams &s) {
  uint64_t work = 0;
  for (const TensorDesc &t : s.operands)
    work += s.vectorsOf(t);
  bool reduces = s.attrs.scatter().reduction() != pb::SCATTER_NONE;
  if (reduces && s.operands.size() == 3)
    work += s.vectorsOf(s.operands[2]);
  return s.throughput(s.chip.sxm, work);
}

// Assumed: the SXM streams the grid once and gathers the taps of every result
// element from X (1 nearest, 4 bilinear, 16 bicubic), the weighting riding
// along in the stream; the result is written once.
Cost lpx::isa::cost::gridSampleCost(const Streams &s) {
  uint64_t taps = 4;
  switch (s.attrs.grid_sample().mode()) {
  case pb::GRID_SAMPLE_NEAREST: taps = 1; break;
  case pb::GRID_SAMPLE_BICUBIC: taps = 16; break;
  default: break;
  }
  uint64_t work = s.vectorsOf(s.result) * (taps + 1);
  if (s.operands.size() == 2)
    work += s.vectorsOf(s.operands[1]);
  return s.throughput(s.chip.sxm, work);
}

uint64_t lpx::isa::gatherReadBytes(const ChipSpec &chip, const TensorDesc &data,
                                   const TensorDesc &indices, int64_t axis) {
  const size_t rank = data.shape.size();
  if (axis < 0 || size_t(axis) >= rank)
    return data.bytes();
  const uint64_t slices = product(data.shape, 0, size_t(axis)) *
                          indices.elements();
  const uint64_t sliceBytes =
      product(data.shape, size_t(axis) + 1, rank) * dtypeBytes(data.dtype);
  const uint64_t vectorBytes = std::max<uint32_t>(chip.vector.bytes, 1);
  const uint64_t read = slices * ceilDiv(sliceBytes, vectorBytes) * vectorBytes;
  return std::min(read, data.bytes());
}

// A gather reads only the slices its indices pick (an embedding lookup of
// one token reads one row of the table, not the table), streamed with the
// indices and the result in one pass over the largest of the three, no
// faster than SRAM moves what it reads and writes.
Cost lpx::isa::cost::gatherCost(const Streams &s) {
  if (s.operands.size() != 2)
    return s.streamed(s.chip.sxm, 1);
  const TensorDesc &data = s.operands[0], &indices = s.operands[1];
  const uint64_t read =
      gatherReadBytes(s.chip, data, indices, s.attrs.axis().axis());
  const uint64_t vectors = std::max({s.chip.vectorsFor(read),
                                     s.vectorsOf(indices),
                                     s.vectorsOf(s.result), uint64_t(1)});
  const uint64_t floor =
      ceilDiv(read + indices.bytes() + s.result.bytes(),
              std::max<uint64_t>(s.chip.sramBytesPerCycle(), 1));
  return Cost{std::max({uint64_t(1), floor,
                        ceilDiv(vectors, s.chip.sxm.vectorsPerCycle)}),
              s.chip.sxm.latencyOf(s.opName) + s.transport};
}
