//===- MxmCost.cpp - Cost of matrix-unit instructions ---------------------===//
//
// How a product [S x K] x [K x O] maps onto the MXM (docs/simulator.md, "The
// matrix unit"). One operand is stationary: cut into rows x cols tiles and
// installed in the planes; the other streams through them one vector (one
// row of K values) per cycle per plane at the int8 rate. A plane installs
// its next tile while it streams the current one, so only the first install
// is exposed, each tile but a plane's last costs max(install, stream) and
// the last one its stream.
//
//  - Planes work at once on different tiles. With fewer tiles than planes,
//    each tile is installed in several planes and its streamed rows are
//    split between them.
//  - A tile smaller than half the array in both directions is packed: c
//    copies on the diagonal, so one vector carries c rows (c = min(rows/K,
//    cols/O)) and the array is not mostly idle for small channel counts.
//  - Either operand may be the stationary one (mxm.either_operand_stationary):
//    the weights, streaming the activations' rows, or the activations,
//    streaming the weights' columns. The cheaper mapping is taken.
//
//===----------------------------------------------------------------------===//
#include "UnitCost.h"

#include <algorithm>

using namespace lpx::isa;
using namespace lpx::isa::cost;

namespace {

/// `count` independent products [stream x k] x [k x out], the second operand
/// stationary.
struct Mapping {
  uint64_t count = 1;  // products with their own stationary operand
  uint64_t stream = 1; // rows streamed through each product's tiles
  uint64_t k = 1;      // contraction
  uint64_t out = 1;    // stationary columns
};

} // namespace

// The planes' busy cycles for one mapping; `perVector` is the streaming rate
// and `load` the cycles to install one tile.
static uint64_t mappedCycles(const MxmSpec &m, const Mapping &p,
                             uint64_t perVector, uint64_t load) {
  uint64_t k = std::max<uint64_t>(p.k, 1), out = std::max<uint64_t>(p.out, 1);
  // Diagonal copies of a small tile, each fed its own row of the vector.
  uint64_t copies =
      k <= m.rows && out <= m.cols ? std::min(m.rows / k, m.cols / out) : 1;
  copies = std::max<uint64_t>(copies, 1);
  uint64_t tiles = p.count * ceilDiv(k, m.rows) * ceilDiv(out, m.cols);
  uint64_t vectors = ceilDiv(std::max<uint64_t>(p.stream, 1), copies);
  uint64_t stream = vectors * perVector;
  // Each instruction queue owns an equal share of the planes.
  uint64_t planes = std::max<uint32_t>(m.planes / std::max(m.queues, 1u), 1);
  // The last tile of a plane has no next install to hide behind it: it
  // streams alone.
  if (tiles >= planes)
    return load + (ceilDiv(tiles, planes) - 1) * std::max(load, stream) +
           stream;
  // Spare planes hold copies of the tiles and split the vectors (whole
  // vectors: one vector goes through one plane).
  uint64_t replicas = planes / tiles;
  return load + ceilDiv(vectors, replicas) * perVector;
}

// Operand widths set the rate, never the result's: int8 x int8 accumulating
// into int32 streams at the int8 rate, while integer operands widened to
// int32 (e.g. quantized values after zero-point subtraction) take the
// 32-bit rate, like fp32. Installing a tile takes weight_load_cycles per
// byte of its elements.
// The cost's fill is the chosen mapping's first install, the one part of
// the busy time before any vector streams.
static Cost bestCycles(const ChipSpec &chip, DType a, DType b,
                       const Mapping &weights, const Mapping &activations) {
  const MxmSpec &m = chip.mxm;
  const uint64_t perVector = m.cyclesPerVector(a, b);
  auto load = [&](DType t) {
    return uint64_t(m.weightLoadCycles) * std::max<unsigned>(dtypeBytes(t), 1);
  };
  Cost best{mappedCycles(m, weights, perVector, load(b)), m.latency, load(b)};
  if (m.eitherOperandStationary) {
    uint64_t other = mappedCycles(m, activations, perVector, load(a));
    if (other < best.busy)
      best = Cost{other, m.latency, load(a)};
  }
  return best;
}

// [.., M, K] x [.., K, N]: the weight mapping streams the M rows of A through
// tiles of B; the activation mapping installs A^T and streams B's N columns.
static Cost planeCost(const ChipSpec &chip, const TensorDesc &a,
                      const TensorDesc &b, const TensorDesc &r) {
  size_t ra = a.shape.size(), rb = b.shape.size();
  uint64_t M = ra >= 2 ? static_cast<uint64_t>(a.shape[ra - 2]) : 1;
  uint64_t K = ra >= 1 ? static_cast<uint64_t>(a.shape[ra - 1]) : 1;
  uint64_t N = rb >= 2 ? static_cast<uint64_t>(b.shape[rb - 1]) : 1;
  uint64_t batchA = ra > 2 ? product(a.shape, 0, ra - 2) : 1;
  uint64_t batchB = rb > 2 ? product(b.shape, 0, rb - 2) : 1;
  uint64_t resultRank = r.shape.size();
  uint64_t batchR = resultRank > 2 ? product(r.shape, 0, resultRank - 2)
                                   : std::max(batchA, batchB);
  // A stationary operand shared by every batch streams all their rows.
  Mapping weights = batchB <= 1 ? Mapping{1, batchR * M, K, N}
                                : Mapping{batchR, M, K, N};
  Mapping activations = batchA <= 1 ? Mapping{1, batchR * N, K, M}
                                    : Mapping{batchR, N, K, M};
  return bestCycles(chip, a.dtype, b.dtype, weights, activations);
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

// The matmul a convolution amounts to, `group` independent products
// [rows, k] x [k, m], each group with its own weights and its own input
// channels.
static Cost groupedMatmul(const Streams &s, int64_t group, int64_t rows,
                          int64_t k, int64_t m) {
  uint64_t g = static_cast<uint64_t>(group);
  Mapping weights{g, uint64_t(rows), uint64_t(k), uint64_t(m)};
  Mapping activations{g, uint64_t(m), uint64_t(k), uint64_t(rows)};
  return streamedThroughPlanes(s, bestCycles(s.chip, s.operands[0].dtype,
                                             s.operands[1].dtype, weights,
                                             activations));
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
