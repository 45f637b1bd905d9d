//===- MxmCost.cpp - Cost of matrix-unit instructions ---------------------===//
#include "UnitCost.h"

#include <algorithm>

using namespace lpx::isa;
using namespace lpx::isa::cost;

// Weight tiles are installed in MXM planes and activation vectors streamed
// through them. Installing the next tile overlaps streaming the current one,
// so a plane spends max(load, stream) per tile plus one exposed first load.
static Cost planeCost(const ChipSpec &chip, const TensorDesc &a,
                      const TensorDesc &b, const TensorDesc &r) {
  const MxmSpec &m = chip.mxm;
  size_t ra = a.shape.size(), rb = b.shape.size();
  uint64_t M = ra >= 2 ? static_cast<uint64_t>(a.shape[ra - 2]) : 1;
  uint64_t K = ra >= 1 ? static_cast<uint64_t>(a.shape[ra - 1]) : 1;
  uint64_t N = rb >= 2 ? static_cast<uint64_t>(b.shape[rb - 1]) : 1;
  uint64_t batchB = rb > 2 ? product(b.shape, 0, rb - 2) : 1;
  uint64_t resultRank = r.shape.size();
  uint64_t batchR = 1;
  if (resultRank > 2)
    batchR = product(r.shape, 0, resultRank - 2);
  else if (ra > 2)
    batchR = product(a.shape, 0, ra - 2);

  uint64_t kTiles = ceilDiv(std::max<uint64_t>(K, 1), m.rows);
  uint64_t nTiles = ceilDiv(std::max<uint64_t>(N, 1), m.cols);
  uint64_t tiles, rowsPerTile;
  if (batchB <= 1) { // one weight matrix shared by every batch row
    tiles = kTiles * nTiles;
    rowsPerTile = batchR * M;
  } else {
    tiles = batchR * kTiles * nTiles;
    rowsPerTile = M;
  }
  // The rate follows the operands' width, never the result's: int8 x int8
  // accumulating into int32 streams at the int8 rate, while integer
  // operands widened to int32 (e.g. quantized values after zero-point
  // subtraction) take the 32-bit rate, like fp32.
  unsigned width = std::max(dtypeBytes(a.dtype), dtypeBytes(b.dtype));
  bool fp8 = a.dtype == DType::F8E4M3 || a.dtype == DType::F8E5M2;
  uint64_t perVector = fp8          ? m.cyclesPerVectorFp8
                       : width <= 1 ? m.cyclesPerVectorInt8
                       : width == 2 ? m.cyclesPerVector16
                                    : m.cyclesPerVector32;
  uint64_t load = uint64_t(m.weightLoadCycles) *
                  std::max<unsigned>(dtypeBytes(b.dtype), 1);
  uint64_t stream = rowsPerTile * perVector;
  // Each instruction queue owns an equal share of the planes.
  uint64_t planes = std::max<uint32_t>(m.planes / std::max(m.queues, 1u), 1);
  uint64_t tilesPerPlane = ceilDiv(tiles, planes);
  return {load + tilesPerPlane * std::max(load, stream), m.latency};
}

// The planes' cost, no faster than SRAM, plus the stream's transport.
static Cost streamedThroughPlanes(const Streams &s, Cost planes) {
  planes.busy = std::max(planes.busy, s.sramFloor);
  planes.latency += s.transport;
  return planes;
}

Cost lpx::isa::cost::matmulCost(const Streams &s) {
  if (s.operands.size() != 2)
    return {1, s.chip.mxm.latency};
  return streamedThroughPlanes(
      s, planeCost(s.chip, s.operands[0], s.operands[1], s.result));
}

// The matmul a convolution amounts to, `group` times on the planes: groups
// after the first reuse the pipeline, so only their busy time adds.
static Cost groupedMatmul(const Streams &s, int64_t group, int64_t rows,
                          int64_t k, int64_t m) {
  const TensorDesc &x = s.operands[0], &w = s.operands[1];
  TensorDesc a{x.dtype, {rows, k}}, b{w.dtype, {k, m}},
      c{s.result.dtype, {rows, m}};
  Cost one = planeCost(s.chip, a, b, c);
  return streamedThroughPlanes(
      s, {one.busy * static_cast<uint64_t>(group), one.latency});
}

// Operands of a convolution the cost model can measure.
static bool convShapes(const Streams &s) {
  if (s.operands.size() < 2)
    return false;
  const TensorDesc &x = s.operands[0], &w = s.operands[1];
  return x.shape.size() >= 3 && w.shape.size() == x.shape.size() &&
         s.result.shape.size() == x.shape.size();
}

// A convolution costs what its im2col matmul would, group by group:
// [N*out spatial, C/g*kernel] x [C/g*kernel, M/g].
Cost lpx::isa::cost::convCost(const Streams &s) {
  if (!convShapes(s))
    return s.operands.size() < 2 ? Cost{1, s.chip.mxm.latency}
                                 : streamedThroughPlanes(s, {1, s.chip.mxm.latency});
  const TensorDesc &x = s.operands[0], &w = s.operands[1], &r = s.result;
  int64_t group = std::max<int64_t>(
      1, w.shape[0] > 0 && x.shape[1] > 0 && w.shape[1] > 0
             ? x.shape[1] / w.shape[1]
             : 1);
  int64_t rows = static_cast<int64_t>(r.shape[0] *
                                      product(r.shape, 2, r.shape.size()));
  int64_t k = static_cast<int64_t>(product(w.shape, 1, w.shape.size()));
  int64_t m = std::max<int64_t>(w.shape[0] / group, 1);
  return groupedMatmul(s, group, rows, k, m);
}

// A transposed convolution costs its dense matmul, group by group: every
// input position times W^T, [N*in spatial, C/g] x [C/g, M/g*kernel], whose
// products the accumulators add into the overlapping result windows
// (col2im). No MAC is spent on the zeros a strided "zero-stuffed" Conv would
// multiply.
Cost lpx::isa::cost::convTransposeCost(const Streams &s) {
  if (!convShapes(s))
    return s.operands.size() < 2 ? Cost{1, s.chip.mxm.latency}
                                 : streamedThroughPlanes(s, {1, s.chip.mxm.latency});
  const TensorDesc &x = s.operands[0], &w = s.operands[1];
  int64_t group = std::max<int64_t>(s.attrs.conv().group(), 1);
  int64_t rows = static_cast<int64_t>(x.shape[0] *
                                      product(x.shape, 2, x.shape.size()));
  int64_t k = std::max<int64_t>(w.shape[0] / group, 1);
  int64_t m = static_cast<int64_t>(product(w.shape, 1, w.shape.size()));
  return groupedMatmul(s, group, rows, k, m);
}
