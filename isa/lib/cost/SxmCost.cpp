//===- SxmCost.cpp - Cost of switch-unit instructions ---------------------===//
//
// Plain data movement (transpose, concat, broadcast, pad, gather_elements)
// is one pass over the largest stream, priced in Timing.cpp; the entries
// here depend on attributes or on what the instruction actually reads (a
// gather's rows, a slice's selection).
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

// One pass through the SXM over the largest of what an instruction reads of
// its source (`read` bytes), its other streams (`beside`: a gather's
// indices) and its result, no faster than SRAM moves all of them.
static Cost selectiveRead(const Streams &s, uint64_t read,
                          const TensorDesc *beside) {
  const uint64_t besideBytes = beside ? beside->bytes() : 0;
  const uint64_t vectors =
      std::max({s.chip.vectorsFor(read), s.chip.vectorsFor(besideBytes),
                s.vectorsOf(s.result), uint64_t(1)});
  const uint64_t floor =
      ceilDiv(read + besideBytes + s.result.bytes(),
              std::max<uint64_t>(s.chip.sramBytesPerCycle(), 1));
  return Cost{std::max({uint64_t(1), floor,
                        ceilDiv(vectors, s.chip.sxm.vectorsPerCycle)}),
              s.chip.sxm.latencyOf(s.opName) + s.transport};
}

// A gather reads only the slices its indices pick (an embedding lookup of
// one token reads one row of the table, not the table), streamed with the
// indices and the result.
Cost lpx::isa::cost::gatherCost(const Streams &s) {
  if (s.operands.size() != 2)
    return s.streamed(s.chip.sxm, 1);
  const TensorDesc &data = s.operands[0], &indices = s.operands[1];
  return selectiveRead(
      s, gatherReadBytes(s.chip, data, indices, s.attrs.axis().axis()),
      &indices);
}

uint64_t lpx::isa::sliceReadBytes(const ChipSpec &chip, const TensorDesc &data,
                                  const TensorDesc &result,
                                  const std::vector<int64_t> &starts,
                                  const std::vector<int64_t> &steps) {
  const size_t rank = data.shape.size();
  if (result.shape.size() != rank || starts.size() != rank ||
      steps.size() != rank || rank == 0)
    return data.bytes();
  // The innermost axis the slice does not take whole: everything inside it
  // is contiguous in both source and result.
  size_t k = rank;
  while (k > 0 && result.shape[k - 1] == data.shape[k - 1] &&
         steps[k - 1] == 1)
    --k;
  if (k == 0)
    return data.bytes();
  const size_t axis = k - 1;
  const uint64_t width = dtypeBytes(data.dtype);
  const uint64_t inner = product(data.shape, axis + 1, rank) * width;
  // Step 1 on the axis: one run of its selected extent; a larger step picks
  // each index on it as a run of its own.
  const bool strided = steps[axis] != 1;
  const uint64_t run =
      strided ? inner : uint64_t(std::max<int64_t>(result.shape[axis], 0)) * inner;
  const uint64_t runs = product(result.shape, 0, strided ? axis + 1 : axis);
  const uint64_t vectorBytes = std::max<uint32_t>(chip.vector.bytes, 1);
  // Aligned when every run starts on a vector boundary: the run and each
  // stride between runs are whole vectors, and so is the first offset.
  bool aligned = run % vectorBytes == 0;
  uint64_t offset = 0;
  for (size_t a = 0; a <= axis; ++a) {
    const uint64_t stride = product(data.shape, a + 1, rank) * width;
    offset += uint64_t(std::max<int64_t>(starts[a], 0)) * stride;
    const uint64_t step = uint64_t(std::max<int64_t>(steps[a], 1));
    if (result.shape[a] > 1 && (a < axis || strided))
      aligned = aligned && (stride * step) % vectorBytes == 0;
  }
  aligned = aligned && offset % vectorBytes == 0;
  const uint64_t perRun = ceilDiv(run, vectorBytes) + (aligned ? 0 : 1);
  return std::min(runs * perRun * vectorBytes,
                  ceilDiv(data.bytes(), vectorBytes) * vectorBytes);
}

// A slice streams the vectors that hold what it selects (a chunk's
// positions of a resident cache, not the cache) and writes its result.
Cost lpx::isa::cost::sliceCost(const Streams &s) {
  if (s.operands.size() != 1)
    return s.streamed(s.chip.sxm, 1);
  const pb::SliceAttrs &a = s.attrs.slice();
  return selectiveRead(s,
                       sliceReadBytes(s.chip, s.operands[0], s.result,
                                      {a.starts().begin(), a.starts().end()},
                                      {a.steps().begin(), a.steps().end()}),
                       nullptr);
}
