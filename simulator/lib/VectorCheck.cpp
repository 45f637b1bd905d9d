//===- VectorCheck.cpp - A second, vector-granular opinion on a schedule --===//
//
// Times are compared in closed form over stream segments. A plan streams
// its N units evenly over its span, so unit i passes at issue + i*span/N and
// lands at issue + depth + (i+1)*span/N: linear in i. A reader in step with
// its producer therefore meets it first or last, and comparing the first
// and the last unit (exactly, in fractions of a cycle) covers all of them.
// SRAM ports are checked per bank: the units of a buffer in one bank are a
// contiguous run, so each (access, bank) is one time segment.
//
//===----------------------------------------------------------------------===//
#include "VectorCheck.h"
#include "Describe.h"

#include "lpx/isa/Banks.h"
#include "lpx/isa/Opcode.h"
#include "lpx/isa/Topology.h"
#include "lpx/isa/UnitOps.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace lpx;
using namespace lpx::sim;

namespace {

using Wide = unsigned __int128;

uint64_t divUp(uint64_t a, uint64_t b) { return b == 0 ? a : (a + b - 1) / b; }

uint64_t unitsOf(uint64_t bytes, uint64_t unitBytes) {
  return std::max<uint64_t>(divUp(bytes, unitBytes), 1);
}

constexpr isa::Unit kQueuedUnits[] = {isa::Unit::MEM, isa::Unit::VXM,
                                      isa::Unit::MXM, isa::Unit::SXM};
constexpr unsigned kUnits = 4;

} // namespace

VectorCheck::VectorCheck(const isa::VerifiedProgram &prog)
    : prog(prog), p(prog.program()), landings(size_t(p.buffers_size())),
      ports(p.num_nodes()) {
  for (isa::Unit u : kQueuedUnits)
    maxQueues = std::max(maxQueues, isa::queueCount(prog.chip(), u));
  queueStride = kUnits * maxQueues + isa::linksPerChip(prog.chip());
  queues.resize(size_t(p.num_nodes()) * queueStride);
  // Inputs, weights and resident state are whole in SRAM at cycle 0.
  for (int id = 0; id < p.buffers_size(); ++id) {
    const isa::pb::BufferKind k = p.buffers(id).kind();
    if (k == isa::pb::INPUT || k == isa::pb::CONSTANT || k == isa::pb::STATE) {
      Landing &l = landings[size_t(id)];
      l.known = true;
      l.plan.span = 0;
      l.producer = UINT64_MAX;
    }
  }
}

// Which operands are read unit by unit as their producer streams them: with
// stream.chaining, an elementwise reader of a streaming producer's result
// (docs/simulator.md, "Chaining"); with link.cut_through, a send forwarding
// a transfer flit by flit. Any other read needs the whole operand.
bool VectorCheck::readsInStep(const isa::pb::Instruction &inst,
                              const VectorPlan &plan, uint32_t operand) const {
  const Landing &l = landings[operand];
  if (!l.plan.streamsResult)
    return false;
  if (isa::unitOf(isa::opcodeOf(inst)) == isa::Unit::C2C)
    return l.overLink && prog.chip().link.cutThrough;
  // Without stream.chaining every instruction reads whole operands.
  return prog.chip().stream.chaining && !l.overLink &&
         readsOperandInStep(p, inst, plan, operand);
}

// A read in step that starts before the producer has finished takes the
// units off the stream registers (or the arriving link), not from SRAM.
bool VectorCheck::readsOffStream(const isa::pb::Instruction &inst,
                                 const VectorPlan &plan,
                                 uint32_t operand) const {
  return readsInStep(inst, plan, operand) &&
         landings[operand].done() > inst.issue();
}

void VectorCheck::checkReady(uint64_t index, const isa::pb::Instruction &inst,
                             const VectorPlan &plan,
                             llvm::SmallVectorImpl<VectorFinding> &out) {
  (void)index;
  const uint64_t tc = inst.issue();
  const bool isSend = isa::unitOf(isa::opcodeOf(inst)) == isa::Unit::C2C;
  for (int k = 0; k < inst.operands_size(); ++k) {
    const uint32_t id = inst.operands(k);
    const Landing &l = landings[id];
    if (!l.known) // never produced: the simulator's own check says so
      continue;
    const std::string &name = p.buffers(int(id)).name();
    const char *lands = l.overLink ? "arrives over its link" : "lands in SRAM";
    // Messages are built only for a finding: this loop runs for every read.
    auto by = [&] {
      return l.producer == UINT64_MAX
                 ? std::string()
                 : llvm::formatv(" (instruction {0})", l.producer).str();
    };
    if (!readsInStep(inst, plan, id)) {
      if (tc < l.done()) {
        out.push_back(
            {"vector-not-ready",
             llvm::formatv("{0}: reads '{1}' from cycle {2}, but its last "
                           "vector {3} only at cycle {4}{5}",
                           describeInstruction(inst), name, tc, lands,
                           l.done(), by())
                 .str()});
        return;
      }
      continue;
    }
    // Reader unit i of nc passes at tc + i*sc/nc and needs the producer's
    // units up to the byte its own ends at; producer unit u of np lands at
    // tp + dp + fp + (u+1)*(sp-fp)/np. Compared scaled by nc*np.
    const uint64_t bytes = p.buffers(int(id)).bytes();
    const uint64_t gc = plan.unitBytes, gp = l.plan.unitBytes;
    const uint64_t nc = unitsOf(bytes, gc), np = unitsOf(bytes, gp);
    for (uint64_t i : {uint64_t(0), nc - 1}) {
      const uint64_t needed = divUp(std::min((i + 1) * gc, bytes), gp);
      const Wide reads = (Wide(tc) * nc + Wide(i) * plan.span) * np;
      const Wide landsAt = ((Wide(l.issue) + l.plan.depth + l.plan.fill) * np +
                            Wide(needed) * (l.plan.span - l.plan.fill)) *
                           nc;
      if (reads < landsAt) {
        const Wide scale = Wide(nc) * np;
        out.push_back(
            {"vector-not-ready",
             llvm::formatv("{0}: reads {1} {2} of '{3}' at cycle {4}, before "
                           "it {5} at cycle {6}{7}",
                           describeInstruction(inst),
                           isSend ? "flit" : "vector", i, name,
                           uint64_t(reads / scale), lands,
                           uint64_t((landsAt + scale - 1) / scale), by())
                 .str()});
        return;
      }
    }
  }
}

void VectorCheck::checkStreams(uint64_t index, const isa::pb::Instruction &inst,
                               const VectorPlan &plan,
                               llvm::SmallVectorImpl<VectorFinding> &out) {
  const isa::Unit unit = isa::unitOf(isa::opcodeOf(inst));
  const bool isSend = unit == isa::Unit::C2C;
  // The verifier checked the queue and link numbers against the chip.
  QueueUse &q =
      queues[size_t(inst.node()) * queueStride +
             (isSend ? kUnits * maxQueues + inst.link()
                     : unsigned(unit) * maxQueues + inst.queue())];
  const uint64_t issue = inst.issue();
  if (q.freeAt > issue && sharesMesh(inst, plan, q)) {
    q.freeAt = std::max(q.freeAt, issue + plan.span);
    q.instruction = index;
    q.passes = plan.passes;
    q.paired = true;
    return;
  }
  if (q.freeAt > issue) {
    std::string what =
        isSend ? llvm::formatv("link {0}", inst.link()).str()
               : llvm::formatv("{0} queue {1}", isa::unitName(unit),
                               inst.queue())
                     .str();
    out.push_back(
        {"stream-conflict",
         llvm::formatv("{0}: streams on {1} of node {2} from cycle {3}, which "
                       "carries the vectors of instruction {4}, {5}, until "
                       "cycle {6}",
                       describeInstruction(inst), what, inst.node(), issue,
                       q.instruction,
                       describeInstruction(p.instructions(int(q.instruction))),
                       q.freeAt)
             .str()});
  }
  q.freeAt = std::max(q.freeAt, issue + plan.span);
  q.instruction = index;
  q.passes = plan.passes;
  q.paired = false;
}

// Two vector operations in the ALU mesh (docs/simulator.md, "Chaining",
// item 6): one reading the queue holder's result in step may join it when
// their passes together fit each lane's ALUs at the queue's rate; a pair
// at most.
bool VectorCheck::sharesMesh(const isa::pb::Instruction &inst,
                             const VectorPlan &plan, const QueueUse &q) const {
  const isa::ChipSpec &chip = prog.chip();
  if (q.paired || !plan.readsInStep ||
      isa::unitOf(isa::opcodeOf(inst)) != isa::Unit::VXM)
    return false;
  const isa::pb::Instruction &holder = p.instructions(int(q.instruction));
  const VectorPlan &held = landings[holder.result()].plan;
  if (!held.readsInStep || landings[holder.result()].producer != q.instruction ||
      (q.passes + plan.passes) * chip.vxm.vectorsPerCycle >
          chip.vxm.alusPerLane)
    return false;
  for (uint32_t id : inst.operands())
    if (id == holder.result() && readsInStep(inst, plan, id))
      return true;
  return false;
}

// One segment per bank the buffer touches. Unit i of n is read in cycle
// issue + floor(i*span/n) and written in the cycle before it lands, issue +
// depth + fill + ceil((i+1)*(span-fill)/n) - 1; a state write lands somewhere in its
// state (the position is known at run time only), so it holds all of the
// state's banks while it writes.
void VectorCheck::addSegments(uint64_t index, uint32_t buffer, bool write,
                              uint64_t issue, const VectorPlan &plan,
                              uint64_t whole) {
  const isa::pb::Buffer &b = p.buffers(int(buffer));
  const uint32_t node =
      write && isa::opcodeOf(p.instructions(int(index))) == isa::Opcode::Send
          ? p.instructions(int(index)).dst_node()
          : b.node();
  const isa::BankRange banks = isa::banksOf(prog.chip(), b.addr(), b.bytes());
  if (banks.empty())
    return;
  const uint64_t bankBytes = isa::bankBytes(prog.chip());
  const uint64_t g = plan.unitBytes, n = unitsOf(b.bytes(), g);
  auto passes = [&](uint64_t i) {
    return issue + uint64_t(Wide(i) * plan.span / n);
  };
  auto lands = [&](uint64_t i) {
    return issue + plan.depth + plan.fill +
           uint64_t((Wide(i + 1) * (plan.span - plan.fill) + n - 1) / n);
  };
  for (uint64_t bank = banks.first; bank <= banks.last; ++bank) {
    BankAccess s;
    s.banks = {bank, bank};
    s.instruction = index;
    s.buffer = buffer;
    s.write = write;
    if (whole) {
      s.start = issue + plan.depth;
      s.end = whole;
    } else {
      const uint64_t lo = std::max<uint64_t>(b.addr(), bank * bankBytes);
      const uint64_t hi = std::min<uint64_t>(b.addr() + b.bytes(),
                                             (bank + 1) * bankBytes);
      const uint64_t i0 = (lo - b.addr()) / g, i1 = (hi - 1 - b.addr()) / g;
      s.start = write ? lands(i0) - 1 : passes(i0);
      s.end = write ? lands(i1) : passes(i1) + 1;
    }
    segments.push_back(s);
    segmentNodes.push_back(node);
  }
}

void VectorCheck::checkPorts(uint64_t index, const isa::pb::Instruction &inst,
                             const VectorPlan &plan,
                             llvm::SmallVectorImpl<VectorFinding> &out) {
  const uint64_t issue = inst.issue();
  segments.clear();
  segmentNodes.clear();
  for (int k = 0; k < inst.operands_size(); ++k) {
    const uint32_t id = inst.operands(k);
    bool seen = readsOffStream(inst, plan, id);
    for (int j = 0; j < k && !seen; ++j)
      seen = inst.operands(j) == id;
    if (!seen)
      addSegments(index, id, /*write=*/false, issue, plan, 0);
  }
  const bool stateWrite = isa::opcodeOf(inst) == isa::Opcode::StateWrite;
  addSegments(index, inst.result(), /*write=*/true, issue, plan,
              stateWrite ? issue + plan.span + plan.depth : 0);

  const BankAccess *hit = nullptr, *mine = nullptr;
  uint32_t where = 0;
  BankAccess other;
  for (size_t s = 0; s < segments.size() && !hit; ++s) {
    // Against earlier instructions, then against this one's own segments.
    hit = ports[segmentNodes[s]].findConflict(segments[s], issue);
    if (hit)
      other = *hit;
    for (size_t t = 0; t < s && !hit; ++t)
      if (segmentNodes[t] == segmentNodes[s] &&
          segments[s].excludes(segments[t]) &&
          segments[s].start < segments[t].end &&
          segments[t].start < segments[s].end)
        other = segments[t], hit = &other;
    if (hit)
      mine = &segments[s], where = segmentNodes[s];
  }
  if (hit) {
    const uint64_t at = std::max(mine->start, other.start);
    auto verb = [](const BankAccess &a) { return a.write ? "writes" : "reads"; };
    out.push_back(
        {"sram-port-conflict",
         llvm::formatv("{0}: {1} '{2}' in bank {3} of node {4} at cycle {5}, "
                       "while instruction {6} {7} '{8}' there during cycles "
                       "[{9}, {10})",
                       describeInstruction(inst), verb(*mine),
                       p.buffers(int(mine->buffer)).name(), mine->banks.first,
                       where, at, other.instruction, verb(other),
                       p.buffers(int(other.buffer)).name(), other.start,
                       other.end)
             .str()});
  }
  for (size_t s = 0; s < segments.size(); ++s)
    ports[segmentNodes[s]].add(segments[s]);
}

void VectorCheck::step(uint64_t index, const isa::pb::Instruction &inst,
                       llvm::SmallVectorImpl<VectorFinding> &out) {
  const VectorPlan plan = planInstruction(prog.chip(), p, inst);
  checkReady(index, inst, plan, out);
  checkStreams(index, inst, plan, out);
  checkPorts(index, inst, plan, out);
  Landing &l = landings[inst.result()];
  l.known = true;
  l.producer = index;
  l.issue = inst.issue();
  l.plan = plan;
  l.overLink = isa::opcodeOf(inst) == isa::Opcode::Send;
}
