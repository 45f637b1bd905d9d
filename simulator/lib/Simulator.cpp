//===- Simulator.cpp - Replaying a schedule against the cost model --------===//
//
// One pass over the instructions in issue order. Per queue we keep the cycle
// it becomes free, per buffer the cycle its data is complete and the cycle its
// last reader finishes, per node which buffer holds each SRAM range and which
// bank accesses are still in progress. All lookups are array indexing or
// ordered maps, so the pass is O(n log n) (plus the bank accesses in flight
// per instruction) and its output never depends on hashing or the wall clock.
// Idle cycles cost nothing: time advances from one issue cycle to the next.
//
//===----------------------------------------------------------------------===//
#include "lpx/sim/Simulator.h"
#include "Describe.h"
#include "EngineState.h"

#include "lpx/isa/Banks.h"
#include "lpx/isa/Chaining.h"
#include "lpx/isa/Opcode.h"
#include "lpx/isa/Timing.h"
#include "lpx/isa/Topology.h"
#include "lpx/isa/UnitOps.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

using namespace lpx;
using namespace lpx::sim;
using namespace lpx::sim::engine;

std::string Engine::describe(const isa::pb::Instruction &inst) const {
  return describeInstruction(inst);
}

void Engine::hazard(uint64_t index, const isa::pb::Instruction &inst,
                    const char *kind, std::string message) {
  ++result.hazardCount;
  if (result.hazards.size() >= opts.maxHazards)
    return;
  result.hazards.push_back(
      Hazard{inst.node(), index, inst.issue(), kind, std::move(message)});
}

// Whether `inst` may share the vector unit's ALU mesh with the instruction
// still holding queue `q` (docs/simulator.md, "Chaining", item 6): that
// one produces an operand `inst` streams, did not itself join another,
// and their passes fit (isa::fusesInMesh). When the vectors are read is
// readOperands' business.
bool Engine::fusesWithHolder(const isa::pb::Instruction &inst,
                             const QueueState &q, const isa::Cost &cost) const {
  if (q.lastInst == kNoInstruction || q.lastFused ||
      !isa::fusesInMesh(prog.chip(), q.lastCost, cost))
    return false;
  const uint32_t held = p.instructions(int(q.lastInst)).result();
  for (int i = 0; i < inst.operands_size(); ++i)
    if (inst.operands(i) == held &&
        isa::streamsOperand(prog.chip(), isa::opcodeOf(inst),
                            operandDescs[size_t(i)].elements(),
                            resultDesc.elements()))
      return true;
  return false;
}

void Engine::checkQueue(uint64_t index, const isa::pb::Instruction &inst,
                        QueueState &q, const isa::Cost &cost, bool isLink) {
  const uint64_t issue = inst.issue();
  const bool fused = !isLink && q.freeAt > issue &&
                     fusesWithHolder(inst, q, cost);
  if (q.freeAt > issue && !fused) {
    std::string what =
        isLink ? llvm::formatv("link {0}", inst.link()).str()
               : std::string(isa::unitName(isa::unitOf(isa::opcodeOf(inst))));
    const isa::pb::Instruction &prev = p.instructions(int(q.lastInst));
    hazard(index, inst, isLink ? "link-busy" : "unit-busy",
           llvm::formatv("{0}: {1} is busy until cycle {2} with instruction "
                         "{3}, {4}",
                         describe(inst), what, q.freeAt, q.lastInst,
                         describe(prev))
               .str());
  }
  // Count only cycles not already covered, so busy <= total even when a
  // hazard overlaps two instructions.
  uint64_t end = addSat(issue, cost.busy);
  uint64_t from = std::max(issue, q.freeAt);
  if (end > from)
    q.busy += end - from;
  q.freeAt = std::max(q.freeAt, end);
  ++q.count;
  q.lastInst = index;
  q.lastCost = cost;
  q.lastFused = fused;
}

// A send forwarding a transfer whose previous hop is still arriving: flit j
// of F leaves at issue + j*busy/F and must have fully arrived, at linkIssue
// + (j+1)*linkBusy/F + linkLatency. Both sides are linear in j, so the first
// and last flit decide; compared in units of 1/F cycle.
bool Engine::forwardsInFlight(uint64_t index, const isa::pb::Instruction &inst,
                              const BufferState &s, uint32_t id,
                              const isa::Cost &cost) {
  if (!s.overLink || !prog.chip().link.cutThrough ||
      isa::unitOf(isa::opcodeOf(inst)) != isa::Unit::C2C)
    return false;
  using Wide = unsigned __int128;
  const uint64_t flits = isa::flitCount(prog.chip(), p.buffers(int(id)).bytes());
  const Wide f = flits;
  for (uint64_t j : {uint64_t(0), flits - 1}) {
    Wide leaves = Wide(inst.issue()) * f + Wide(j) * cost.busy;
    Wide arrives = (Wide(s.producer.issue) + s.producer.cost.latency) * f +
                   Wide(j + 1) * s.producer.cost.busy;
    if (leaves < arrives) {
      hazard(index, inst, "operand-not-ready",
             llvm::formatv("{0}: forwards flit {1} of '{2}' at cycle {3}, "
                           "before it has arrived at cycle {4}",
                           describe(inst), j, nameOf(id),
                           uint64_t(leaves / f), uint64_t((arrives + f - 1) / f))
                 .str());
      break;
    }
  }
  forwarded.push_back(id);
  return true;
}

// A streaming consumer reading a streaming producer's result before its
// last vector is available (stream.chaining): vector j must be available
// when it is read (isa::firstVectorReadEarly). The vectors come off the
// stream registers, not SRAM, so the read takes no bank window.
bool Engine::readsChained(uint64_t index, const isa::pb::Instruction &inst,
                          const BufferState &s, int operand,
                          const isa::Cost &cost) {
  const isa::TensorDesc &d = operandDescs[size_t(operand)];
  if (!s.producer.streams ||
      !isa::streamsOperand(prog.chip(), isa::opcodeOf(inst), d.elements(),
                           resultDesc.elements()))
    return false;
  const uint32_t id = inst.operands(operand);
  const uint64_t vectors = prog.chip().vectorsFor(p.buffers(int(id)).bytes());
  if (std::optional<uint64_t> j = isa::firstVectorReadEarly(
          vectors, s.producer, inst.issue(), cost, /*streamed=*/true)) {
    // Times V: vector j is read at issue + fill + j S_c / V and available
    // at issue_p + latency_p + fill_p + (j + 1) S_p / V.
    const isa::Emission &e = s.producer;
    const uint64_t v = std::max<uint64_t>(vectors, 1);
    const uint64_t read = inst.issue() + cost.fill + *j * cost.streaming() / v;
    const uint64_t avail = e.issue + e.cost.latency + e.cost.fill +
                           ((*j + 1) * e.cost.streaming() + v - 1) / v;
    hazard(index, inst, "operand-not-ready",
           llvm::formatv("{0}: reads vector {1} of {2} of '{3}' at cycle {4}, "
                         "before it is available at cycle {5}",
                         describe(inst), *j, v, nameOf(id), read, avail)
               .str());
  }
  forwarded.push_back(id);
  return true;
}

void Engine::readOperands(uint64_t index, const isa::pb::Instruction &inst,
                          const isa::Cost &cost) {
  const uint64_t issue = inst.issue();
  const uint64_t readEnd = addSat(issue, cost.busy);
  forwarded.clear();
  for (int i = 0; i < inst.operands_size(); ++i) {
    uint32_t id = inst.operands(i);
    // An operand used twice (add x, x) is one read.
    bool seen = false;
    for (int j = 0; j < i && !seen; ++j)
      seen = inst.operands(j) == id;
    if (seen)
      continue;
    BufferState &s = buffers[id];
    if (s.readyAt == kNever)
      hazard(index, inst, "operand-not-ready",
             llvm::formatv("{0}: operand '{1}' is never produced",
                           describe(inst), nameOf(id))
                 .str());
    else if (s.readyAt > issue && !forwardsInFlight(index, inst, s, id, cost) &&
             !readsChained(index, inst, s, i, cost))
      hazard(index, inst, "operand-not-ready",
             llvm::formatv("{0}: operand '{1}' is not complete until cycle {2}",
                           describe(inst), nameOf(id), s.readyAt)
                 .str());
    if (s.clobbered) {
      std::string by =
          s.clobberInst == kNoInstruction
              ? llvm::formatv("preloaded '{0}'", nameOf(s.clobberedBy)).str()
              : llvm::formatv("'{0}' (instruction {1} at cycle {2})",
                              nameOf(s.clobberedBy), s.clobberInst,
                              s.clobberCycle)
                    .str();
      hazard(index, inst, "sram-overwrite",
             llvm::formatv("{0}: operand '{1}' was overwritten by {2}",
                           describe(inst), nameOf(id), by)
                 .str());
    }
    s.lastReadEnd = std::max(s.lastReadEnd, readEnd);
  }
}

void Engine::writeResult(uint64_t index, const isa::pb::Instruction &inst,
                         uint32_t node) {
  const uint64_t issue = inst.issue();
  const uint32_t id = inst.result();
  const isa::pb::Buffer &b = p.buffers(id);
  displaced.clear();
  sram[node].occupy(b.addr(), b.bytes(), id, displaced);
  for (uint32_t d : displaced) {
    if (d == id)
      continue;
    BufferState &s = buffers[d];
    std::string why;
    if (p.buffers(d).kind() == isa::pb::OUTPUT)
      why = "which the host reads after the program";
    else if (s.lastReadEnd > issue)
      why = llvm::formatv("still read until cycle {0}", s.lastReadEnd).str();
    else if (s.readyAt > issue)
      why = llvm::formatv("still being produced until cycle {0}", s.readyAt)
                .str();
    if (!why.empty())
      hazard(index, inst, "sram-overwrite",
             llvm::formatv("{0}: result '{1}' at [{2}, +{3}) overwrites '{4}' "
                           "{5}",
                           describe(inst), nameOf(id), b.addr(), b.bytes(),
                           nameOf(d), why)
                 .str());
    s.clobbered = true;
    s.clobberedBy = id;
    s.clobberInst = index;
    s.clobberCycle = issue;
  }
  buffers[id].clobbered = false; // a rewrite makes the range whole again
  buffers[id].writtenAt = std::min(buffers[id].writtenAt, issue);
}

static std::string bankText(const isa::BankRange &r) {
  if (r.first == r.last)
    return llvm::formatv("bank {0}", r.first).str();
  return llvm::formatv("banks {0}-{1}", r.first, r.last).str();
}

std::string Engine::describeAccess(const BankAccess &a) const {
  return llvm::formatv("{0} '{1}' in {2} during cycles [{3}, {4})",
                       a.write ? "writes" : "reads", nameOf(a.buffer),
                       bankText(a.banks), a.start, a.end)
      .str();
}

// Operands are read on the issuing node, the result is written on
// `resultNode` (the destination of a send). At most one hazard per
// instruction: the conflict with the earliest other instruction, else with
// its own operands.
void Engine::checkBanks(uint64_t index, const isa::pb::Instruction &inst,
                        const isa::Cost &cost, uint32_t resultNode) {
  const uint64_t issue = inst.issue();
  const uint64_t readEnd = addSat(issue, cost.busy);
  const uint32_t node = inst.node();
  reads.clear();
  for (int i = 0; i < inst.operands_size(); ++i) {
    const uint32_t id = inst.operands(i);
    bool seen = llvm::is_contained(forwarded, id); // off the link, not SRAM
    for (const BankAccess &r : reads)
      seen |= r.buffer == id;
    if (seen)
      continue;
    const isa::pb::Buffer &b = p.buffers(int(id));
    reads.push_back(BankAccess{issue, readEnd,
                               isa::banksOf(prog.chip(), b.addr(), b.bytes()),
                               index, id, /*write=*/false});
  }
  const isa::pb::Buffer &rb = p.buffers(int(inst.result()));
  const BankAccess write{issue,
                         addSat(readEnd, cost.latency),
                         isa::banksOf(prog.chip(), rb.addr(), rb.bytes()),
                         index,
                         inst.result(),
                         /*write=*/true};

  // Copies, not pointers: a later lookup on the same node may compact the
  // window list.
  std::optional<BankAccess> other, mine;
  uint32_t where = node;
  auto consider = [&](const BankAccess &a, uint32_t n) {
    const BankAccess *c = banks[n].findConflict(a, issue);
    if (c && (!other || c->instruction < other->instruction)) {
      other = *c;
      mine = a;
      where = n;
    }
  };
  for (const BankAccess &r : reads)
    consider(r, node);
  consider(write, resultNode);
  if (!other && resultNode == node)
    for (const BankAccess &r : reads)
      if (write.excludes(r)) {
        hazard(index, inst, "bank-conflict",
               llvm::formatv("{0}: {1} while it reads its own operand '{2}' "
                             "in {3} on node {4}",
                             describe(inst), describeAccess(write),
                             nameOf(r.buffer), bankText(r.banks), node)
                   .str());
        break;
      }
  if (other)
    hazard(index, inst, "bank-conflict",
           llvm::formatv("{0}: {1} while instruction {2}, {3}, {4} on node {5}",
                         describe(inst), describeAccess(*mine),
                         other->instruction,
                         describe(p.instructions(int(other->instruction))),
                         describeAccess(*other), where)
               .str());
  for (const BankAccess &r : reads)
    banks[node].add(r);
  banks[resultNode].add(write);
}

void Engine::step(uint64_t index, const isa::pb::Instruction &inst) {
  const isa::Opcode op = isa::opcodeOf(inst);
  const uint64_t issue = inst.issue();

  const isa::Cost cost = describeAndCost(inst);
  const uint64_t hazardsBefore = result.hazardCount;
  const uint64_t done = addSat(addSat(issue, cost.busy), cost.latency);

  const bool isSend = isa::unitOf(op) == isa::Unit::C2C;
  // verifyProgram checked the queue number against the chip.
  QueueState &q = isSend ? links[{inst.node(), inst.link()}]
                         : units[unitIndex(inst.node(),
                                           unitSlot(isa::unitOf(op)),
                                           inst.queue())];
  checkQueue(index, inst, q, cost, isSend);
  // Chips of a multi-chip program share a time base only after the deskew.
  const uint64_t deskew =
      p.num_nodes() > 1 ? prog.chip().topology.deskewCycles : 0;
  if (issue < deskew)
    hazard(index, inst, "before-deskew",
           llvm::formatv("{0}: issues at cycle {1}, before the chips' "
                         "counters are aligned at cycle {2}",
                         describe(inst), issue, deskew)
               .str());
  readOperands(index, inst, cost);
  if (vectors) {
    findings.clear();
    vectors->step(index, inst, findings);
    for (VectorFinding &f : findings)
      hazard(index, inst, f.kind, std::move(f.message));
  }
  const uint32_t resultNode = isSend ? inst.dst_node() : inst.node();
  checkBanks(index, inst, cost, resultNode);
  lower.add(inst, cost);

  if (isSend) {
    if (inst.arrive() != done)
      hazard(index, inst, "arrival-mismatch",
             llvm::formatv("{0}: '{1}' declared to arrive at cycle {2} but the "
                           "link delivers it at cycle {3}",
                           describe(inst), nameOf(inst.result()), inst.arrive(),
                           done)
                 .str());
    result.bytesOverLinks += p.buffers(inst.operands(0)).bytes();
  }
  BufferState &r = buffers[inst.result()];
  r.overLink = isSend;
  r.producer = isa::Emission{issue, cost, isa::streamsResult(prog.chip(), op)};
  if (isa::unitOf(op) == isa::Unit::MXM)
    result.macs += isa::multiplyAccumulates(op, operandDescs, resultDesc);
  writeResult(index, inst, resultNode);
  // The data lands when the hardware delivers it, whatever was declared.
  buffers[inst.result()].readyAt = done;
  result.totalCycles = std::max(result.totalCycles, done);
  if (opts.trace)
    recordEvent(index, inst, cost, hazardsBefore);
}

// The cost isa::instructionCost(chip, program, inst) gives, from
// descriptions kept in reused scratch vectors: the pass allocates nothing
// per instruction once they have grown.
isa::Cost Engine::describeAndCost(const isa::pb::Instruction &inst) {
  auto describe = [&](uint32_t id, isa::TensorDesc &d) {
    const isa::pb::Buffer &b = p.buffers(int(id));
    d.dtype = static_cast<isa::DType>(b.dtype());
    d.shape.assign(b.shape().begin(), b.shape().end());
  };
  operandDescs.resize(size_t(inst.operands_size()));
  for (int i = 0; i < inst.operands_size(); ++i)
    describe(inst.operands(i), operandDescs[size_t(i)]);
  describe(inst.result(), resultDesc);
  const isa::Opcode op = isa::opcodeOf(inst);
  if (op == isa::Opcode::Send)
    return isa::sendCost(
        prog.chip(), operandDescs.empty() ? 0 : operandDescs[0].bytes(),
        isa::linkRate(prog.chip(), p.num_nodes(), inst.node(), inst.link()));
  return isa::instructionCost(prog.chip(), op, operandDescs, resultDesc,
                              inst.attributes());
}

void Engine::recordEvent(uint64_t index, const isa::pb::Instruction &inst,
                         const isa::Cost &cost, uint64_t hazardsBefore) {
  const isa::Opcode op = isa::opcodeOf(inst);
  InstructionEvent e;
  e.instruction = index;
  e.node = inst.node();
  e.unit = isa::unitOf(op);
  e.queue = e.unit == isa::Unit::C2C ? inst.link() : inst.queue();
  e.issue = inst.issue();
  e.busyEnd = addSat(e.issue, cost.busy);
  e.done = addSat(e.busyEnd, cost.latency);
  e.bytesRead = isa::bytesRead(prog.chip(), p, inst);
  e.bytesWritten = isa::bytesWritten(p, inst);
  // step() described this instruction's tensors (describeAndCost).
  e.macs = isa::multiplyAccumulates(op, operandDescs, resultDesc);
  e.hazards = uint32_t(result.hazardCount - hazardsBefore);
  opts.trace->instructions.push_back(e);
}

llvm::Expected<SimResult> Engine::run() {
  if (opts.trace) {
    opts.trace->instructions.clear();
    opts.trace->instructions.reserve(size_t(p.instructions_size()));
    opts.trace->buffers.clear();
  }
  placeInitialTenants();
  for (int i = 0; i < p.instructions_size(); ++i) {
    const isa::pb::Instruction &inst = p.instructions(i);
    if (inst.issue() > opts.maxCycles)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          llvm::formatv("instruction {0}, {1} on node {2}, issues at cycle "
                        "{3}, beyond the limit of {4} cycles",
                        i, describe(inst), inst.node(), inst.issue(),
                        opts.maxCycles)
              .str());
    step(uint64_t(i), inst);
  }
  result.instructions = uint64_t(p.instructions_size());
  result.seconds = double(result.totalCycles) / (prog.chip().clockMHz * 1e6);
  const double peak = double(isa::mxmPeakMacsPerCycle(prog.chip())) *
                      double(p.num_nodes()) * double(result.totalCycles);
  result.mxmUtilisation = peak == 0 ? 0.0 : double(result.macs) / peak;
  result.queues = collectQueues();
  finishBoundsAndHostIo();
  if (opts.trace)
    recordLifetimes();
  return std::move(result);
}

llvm::Expected<SimResult> lpx::sim::simulate(const isa::VerifiedProgram &prog,
                                             const SimOptions &opts) {
  Engine engine(prog, opts);
  return engine.run();
}
