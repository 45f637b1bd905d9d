//===- Timing.cpp - Cycle cost of one instruction -------------------------===//
//
// Instructions stream whole tensors as runs of vectors. A unit consumes a
// fixed number of vectors per cycle through SRAM stream ports it owns, so an
// instruction's busy time depends only on its own operands: nothing on the
// chip arbitrates between instructions at run time.
//
//===----------------------------------------------------------------------===//
#include "lpx/isa/Timing.h"
#include "cost/UnitCost.h"
#include "lpx/isa/UnitOps.h"
#include "program.pb.h"

#include <algorithm>
#include <cmath>

using namespace lpx::isa;
using namespace lpx::isa::cost;

uint64_t TensorDesc::elements() const {
  uint64_t n = 1;
  for (int64_t d : shape)
    n *= static_cast<uint64_t>(std::max<int64_t>(d, 0));
  return n;
}

uint64_t lpx::isa::cost::product(const std::vector<int64_t> &v, size_t from,
                                 size_t to) {
  uint64_t n = 1;
  for (size_t i = from; i < to && i < v.size(); ++i)
    n *= static_cast<uint64_t>(std::max<int64_t>(v[i], 0));
  return n;
}

uint64_t Streams::vectorsOf(const TensorDesc &t) const {
  return chip.vectorsFor(t.bytes());
}

// The vector unit computes lane by lane: an element takes at least one lane,
// so elements narrower than a lane (vector.bytes / vector.lanes) waste part
// of it. Measured in whole-vector steps of the lanes.
static uint64_t laneVectorsOf(const ChipSpec &chip, uint64_t elements,
                              DType dtype) {
  const double laneBytes = double(chip.vector.bytes) / chip.vector.lanes;
  const double lanesPerElement =
      std::max(1.0, double(dtypeBytes(dtype)) / laneBytes);
  return static_cast<uint64_t>(
      std::ceil(double(elements) * lanesPerElement / chip.vector.lanes));
}

Cost Streams::streamed(const StreamUnitSpec &u, uint64_t passes) const {
  return Cost{std::max({uint64_t(1), sramFloor,
                        ceilDiv(vectors * passes, u.vectorsPerCycle)}),
              u.latencyOf(opName) + transport};
}

Cost Streams::throughput(const StreamUnitSpec &u, uint64_t work) const {
  return Cost{std::max({uint64_t(1), sramFloor,
                        ceilDiv(work, u.vectorsPerCycle)}),
              u.latencyOf(opName) + transport};
}

// A vector operation of p ALU passes: the queue takes at most
// vectors_per_cycle lane-vectors per cycle, and the lane's ALUs (p per vector
// in flight) at most alus_per_lane / p.
Cost Streams::vectorOp(uint64_t passes) const {
  const VxmSpec &v = chip.vxm;
  uint64_t alus = std::max<uint64_t>(v.alusPerLane, 1);
  uint64_t byStream = ceilDiv(laneVectors, v.vectorsPerCycle);
  uint64_t byAlus = ceilDiv(laneVectors * passes, alus);
  return Cost{std::max({uint64_t(1), sramFloor, byStream, byAlus}),
              v.latencyOf(opName) + transport, 0, passes};
}

// The one cost entry of each opcode.
static Cost opcodeCost(const Streams &s) {
  const uint64_t tp = s.chip.vxm.transcendentalPasses;
  switch (s.op) {
  case Opcode::MatMul: return matmulCost(s);
  case Opcode::Conv: return convCost(s);
  case Opcode::ConvTranspose: return convTransposeCost(s);
  case Opcode::Add:
  case Opcode::Sub:
  case Opcode::Mul:
  case Opcode::Where:
  case Opcode::Neg:
  case Opcode::Relu:
  case Opcode::Cast:
  case Opcode::CumSum:
    return s.vectorOp(1);
  case Opcode::Div:
  case Opcode::Pow:
  case Opcode::Sqrt:
  case Opcode::Sigmoid:
  case Opcode::Tanh:
    return s.vectorOp(tp);
  case Opcode::Softmax: return s.vectorOp(3 + tp); // max, sub+exp, sum, scale
  case Opcode::LogSoftmax: // max, subtract+exp, sum, log, subtract
    return s.vectorOp(3 + 2 * tp);
  case Opcode::ReduceMean: // sum, scale
  case Opcode::Hardmax:    // max, compare
    return s.vectorOp(2);
  case Opcode::Unary:
  case Opcode::Binary:
  case Opcode::Reduce:
  case Opcode::ArgReduce:
    return functionCost(s);
  case Opcode::Pool: return poolCost(s);
  case Opcode::TopK: return topKCost(s);
  case Opcode::Det: return detCost(s);
  case Opcode::Transpose:
  case Opcode::Concat:
  case Opcode::Broadcast:
  case Opcode::Pad:
  case Opcode::GatherElements:
    return s.streamed(s.chip.sxm, 1);
  case Opcode::ScatterElements:
  case Opcode::ScatterND:
    return scatterCost(s);
  case Opcode::GridSample: return gridSampleCost(s);
  case Opcode::Gather: return gatherCost(s);
  case Opcode::Slice: return sliceCost(s);
  case Opcode::Copy:
  case Opcode::StateWrite: // the update only (instructionCost)
    return s.streamed(s.chip.mem, 1);
  case Opcode::Send:
    return sendCost(s.chip, s.operands.empty() ? s.result.bytes()
                                               : s.operands[0].bytes(),
                    localLinkRate(s.chip));
  case Opcode::NumOpcodes:
    break;
  }
  return {1, 0};
}

Cost lpx::isa::instructionCost(const ChipSpec &chip, Opcode op,
                               const std::vector<TensorDesc> &operands,
                               const TensorDesc &result,
                               const pb::Attributes &attrs) {
  // A state write moves its update into place: it streams the update's
  // bytes, not the whole state it names as its result.
  if (op == Opcode::StateWrite && !operands.empty() &&
      &result != &operands.front())
    return instructionCost(chip, op, operands, operands.front(), attrs);
  // Each tensor's element count once: the simulator costs every
  // instruction it replays.
  const uint64_t resultElements = result.elements();
  const uint64_t resultBytes = resultElements * dtypeBytes(result.dtype);
  uint64_t vectors = chip.vectorsFor(resultBytes);
  uint64_t laneVectors = laneVectorsOf(chip, resultElements, result.dtype);
  uint64_t sramBytes = resultBytes;
  for (const TensorDesc &t : operands) {
    const uint64_t elements = t.elements();
    const uint64_t bytes = elements * dtypeBytes(t.dtype);
    vectors = std::max(vectors, chip.vectorsFor(bytes));
    laneVectors = std::max(laneVectors, laneVectorsOf(chip, elements, t.dtype));
    sramBytes += bytes;
  }
  // Every byte an instruction reads or writes passes an SRAM bank port; the
  // node's banks together bound how fast any one instruction can stream.
  const uint64_t sramFloor =
      ceilDiv(sramBytes, std::max<uint64_t>(chip.sramBytesPerCycle(), 1));
  // Operands stream from SRAM across the chip to the unit and results back.
  const Streams s{chip,
                  op,
                  operands,
                  result,
                  attrs,
                  std::max<uint64_t>(vectors, 1),
                  std::max<uint64_t>(laneVectors, 1),
                  sramFloor,
                  chip.stream.transportCycles,
                  unitOpName(op, attrs)};
  return opcodeCost(s);
}

Cost lpx::isa::instructionCost(const ChipSpec &chip, Opcode op,
                               const std::vector<TensorDesc> &operands,
                               const TensorDesc &result) {
  return instructionCost(chip, op, operands, result, pb::Attributes());
}

uint64_t lpx::isa::mxmPeakMacsPerCycle(const ChipSpec &chip) {
  const MxmSpec &m = chip.mxm;
  return uint64_t(m.planes) * m.rows * m.cols /
         std::max<uint32_t>(m.cyclesPerVectorInt8, 1);
}

uint32_t lpx::isa::localLinksPerPeer(const ChipSpec &chip) {
  const uint32_t peers = std::max<uint32_t>(chip.topology.groupSize, 2) - 1;
  const uint32_t global = chip.topology.globalLinksPerChip;
  const uint32_t local = chip.link.perChip > global ? chip.link.perChip - global : 0;
  return std::max<uint32_t>(local / peers, 1);
}

LinkRate lpx::isa::localLinkRate(const ChipSpec &chip) {
  return {chip.link.bytesPerCycle(), chip.link.latency,
          localLinksPerPeer(chip)};
}

Cost lpx::isa::sendCost(const ChipSpec &chip, uint64_t bytes,
                        const LinkRate &rate) {
  uint64_t flits = std::max<uint64_t>(1, ceilDiv(bytes, chip.link.flitPayload));
  // Flits are dealt out over the parallel links; each is striped over its
  // link's lanes.
  flits = ceilDiv(flits, std::max<uint32_t>(rate.links, 1));
  double wire = double(flits) * chip.link.flitBytes;
  uint64_t busy = static_cast<uint64_t>(std::ceil(wire / rate.bytesPerCycle));
  return {std::max<uint64_t>(busy, 1), rate.latency};
}

uint64_t lpx::isa::flitCount(const ChipSpec &chip, uint64_t bytes) {
  return std::max<uint64_t>(
      1, ceilDiv(bytes, std::max<uint32_t>(chip.link.flitPayload, 1)));
}

uint64_t lpx::isa::forwardEarliest(const ChipSpec &chip, uint64_t bytes,
                                   uint64_t prevIssue, const Cost &prev,
                                   const Cost &next) {
  if (!chip.link.cutThrough)
    return prev.done(prevIssue);
  // Flit j may leave at issue + j*Tn/F once prevIssue + (j+1)*Tp/F + Lp has
  // passed: linear in j, so j = 0 and j = F-1 bound all the others.
  using Wide = __int128;
  const Wide f = Wide(flitCount(chip, bytes));
  const Wide tp = Wide(prev.busy), tn = Wide(next.busy);
  Wide lead = std::max(tp, f * tp - (f - 1) * tn); // F x cycles after issue
  uint64_t wait = uint64_t((lead + f - 1) / f);
  return prevIssue + prev.latency + wait;
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
