//===- SxmCost.cpp - Cost of switch-unit instructions ---------------------===//
//
// Plain data movement (transpose, concat, slice, gather, broadcast, pad,
// gather_elements) is one pass over the largest stream, priced in
// Timing.cpp; the entries here depend on attributes.
//
//===----------------------------------------------------------------------===//
#include "UnitCost.h"

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
