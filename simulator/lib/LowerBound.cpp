//===- LowerBound.cpp - Cycles no schedule of a program can beat ----------===//
//
// Three independent bounds, each a necessary condition on any schedule of the
// same instructions on the same chip:
//  - a queue runs one instruction at a time: a unit with q queues cannot
//    start before the earliest of its instructions could, needs the sum of
//    their busy cycles spread over its q queues, and after its last one the
//    shortest remaining chain still has to run (head + work / q + tail, as
//    in Jackson's bound for job shops);
//  - a node's SRAM delivers at most sram.bytes_per_cycle_per_bank per bank
//    per cycle, so the bytes its instructions stream need at least bytes /
//    that rate;
//  - an instruction cannot issue before its operands are complete, so the
//    longest producer -> reader chain of busy + latency is a floor.
// Multi-node programs start all three after the deskew. One pass in program
// order suffices: a valid program issues producers before their readers, and
// for an invalid one a reader simply sees what is known so far.
//
//===----------------------------------------------------------------------===//
#include "lpx/sim/LowerBound.h"

#include "lpx/isa/Chaining.h"
#include "lpx/isa/Opcode.h"
#include "lpx/isa/UnitOps.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace lpx;
using namespace lpx::sim;

namespace {

// Unit queues in the report's name order (mem, mxm, sxm, vxm), so a tie
// between queues resolves to the one listed first.
constexpr isa::Unit kUnitsByName[] = {isa::Unit::MEM, isa::Unit::MXM,
                                      isa::Unit::SXM, isa::Unit::VXM};
constexpr unsigned kQueuedUnits = 4;

unsigned unitSlot(isa::Unit u) {
  for (unsigned i = 0; i < kQueuedUnits; ++i)
    if (kUnitsByName[i] == u)
      return i;
  return 0;
}

uint64_t addSat(uint64_t a, uint64_t b) {
  return a + b < a ? UINT64_MAX : a + b;
}

uint64_t ceilDiv(uint64_t a, uint64_t b) {
  return b == 0 ? a : a / b + (a % b != 0);
}

uint64_t elementsOf(const isa::pb::Buffer &b) {
  uint64_t n = 1;
  for (int64_t d : b.shape())
    n *= uint64_t(std::max<int64_t>(d, 0));
  return n;
}

std::string describe(const isa::pb::Instruction &inst, int64_t index) {
  if (!inst.origin().empty())
    return inst.origin();
  return llvm::formatv("instruction {0} ({1})", index,
                       isa::mnemonic(isa::opcodeOf(inst)))
      .str();
}

} // namespace

uint32_t LowerBoundBuilder::queueOf(uint32_t node,
                                    const isa::pb::Instruction &inst) {
  const isa::Unit unit = isa::unitOf(isa::opcodeOf(inst));
  uint32_t *slot;
  if (unit == isa::Unit::C2C) {
    std::vector<uint32_t> &links = linkQueue[node];
    if (links.size() <= inst.link())
      links.resize(size_t(inst.link()) + 1, 0);
    slot = &links[inst.link()];
  } else {
    slot = &unitQueue[size_t(node) * kQueuedUnits + unitSlot(unit)];
  }
  if (*slot == 0) {
    queueNames.push_back(
        unit == isa::Unit::C2C
            ? llvm::formatv("link {0} of node {1}", inst.link(), node).str()
            : llvm::formatv("{0} on node {1}", isa::unitName(unit), node)
                  .str());
    Bound where;
    where.kind = BoundKind::Queue;
    where.node = node;
    where.unit = unit;
    where.link = unit == isa::Unit::C2C ? inst.link() : 0;
    queueBounds.push_back(where);
    *slot = uint32_t(queueNames.size());
    queueCounts.push_back(isa::queueCount(prog.chip(), unit));
  }
  return *slot - 1;
}

const Bound &LowerBounds::tightest() const {
  const Bound *best = &criticalPath;
  for (const Bound *b : {&resource, &sramBandwidth})
    if (b->cycles > best->cycles)
      best = b;
  return *best;
}

LowerBoundBuilder::LowerBoundBuilder(const isa::VerifiedProgram &prog)
    : prog(prog), unitQueue(size_t(prog.program().num_nodes()) * kQueuedUnits),
      linkQueue(prog.program().num_nodes()), sramBytes(prog.program().num_nodes()),
      chainDone(prog.program().buffers_size(), 0),
      chainHop(prog.program().buffers_size()) {
  steps.reserve(prog.program().instructions_size());
  const isa::pb::Program &p = prog.program();
  if (p.num_nodes() > 1 && p.instructions_size() > 0)
    deskew = prog.chip().topology.deskewCycles;
  // Inputs and constants are complete when the program starts; anything
  // else read before it is written also counts from the start, which is
  // all an invalid program lets us know.
  std::fill(chainDone.begin(), chainDone.end(), deskew);
}

void LowerBoundBuilder::add(const isa::pb::Instruction &inst,
                            const isa::Cost &cost) {
  const isa::pb::Program &p = prog.program();
  const isa::Opcode op = isa::opcodeOf(inst);
  const bool isSend = isa::unitOf(op) == isa::Unit::C2C;
  const uint32_t node = inst.node();
  any = true;

  // SRAM bytes (an operand listed twice is streamed once, as the simulator
  // reads it once) and the dependency chain.
  sramBytes[node] =
      addSat(sramBytes[node], isa::bytesRead(prog.chip(), p, inst));
  uint64_t start = deskew;
  uint64_t queueWork = cost.busy;
  // Elements are counted only where chaining may need them.
  const bool streamsResult = isa::streamsResult(prog.chip(), op);
  const uint32_t result = inst.result();
  chainHop[result].elements =
      streamsResult || isa::streamsOperands(prog.chip(), op)
          ? elementsOf(p.buffers(int(result)))
          : 0;
  // An operand listed twice gives the same ready cycle twice: no dedupe.
  for (uint32_t id : inst.operands()) {
    const Hop &via = chainHop[id];
    const uint64_t bytes = p.buffers(int(id)).bytes();
    uint64_t ready = chainDone[id];
    if (isSend && via.set)
      ready = isa::forwardEarliest(prog.chip(), bytes, via.issue, via.cost,
                                   cost);
    else if (chainsOperand(inst, id)) {
      const uint64_t vectors = prog.chip().vectorsFor(bytes);
      ready = std::max(deskew,
                       isa::chainEarliest(vectors, {via.issue, via.cost, true},
                                          cost, /*streamed=*/true));
      // Sharing the mesh, it holds its queue only from its producer's end
      // on: at least its last vector's share of its window.
      if (isa::fusesInMesh(prog.chip(), via.cost, cost))
        queueWork = std::min(
            queueWork, ceilDiv(cost.streaming(), std::max<uint64_t>(vectors, 1)));
    }
    start = std::max(start, ready);
  }
  const uint32_t resultNode = isSend ? inst.dst_node() : node;
  sramBytes[resultNode] =
      addSat(sramBytes[resultNode], isa::bytesWritten(p, inst));
  const uint64_t done = addSat(addSat(start, cost.busy), cost.latency);
  chainDone[result] = done;
  chainHop[result] = Hop{isSend, streamsResult, start, cost,
                         chainHop[result].elements};
  steps.push_back(
      {start, cost.busy, cost.latency, queueOf(node, inst), cost.fill,
       queueWork});
  if (longestChainEnd < 0 || done > longestChain) {
    longestChain = done;
    longestChainEnd = index;
  }
  ++index;
}

// Whether `inst` reads operand `id` chained: its producer streams its
// result and `inst` streams an operand of that size (isa::streamsOperand).
bool LowerBoundBuilder::chainsOperand(const isa::pb::Instruction &inst,
                                      uint32_t id) const {
  const Hop &via = chainHop[id];
  return via.streams &&
         isa::streamsOperand(prog.chip(), isa::opcodeOf(inst), via.elements,
                             chainHop[inst.result()].elements);
}

// Cycles from operand `id` being complete until the reader `s` has
// streamed it: its busy time, less for a send forwarding a hop's flits as
// they arrive (isa::forwardEarliest), which may finish sooner after them,
// and for a chained reader, which ends at least its last vector's share of
// its streaming window after the producer's last vector
// (docs/simulator.md, "Chaining").
uint64_t LowerBoundBuilder::readerLead(const isa::pb::Instruction &inst,
                                       uint32_t id, const Step &s) const {
  const Hop &via = chainHop[id];
  if (chainsOperand(inst, id)) {
    const uint64_t v = std::max<uint64_t>(
        prog.chip().vectorsFor(prog.program().buffers(int(id)).bytes()), 1);
    return ceilDiv(s.busy - s.fill, v);
  }
  if (!via.set || isa::unitOf(isa::opcodeOf(inst)) != isa::Unit::C2C)
    return s.busy;
  const isa::Cost next{s.busy, s.latency, s.fill};
  const uint64_t streamed =
      isa::forwardEarliest(prog.chip(), prog.program().buffers(int(id)).bytes(),
                           0, via.cost, next) +
      s.busy;
  const uint64_t complete = via.cost.done(0);
  return streamed > complete ? streamed - complete : 0;
}

LowerBounds LowerBoundBuilder::finish() const {
  LowerBounds out;
  if (!any)
    return out;
  const isa::pb::Program &p = prog.program();
  out.deskew = deskew;

  // Tails: the longest chain of latency and later work after each
  // instruction's result is complete. Readers follow their producers in a
  // valid program, so one backward pass finds them.
  std::vector<uint64_t> bufferTail(p.buffers_size(), 0);
  struct QueueWork {
    uint64_t minHead = UINT64_MAX, busy = 0, minTail = UINT64_MAX;
  };
  std::vector<QueueWork> work(queueNames.size());
  for (size_t i = steps.size(); i-- > 0;) {
    const isa::pb::Instruction &inst = p.instructions(int(i));
    const Step &s = steps[i];
    const uint64_t tail = bufferTail[inst.result()];
    const uint64_t after = addSat(s.latency, tail);
    for (uint32_t id : inst.operands())
      bufferTail[id] =
          std::max(bufferTail[id], addSat(readerLead(inst, id, s), after));
    QueueWork &q = work[s.queue];
    q.minHead = std::min(q.minHead, s.head);
    q.busy = addSat(q.busy, s.queueWork);
    q.minTail = std::min(q.minTail, after);
  }
  // The busiest queue; ties go to the queue named first.
  uint64_t best = 0;
  std::string bestName;
  size_t bestQueue = 0;
  for (size_t q = 0; q < work.size(); ++q) {
    uint64_t spread =
        ceilDiv(work[q].busy, std::max<uint32_t>(queueCounts[q], 1));
    uint64_t bound = addSat(addSat(work[q].minHead, spread), work[q].minTail);
    if (bound > best || bestName.empty() ||
        (bound == best && queueNames[q] < bestName)) {
      best = bound;
      bestName = queueNames[q];
      bestQueue = q;
    }
  }
  if (!queueBounds.empty()) {
    out.resource = queueBounds[bestQueue];
    out.resource.cycles = best;
    out.resource.what = bestName;
  }

  const uint64_t bytesPerCycle = prog.chip().sramBytesPerCycle();
  uint32_t busiestNode = 0;
  for (uint32_t node = 1; node < p.num_nodes(); ++node)
    if (sramBytes[node] > sramBytes[busiestNode])
      busiestNode = node;
  out.sramBandwidth.cycles =
      addSat(deskew, ceilDiv(sramBytes[busiestNode], bytesPerCycle));
  out.sramBandwidth.what =
      llvm::formatv("SRAM bandwidth of node {0}", busiestNode).str();
  out.sramBandwidth.kind = BoundKind::SramBandwidth;
  out.sramBandwidth.node = busiestNode;

  const isa::pb::Instruction &end = p.instructions(int(longestChainEnd));
  out.criticalPath.cycles = longestChain;
  out.criticalPath.what =
      "dependency chain ending at " + describe(end, longestChainEnd);
  out.criticalPath.kind = BoundKind::DependencyChain;
  out.criticalPath.instruction = longestChainEnd;
  return out;
}

LowerBounds lpx::sim::computeLowerBounds(const isa::VerifiedProgram &prog) {
  LowerBoundBuilder builder(prog);
  for (const isa::pb::Instruction &inst : prog.program().instructions())
    builder.add(inst, isa::instructionCost(prog.chip(), prog.program(), inst));
  return builder.finish();
}

double lpx::sim::hostTransferUs(const isa::ChipSpec &chip, uint64_t bytes) {
  if (bytes == 0)
    return 0;
  // GB/s is 1e9 bytes per second, i.e. 1e3 bytes per microsecond.
  const double perUs = chip.host.gbPerSecond * 1e3;
  return chip.host.latencyUs + (perUs > 0 ? double(bytes) / perUs : 0.0);
}
