//===- LatencyBound.cpp - Time one request cannot beat on its stages ------===//
//
// Reads the program for the model's work per chip (its matrix products, the
// bytes that must touch SRAM, the weights the products read) and for the
// stage each chip belongs to; issue cycles and the cost model are never
// consulted.
//
//===----------------------------------------------------------------------===//
#include "lpx/sim/LatencyBound.h"

#include "lpx/isa/Opcode.h"
#include "lpx/sim/PhysicalBound.h"

#include <algorithm>
#include <cmath>
#include <vector>

using namespace lpx;
using namespace lpx::sim;

namespace {

/// The constant buffers an MXM operand is computed from alone (a weight, or
/// a cast or transpose of one): the weights a pass through the stage must
/// bring into the MXM. A constant that meets the activations on the way (a
/// bias, a position table gathered by the positions) is not one.
std::vector<bool> weightsOfProducts(const isa::pb::Program &p) {
  const size_t n = size_t(p.buffers_size());
  std::vector<bool> fromConstants(n, false);
  for (size_t id = 0; id < n; ++id)
    fromConstants[id] = p.buffers(int(id)).kind() == isa::pb::CONSTANT;
  std::vector<std::vector<uint32_t>> writers(n);
  for (int i = 0; i < p.instructions_size(); ++i) {
    const isa::pb::Instruction &inst = p.instructions(i);
    writers[inst.result()].push_back(uint32_t(i));
    bool all = inst.operands_size() > 0;
    for (uint32_t id : inst.operands())
      all = all && fromConstants[id];
    if (all && isa::unitOf(isa::opcodeOf(inst)) != isa::Unit::MXM)
      fromConstants[inst.result()] = true;
  }
  std::vector<bool> feeds(n, false);
  std::vector<uint32_t> work;
  for (const isa::pb::Instruction &inst : p.instructions())
    if (isa::unitOf(isa::opcodeOf(inst)) == isa::Unit::MXM)
      for (uint32_t id : inst.operands())
        if (fromConstants[id] && !feeds[id]) {
          feeds[id] = true;
          work.push_back(id);
        }
  while (!work.empty()) {
    const uint32_t id = work.back();
    work.pop_back();
    for (uint32_t w : writers[id])
      for (uint32_t src : p.instructions(int(w)).operands())
        if (!feeds[src]) {
          feeds[src] = true;
          work.push_back(src);
        }
  }
  for (size_t id = 0; id < n; ++id)
    feeds[id] = feeds[id] && p.buffers(int(id)).kind() == isa::pb::CONSTANT;
  return feeds;
}

struct ChipWork {
  double mxm = 0, sramBytes = 0;       // the request's whole work
  double weightEntry = 0, weightBytes = 0; // its product weights, once
};

} // namespace

LatencyBound lpx::sim::computeLatencyBound(const isa::VerifiedProgram &prog) {
  const isa::pb::Program &p = prog.program();
  const isa::ChipSpec &chip = prog.chip();
  LatencyBound b;
  if (p.instructions_size() == 0)
    return b;
  const uint32_t nodes = std::max<uint32_t>(p.num_nodes(), 1);
  if (nodes > 1)
    b.deskew = chip.topology.deskewCycles;

  std::vector<ChipWork> work(nodes);
  for (const isa::pb::Instruction &inst : p.instructions())
    if (inst.node() < nodes)
      work[inst.node()].mxm += productCycles(p, chip, inst);
  const std::vector<uint64_t> mustMove = bytesThatMustMoveByNode(p);
  for (uint32_t n = 0; n < nodes && n < mustMove.size(); ++n)
    work[n].sramBytes = double(mustMove[n]);
  const std::vector<bool> weights = weightsOfProducts(p);
  for (int id = 0; id < p.buffers_size(); ++id) {
    const isa::pb::Buffer &buf = p.buffers(id);
    if (!weights[size_t(id)] || buf.node() >= nodes)
      continue;
    const isa::TensorDesc d = isa::descOf(buf);
    work[buf.node()].weightEntry +=
        double(d.elements()) / mxmIngestElementsPerCycle(chip, d.dtype, d.dtype);
    work[buf.node()].weightBytes += double(buf.bytes());
  }

  // One MXM load a chip may hold before the request: its entry at the
  // installed rate (weight_load_cycles) and its bytes at the widest element.
  const double sramRate =
      double(std::max<uint64_t>(chip.sramBytesPerCycle(), 1));
  const double preload = double(chip.mxm.planes) * chip.mxm.rows * chip.mxm.cols;
  const double preloadEntry = double(chip.mxm.weightLoadCycles);
  const double preloadSram = preload * 4 / sramRate;
  auto less = [](double x, double slack) { return std::max(0.0, x - slack); };

  const uint32_t tp = p.tp() > 0 ? std::min(p.tp(), nodes) : nodes;
  for (uint32_t first = 0; first < nodes; first += tp) {
    StageLatency s;
    s.firstNode = first;
    s.nodes = std::min(tp, nodes - first);
    for (uint32_t n = first; n < first + s.nodes; ++n) {
      const ChipWork &c = work[n];
      const double mxm = less(c.mxm, preloadEntry);
      const double sram = less(c.sramBytes / sramRate, preloadSram);
      const double pass = std::max(less(c.weightEntry, preloadEntry),
                                   less(c.weightBytes / sramRate, preloadSram));
      s.mxmCycles = std::max(s.mxmCycles, mxm);
      s.sramCycles = std::max(s.sramCycles, sram);
      s.workCycles = std::max({s.workCycles, mxm, sram, pass});
      s.passCycles = std::max(s.passCycles, pass);
    }
    b.stages.push_back(s);
  }

  double passes = 0;
  for (const StageLatency &s : b.stages)
    passes += s.passCycles;
  double best = 0;
  for (uint32_t i = 0; i < b.stages.size(); ++i) {
    const StageLatency &s = b.stages[i];
    const double through = passes - s.passCycles + s.workCycles;
    if (through > best) {
      best = through;
      b.busiestStage = i;
    }
  }
  if (b.stages.size() > 1)
    b.hopCycles = uint64_t(b.stages.size() - 1) *
                  uint64_t(std::floor(isa::localLinkRate(chip).latency));
  b.cycles = b.deskew + b.hopCycles + uint64_t(std::ceil(best));
  return b;
}
