//===- EngineSummary.cpp - Before cycle 0 and after the last --------------===//
//
// What the engine (EngineState.h) places in SRAM before the first
// instruction, and how it sums up a run: buffer lifetimes, queue
// statistics, the bounds and the host's input and output transfers.
//
//===----------------------------------------------------------------------===//
#include "EngineState.h"

#include "lpx/isa/Banks.h"
#include "lpx/isa/Topology.h"
#include "llvm/Support/FormatVariadic.h"

using namespace lpx;
using namespace lpx::sim;
using namespace lpx::sim::engine;

// Inputs, weights and resident state are in SRAM before cycle 0 and occupy
// their ranges.
void Engine::placeInitialTenants() {
  for (int id = 0; id < p.buffers_size(); ++id) {
    const isa::pb::Buffer &b = p.buffers(id);
    if (b.kind() != isa::pb::INPUT && b.kind() != isa::pb::CONSTANT &&
        b.kind() != isa::pb::STATE)
      continue;
    buffers[id].readyAt = 0;
    buffers[id].writtenAt = 0;
    displaced.clear();
    sram[b.node()].occupy(b.addr(), b.bytes(), id, displaced);
    for (uint32_t d : displaced) {
      if (d == uint32_t(id))
        continue;
      // Two preloaded buffers overlap: the earlier one is lost before the
      // program starts; any read of it is reported.
      BufferState &s = buffers[d];
      s.clobbered = true;
      s.clobberedBy = id;
      s.clobberInst = kNoInstruction;
      s.clobberCycle = 0;
    }
  }
}

// A buffer is needed from its write until its last reader finishes (or its
// data is complete, for one nobody reads); outputs and constants until the
// end, when the host reads the outputs and the weights and state stay for the
// next run.
void Engine::recordLifetimes() {
  for (int id = 0; id < p.buffers_size(); ++id) {
    const BufferState &s = buffers[id];
    if (s.writtenAt == kNever)
      continue;
    const isa::pb::Buffer &b = p.buffers(id);
    uint64_t to = std::max(s.lastReadEnd, s.readyAt);
    if (b.kind() == isa::pb::OUTPUT || b.kind() == isa::pb::CONSTANT ||
        b.kind() == isa::pb::STATE)
      to = std::max(to, result.totalCycles);
    opts.trace->buffers.push_back(BufferLifetime{
        uint32_t(id), b.node(), b.addr(), b.bytes(), s.writtenAt, to});
  }
}

std::vector<QueueStats> Engine::collectQueues() const {
  std::vector<QueueStats> out;
  out.reserve(units.size() + links.size());
  // Links sort before units ("link" < "mem"); the map is already in
  // (node, link) order, so merging per node keeps the whole list sorted.
  auto link = links.begin();
  for (uint32_t node = 0; node < p.num_nodes(); ++node) {
    for (; link != links.end() && link->first.first == node; ++link)
      out.push_back(
          QueueStats{node, llvm::formatv("link{0}", link->first.second).str(),
                     link->second.busy, link->second.count});
    for (unsigned u = 0; u < kQueuedUnits; ++u) {
      // A unit with several queues reports each: vxm0, vxm1, ...
      const uint32_t queues = isa::queueCount(prog.chip(), kUnitsByName[u]);
      for (uint32_t k = 0; k < queues; ++k) {
        const QueueState &q = units[unitIndex(node, u, k)];
        std::string name(isa::unitName(kUnitsByName[u]));
        if (queues > 1)
          name += std::to_string(k);
        out.push_back(QueueStats{node, std::move(name), q.busy, q.count});
      }
    }
  }
  return out;
}

void Engine::finishBoundsAndHostIo() {
  result.bounds = lower.finish();
  const Bound &tight = result.bounds.tightest();
  result.lowerBound = tight.cycles;
  result.bottleneck = tight.what;
  result.efficiency = result.totalCycles == 0 ? 1.0
                                              : double(result.lowerBound) /
                                                    double(result.totalCycles);
  result.physical = computePhysicalBound(prog);
  result.physicalEfficiency =
      result.totalCycles == 0 ? 1.0
                              : double(result.physical.cycles) /
                                    double(result.totalCycles);
  uint64_t busiestLink = 0;
  for (const QueueStats &q : result.queues)
    if (llvm::StringRef(q.queue).starts_with("link"))
      busiestLink = std::max(busiestLink, q.busyCycles);
  result.gap = attributeGap(result.physical, result.totalCycles,
                            result.bounds.criticalPath.cycles, busiestLink);
  result.latency = computeLatencyBound(prog);
  result.latencyEfficiency =
      result.totalCycles == 0 ? 1.0
                              : double(result.latency.cycles) /
                                    double(result.totalCycles);
  result.latencyGap = attributeGap(
      result.latency.cycles, double(result.latency.hopCycles),
      result.totalCycles, result.bounds.criticalPath.cycles, busiestLink);
  for (const isa::pb::Buffer &b : p.buffers()) {
    if (b.kind() == isa::pb::INPUT)
      result.hostInputBytes += b.bytes();
    else if (b.kind() == isa::pb::OUTPUT)
      result.hostOutputBytes += b.bytes();
  }
  result.hostInputUs = hostTransferUs(prog.chip(), result.hostInputBytes);
  result.hostOutputUs = hostTransferUs(prog.chip(), result.hostOutputBytes);
}
