//===- PhysicalBound.cpp - Time the chip's peaks allow for the work -------===//
//
// Reads the program only for what the model asks of the chip: the shapes of
// its matrix products, its buffer table (weights, inputs, state, outputs),
// and which values the placement puts on another chip. Issue cycles and the
// cost model are never consulted.
//
//===----------------------------------------------------------------------===//
#include "lpx/sim/PhysicalBound.h"

#include "lpx/isa/Opcode.h"
#include "lpx/isa/Program.h"
#include "lpx/isa/Timing.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>
#include <vector>

using namespace lpx;
using namespace lpx::sim;

double lpx::sim::mxmPeakMacsPerCycle(const isa::ChipSpec &chip, isa::DType a,
                                     isa::DType b) {
  const isa::MxmSpec &m = chip.mxm;
  // The operands' width sets the streaming rate (the chip's figure, not a
  // priced instruction).
  return double(m.planes) * m.rows * m.cols /
         double(std::max(m.cyclesPerVector(a, b), 1u));
}

double lpx::sim::mxmIngestElementsPerCycle(const isa::ChipSpec &chip,
                                           isa::DType a, isa::DType b) {
  const isa::MxmSpec &m = chip.mxm;
  // Installing a rows x cols tile takes weight_load_cycles per byte of an
  // element, so as many elements per cycle at any width; a streamed vector
  // carries `rows` elements per plane every cycles_per_vector.
  const double installed = double(m.planes) * m.rows * m.cols /
                           double(std::max(m.weightLoadCycles, 1u));
  const double perVector = std::max(m.cyclesPerVector(a, b), 1u);
  return installed + double(m.planes) * m.rows / perVector;
}

namespace {

/// Cycles of all MXM work at the peak of one chip (divided by chips later).
double computeCyclesOnOneChip(const isa::pb::Program &p,
                              const isa::ChipSpec &chip, uint64_t &macs) {
  double cycles = 0;
  for (const isa::pb::Instruction &inst : p.instructions())
    cycles += productCycles(p, chip, inst, &macs);
  return cycles;
}

/// Bytes sent to another chip, once per (value, destination), and the most
/// chip boundaries on one chain of dependent values.
void linkWork(const isa::pb::Program &p, uint64_t &bytes, uint32_t &hops) {
  std::set<std::pair<uint32_t, uint32_t>> carried;
  std::vector<uint32_t> hopsOf(size_t(p.buffers_size()), 0);
  for (const isa::pb::Instruction &inst : p.instructions()) {
    uint32_t before = 0;
    for (uint32_t id : inst.operands())
      before = std::max(before, hopsOf[id]);
    const bool send = isa::unitOf(isa::opcodeOf(inst)) == isa::Unit::C2C;
    if (send && inst.operands_size() > 0 && inst.dst_node() != inst.node() &&
        carried.insert({inst.operands(0), inst.dst_node()}).second)
      bytes += p.buffers(int(inst.operands(0))).bytes();
    uint32_t &after = hopsOf[inst.result()];
    after = std::max(after, before + (send ? 1u : 0u));
    hops = std::max(hops, after);
  }
}

} // namespace

double lpx::sim::productCycles(const isa::pb::Program &p,
                               const isa::ChipSpec &chip,
                               const isa::pb::Instruction &inst,
                               uint64_t *macs) {
  const isa::Opcode op = isa::opcodeOf(inst);
  if (isa::unitOf(op) != isa::Unit::MXM || inst.operands_size() < 2)
    return 0;
  std::vector<isa::TensorDesc> operands;
  for (uint32_t id : inst.operands())
    operands.push_back(isa::descOf(p.buffers(int(id))));
  const uint64_t n = isa::multiplyAccumulates(
      op, operands, isa::descOf(p.buffers(int(inst.result()))));
  if (macs)
    *macs += n;
  // A matrix-vector product (a decode step's projections) uses each weight
  // once, so the weights' entry, not the MACs, sets its time.
  const double entering =
      double(operands[0].elements() + operands[1].elements()) /
      mxmIngestElementsPerCycle(chip, operands[0].dtype, operands[1].dtype);
  return std::max(double(n) / mxmPeakMacsPerCycle(chip, operands[0].dtype,
                                                  operands[1].dtype),
                  entering);
}

std::vector<uint64_t>
lpx::sim::bytesThatMustMoveByNode(const isa::pb::Program &p) {
  const size_t n = size_t(p.buffers_size());
  std::vector<uint64_t> picked(n, 0);
  std::vector<bool> readWhole(n, false);
  for (const isa::pb::Instruction &inst : p.instructions())
    for (int i = 0; i < inst.operands_size(); ++i) {
      const uint32_t id = inst.operands(i);
      if (i == 0 && isa::opcodeOf(inst) == isa::Opcode::Gather)
        picked[id] += p.buffers(int(inst.result())).bytes();
      else
        readWhole[id] = true;
    }
  std::vector<uint64_t> bytes(std::max<uint32_t>(p.num_nodes(), 1), 0);
  for (size_t id = 0; id < n; ++id) {
    const isa::pb::Buffer &b = p.buffers(int(id));
    if (b.kind() == isa::pb::TEMP || b.node() >= bytes.size())
      continue;
    const bool onlyGathered = picked[id] > 0 && !readWhole[id] &&
                              b.kind() != isa::pb::OUTPUT;
    bytes[b.node()] += onlyGathered ? std::min<uint64_t>(b.bytes(), picked[id])
                                    : b.bytes();
  }
  return bytes;
}

PhysicalBound lpx::sim::computePhysicalBound(const isa::VerifiedProgram &prog) {
  const isa::pb::Program &p = prog.program();
  const isa::ChipSpec &chip = prog.chip();
  PhysicalBound b;
  b.chips = std::max<uint32_t>(p.num_nodes(), 1);
  if (p.instructions_size() == 0)
    return b;
  if (b.chips > 1)
    b.deskew = chip.topology.deskewCycles;

  b.computeCycles = computeCyclesOnOneChip(p, chip, b.macs) / b.chips;
  for (uint64_t bytes : bytesThatMustMoveByNode(p))
    b.sramBytes += bytes;
  b.sramCycles = double(b.sramBytes) /
                 (double(b.chips) * double(std::max<uint64_t>(
                                        chip.sramBytesPerCycle(), 1)));
  linkWork(p, b.linkBytes, b.linkHops);
  if (b.linkBytes > 0) {
    // The fastest link a chip has and its shortest hop: a floor for any
    // route the placement's transfers take.
    const isa::LinkRate local = isa::localLinkRate(chip);
    const double perChip = double(chip.link.perChip) * local.bytesPerCycle;
    b.linkCycles = double(b.linkBytes) / (double(b.chips) * std::max(perChip, 1e-9)) +
                   double(b.linkHops) * local.latency;
  }
  b.limit = "MXM peak";
  double largest = b.computeCycles;
  if (b.sramCycles > largest) {
    largest = b.sramCycles;
    b.limit = "SRAM bandwidth";
  }
  b.workCycles = b.deskew + uint64_t(std::ceil(largest));
  if (b.linkCycles > largest) {
    largest = b.linkCycles;
    b.limit = "links";
  }
  b.cycles = b.deskew + uint64_t(std::ceil(largest));
  return b;
}

GapAttribution lpx::sim::attributeGap(const PhysicalBound &bound,
                                      uint64_t simulated,
                                      uint64_t criticalPathCycles,
                                      uint64_t busiestLinkBusy) {
  return attributeGap(bound.cycles, bound.linkCycles, simulated,
                      criticalPathCycles, busiestLinkBusy);
}

GapAttribution lpx::sim::attributeGap(uint64_t boundCycles,
                                      double boundLinkCycles,
                                      uint64_t simulated,
                                      uint64_t criticalPathCycles,
                                      uint64_t busiestLinkBusy) {
  GapAttribution g;
  if (simulated <= boundCycles)
    return g;
  uint64_t left = simulated - boundCycles;
  auto beyond = [](uint64_t x, uint64_t floor) {
    return x > floor ? x - floor : 0;
  };
  g.serialLatency = std::min(left, beyond(criticalPathCycles, boundCycles));
  left -= g.serialLatency;
  g.linkTime = std::min(
      left, beyond(busiestLinkBusy, uint64_t(std::ceil(boundLinkCycles))));
  left -= g.linkTime;
  g.idleUnits = left;
  return g;
}
