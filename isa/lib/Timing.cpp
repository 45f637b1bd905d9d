//===- Timing.cpp - Cycle cost of one instruction -------------------------===//
//
// Instructions stream whole tensors as runs of vectors. A unit consumes a
// fixed number of vectors per cycle through SRAM stream ports it owns, so an
// instruction's busy time depends only on its own operands: nothing on the
// chip arbitrates between instructions at run time.
//
//===----------------------------------------------------------------------===//
#include "lpx/isa/Timing.h"
#include "lpx/isa/ElementwiseFunctions.h"
#include "lpx/isa/UnitOps.h"

#include <algorithm>
#include <cmath>

using namespace lpx::isa;

uint64_t TensorDesc::elements() const {
  uint64_t n = 1;
  for (int64_t d : shape)
    n *= static_cast<uint64_t>(std::max<int64_t>(d, 0));
  return n;
}

static uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

static uint64_t product(const std::vector<int64_t> &v, size_t from,
                        size_t to) {
  uint64_t n = 1;
  for (size_t i = from; i < to && i < v.size(); ++i)
    n *= static_cast<uint64_t>(std::max<int64_t>(v[i], 0));
  return n;
}

// Weight tiles are installed in MXM planes and activation vectors streamed
// through them. Installing the next tile overlaps streaming the current one,
// so a plane spends max(load, stream) per tile plus one exposed first load.
static Cost matmulCost(const ChipSpec &chip, const TensorDesc &a,
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

// A convolution costs what its im2col matmul would, group by group:
// [N*out spatial, C/g*kernel] x [C/g*kernel, M/g], g times on the planes.
static Cost convCost(const ChipSpec &chip, const std::vector<TensorDesc> &ops,
                     const TensorDesc &r) {
  const TensorDesc &x = ops[0], &w = ops[1];
  if (x.shape.size() < 3 || w.shape.size() != x.shape.size() ||
      r.shape.size() != x.shape.size())
    return {1, chip.mxm.latency};
  int64_t group = std::max<int64_t>(
      1, w.shape[0] > 0 && x.shape[1] > 0 && w.shape[1] > 0
             ? x.shape[1] / w.shape[1]
             : 1);
  int64_t rows = static_cast<int64_t>(r.shape[0] *
                                      product(r.shape, 2, r.shape.size()));
  int64_t k = static_cast<int64_t>(product(w.shape, 1, w.shape.size()));
  int64_t m = std::max<int64_t>(w.shape[0] / group, 1);
  TensorDesc a{x.dtype, {rows, k}}, b{w.dtype, {k, m}}, c{r.dtype, {rows, m}};
  Cost one = matmulCost(chip, a, b, c);
  // Groups after the first reuse the pipeline: only their busy time adds.
  return {one.busy * static_cast<uint64_t>(group), one.latency};
}

// A transposed convolution costs its dense matmul, group by group: every
// input position times W^T, [N*in spatial, C/g] x [C/g, M/g*kernel], whose
// products the accumulators add into the overlapping result windows
// (col2im). No MAC is spent on the zeros a strided "zero-stuffed" Conv would
// multiply.
static Cost convTransposeCost(const ChipSpec &chip,
                              const std::vector<TensorDesc> &ops,
                              const TensorDesc &r,
                              const std::vector<int64_t> &attrs) {
  const TensorDesc &x = ops[0], &w = ops[1];
  if (x.shape.size() < 3 || w.shape.size() != x.shape.size() ||
      r.shape.size() != x.shape.size())
    return {1, chip.mxm.latency};
  int64_t group = attrs.empty() ? 1 : std::max<int64_t>(attrs[0], 1);
  int64_t rows = static_cast<int64_t>(x.shape[0] *
                                      product(x.shape, 2, x.shape.size()));
  int64_t k = std::max<int64_t>(w.shape[0] / group, 1);
  int64_t m = static_cast<int64_t>(product(w.shape, 1, w.shape.size()));
  TensorDesc a{x.dtype, {rows, k}}, b{w.dtype, {k, m}}, c{r.dtype, {rows, m}};
  Cost one = matmulCost(chip, a, b, c);
  return {one.busy * static_cast<uint64_t>(group), one.latency};
}

// VXM passes of a generic opcode's function (its first attribute, see
// ElementwiseFunctions.def); unknown ids were rejected by the verifier.
static uint64_t functionPasses(Opcode op, const std::vector<int64_t> &attrs,
                               uint64_t transcendental) {
  int64_t id = attrs.empty() ? -1 : attrs[0];
  const FnInfo *fn = op == Opcode::Unary    ? unaryFnInfo(id)
                     : op == Opcode::Binary ? binaryFnInfo(id)
                     : op == Opcode::Reduce ? reduceFnInfo(id)
                                            : argReduceFnInfo(id);
  if (!fn)
    return 1;
  return fn->passes == kTranscendentalPasses ? transcendental : fn->passes;
}

static uint64_t vectorsOf(const ChipSpec &chip, const TensorDesc &t) {
  return chip.vectorsFor(t.bytes());
}

// The vector unit computes lane by lane: an element takes at least one lane,
// so elements narrower than a lane (vector.bytes / vector.lanes) waste part
// of it. Measured in whole-vector steps of the lanes.
static uint64_t laneVectorsOf(const ChipSpec &chip, const TensorDesc &t) {
  const double laneBytes = double(chip.vector.bytes) / chip.vector.lanes;
  const double lanesPerElement =
      std::max(1.0, double(dtypeBytes(t.dtype)) / laneBytes);
  return static_cast<uint64_t>(
      std::ceil(double(t.elements()) * lanesPerElement / chip.vector.lanes));
}

Cost lpx::isa::instructionCost(const ChipSpec &chip, Opcode op,
                               const std::vector<TensorDesc> &operands,
                               const TensorDesc &result,
                               const std::vector<int64_t> &attrs) {
  uint64_t vectors = vectorsOf(chip, result);
  uint64_t laneVectors = laneVectorsOf(chip, result);
  uint64_t sramBytes = result.bytes();
  for (const TensorDesc &t : operands) {
    vectors = std::max(vectors, vectorsOf(chip, t));
    laneVectors = std::max(laneVectors, laneVectorsOf(chip, t));
    sramBytes += t.bytes();
  }
  vectors = std::max<uint64_t>(vectors, 1);
  laneVectors = std::max<uint64_t>(laneVectors, 1);
  // Every byte an instruction reads or writes passes an SRAM bank port; the
  // node's banks together bound how fast any one instruction can stream.
  const uint64_t sramFloor =
      ceilDiv(sramBytes, std::max<uint64_t>(chip.sramBytesPerCycle(), 1));

  // Operands stream from SRAM across the chip to the unit and results back.
  const uint64_t transport = chip.stream.transportCycles;
  const std::string &opName = unitOpName(op, attrs);
  auto streamed = [&](const StreamUnitSpec &u, uint64_t passes) {
    return Cost{std::max({uint64_t(1), sramFloor,
                          ceilDiv(vectors * passes, u.vectorsPerCycle)}),
                u.latencyOf(opName) + transport};
  };
  // A vector operation of p ALU passes: the queue takes at most
  // vectors_per_cycle lane-vectors per cycle, and the lane's ALUs (p per
  // vector in flight) at most alus_per_lane / p.
  auto vectorOp = [&](uint64_t passes) {
    const VxmSpec &v = chip.vxm;
    uint64_t alus = std::max<uint64_t>(v.alusPerLane, 1);
    uint64_t byStream = ceilDiv(laneVectors, v.vectorsPerCycle);
    uint64_t byAlus = ceilDiv(laneVectors * passes, alus);
    return Cost{std::max({uint64_t(1), sramFloor, byStream, byAlus}),
                v.latencyOf(opName) + transport};
  };
  const uint64_t tp = chip.vxm.transcendentalPasses;

  switch (op) {
  case Opcode::MatMul:
    if (operands.size() != 2)
      return {1, chip.mxm.latency};
    {
      Cost c = matmulCost(chip, operands[0], operands[1], result);
      c.busy = std::max(c.busy, sramFloor);
      c.latency += transport;
      return c;
    }
  case Opcode::Add:
  case Opcode::Sub:
  case Opcode::Mul:
  case Opcode::Where:
  case Opcode::Neg:
  case Opcode::Relu:
  case Opcode::Cast:
    return vectorOp(1);
  case Opcode::Div:
  case Opcode::Pow:
  case Opcode::Sqrt:
  case Opcode::Sigmoid:
  case Opcode::Tanh:
    return vectorOp(tp);
  case Opcode::Softmax: // max, subtract+exp, sum, scale
    return vectorOp(3 + tp);
  case Opcode::ReduceMean: // sum, scale
    return vectorOp(2);
  case Opcode::Transpose:
  case Opcode::Concat:
  case Opcode::Slice:
  case Opcode::Gather:
    return streamed(chip.sxm, 1);
  case Opcode::Copy:
    return streamed(chip.mem, 1);
  case Opcode::Unary:
  case Opcode::Binary:
  case Opcode::Reduce:
  case Opcode::ArgReduce:
    return vectorOp(functionPasses(op, attrs, tp));
  case Opcode::LogSoftmax: // max, subtract+exp, sum, log, subtract
    return vectorOp(3 + 2 * tp);
  case Opcode::Hardmax: // max, compare
    return vectorOp(2);
  case Opcode::CumSum:
    return vectorOp(1);
  case Opcode::Broadcast:
  case Opcode::Pad:
  case Opcode::GatherElements:
    return streamed(chip.sxm, 1);
  case Opcode::Conv: {
    if (operands.size() < 2)
      return {1, chip.mxm.latency};
    Cost c = convCost(chip, operands, result);
    c.busy = std::max(c.busy, sramFloor);
    c.latency += transport;
    return c;
  }
  case Opcode::ConvTranspose: {
    if (operands.size() < 2)
      return {1, chip.mxm.latency};
    Cost c = convTransposeCost(chip, operands, result, attrs);
    c.busy = std::max(c.busy, sramFloor);
    c.latency += transport;
    return c;
  }
  case Opcode::Pool: {
    // Every result element reads its window: kernel-volume passes over the
    // result, but never less than one pass over the input.
    uint64_t window = 1;
    size_t s = result.shape.size() >= 2 ? result.shape.size() - 2 : 0;
    for (size_t i = 0; i < s && 2 + i < attrs.size(); ++i)
      window *= static_cast<uint64_t>(std::max<int64_t>(attrs[2 + i], 1));
    uint64_t in = operands.empty() ? 1 : vectorsOf(chip, operands[0]);
    uint64_t work = std::max(in, vectorsOf(chip, result) * window);
    return Cost{std::max({uint64_t(1), sramFloor,
                          ceilDiv(work, chip.vxm.vectorsPerCycle)}),
                chip.vxm.latencyOf(opName) + transport};
  }
  case Opcode::TopK: {
    // Assumed: the VXM selects along each line either by k passes of
    // "max, then mask the winner", or by a bitonic sorting network of
    // s(s+1)/2 compare-exchange stages, s = ceil(log2(line length)),
    // whichever is fewer; every pass streams the whole input once.
    uint64_t k = attrs.size() >= 2 ? static_cast<uint64_t>(
                                         std::max<int64_t>(attrs[1], 1))
                                   : 1;
    uint64_t len = 1;
    if (!operands.empty() && !attrs.empty() && attrs[0] >= 0 &&
        static_cast<size_t>(attrs[0]) < operands[0].shape.size())
      len = static_cast<uint64_t>(
          std::max<int64_t>(operands[0].shape[attrs[0]], 1));
    uint64_t s = 0;
    while ((uint64_t(1) << s) < len)
      ++s;
    uint64_t passes = std::max<uint64_t>(1, std::min(k, s * (s + 1) / 2));
    return streamed(chip.vxm, passes);
  }
  case Opcode::ScatterElements:
  case Opcode::ScatterND: {
    // Assumed: the SXM streams the data into the result once, then the
    // indices and the updates, writing each update at its place; a
    // reduction reads the old values first (one more pass over the
    // updates' size).
    uint64_t work = 0;
    for (const TensorDesc &t : operands)
      work += vectorsOf(chip, t);
    bool reduces = op == Opcode::ScatterElements
                       ? attrs.size() >= 2 && attrs[1] != 0
                       : !attrs.empty() && attrs[0] != 0;
    if (reduces && operands.size() == 3)
      work += vectorsOf(chip, operands[2]);
    return Cost{std::max({uint64_t(1), sramFloor,
                          ceilDiv(work, chip.sxm.vectorsPerCycle)}),
                chip.sxm.latencyOf(opName) + transport};
  }
  case Opcode::GridSample: {
    // Assumed: the SXM streams the grid once and gathers the taps of every
    // result element from X (1 nearest, 4 bilinear, 16 bicubic), the
    // weighting riding along in the stream; the result is written once.
    const uint64_t taps = attrs.empty() ? 4 : attrs[0] == 1 ? 1
                                            : attrs[0] == 2 ? 16 : 4;
    uint64_t work = vectorsOf(chip, result) * (taps + 1);
    if (operands.size() == 2)
      work += vectorsOf(chip, operands[1]);
    return Cost{std::max({uint64_t(1), sramFloor,
                          ceilDiv(work, chip.sxm.vectorsPerCycle)}),
                chip.sxm.latencyOf(opName) + transport};
  }
  case Opcode::Det: {
    // Assumed: Gaussian elimination on the VXM, n steps over the matrices,
    // each a pivot search, a division and a multiply-subtract pass.
    uint64_t n = 1;
    if (!operands.empty() && operands[0].shape.size() >= 2)
      n = std::max<int64_t>(operands[0].shape.back(), 1);
    return vectorOp(3 * n);
  }
  case Opcode::Send:
    return sendCost(chip, operands.empty() ? result.bytes()
                                           : operands[0].bytes(),
                    localLinkRate(chip));
  case Opcode::NumOpcodes:
    break;
  }
  return {1, 0};
}

LinkRate lpx::isa::localLinkRate(const ChipSpec &chip) {
  return {chip.link.bytesPerCycle(), chip.link.latency};
}

Cost lpx::isa::sendCost(const ChipSpec &chip, uint64_t bytes,
                        const LinkRate &rate) {
  uint64_t flits = std::max<uint64_t>(1, ceilDiv(bytes, chip.link.flitPayload));
  double wire = double(flits) * chip.link.flitBytes;
  // A flit is striped over the link's lanes.
  uint64_t busy = static_cast<uint64_t>(std::ceil(wire / rate.bytesPerCycle));
  return {std::max<uint64_t>(busy, 1), rate.latency};
}

uint64_t lpx::isa::multiplyAccumulates(Opcode op,
                                       const std::vector<TensorDesc> &operands,
                                       const TensorDesc &result) {
  if (operands.size() < 2)
    return 0;
  const TensorDesc &x = operands[0], &w = operands[1];
  switch (op) {
  case Opcode::MatMul: // every result element is a K-long dot product
    return x.shape.empty() ? 0
                           : result.elements() *
                                 uint64_t(std::max<int64_t>(x.shape.back(), 0));
  case Opcode::Conv: // every result element: C/g * kernel products
    return w.shape.empty() ? 0 : result.elements() * product(w.shape, 1, w.shape.size());
  case Opcode::ConvTranspose: // every input position times all of W
    if (x.shape.size() < 2 || x.shape[1] <= 0)
      return 0;
    return x.elements() / uint64_t(x.shape[1]) * w.elements();
  default:
    return 0;
  }
}
