//===- SimBench.cpp - How fast the simulator replays large programs -------===//
//
// Builds large synthetic programs in memory and times simulate() on them:
// simulated instructions per second and simulated chip-cycles (cycles x
// nodes) per second of wall time, plus the process's peak resident memory.
//
// Each node runs a chain of VXM and MXM instructions over a ring of buffers,
// one SRAM bank per buffer, and every fourth step sends its latest value to
// the next node along isa::route (one to three hops, local and global links);
// the receiver folds it in with an add. Issue cycles come from a small list
// scheduler over the same cost model, and a ring slot is rewritten only after
// its previous tenant's readers have finished, so the programs are valid:
// they verify and simulate without hazards, which the benchmark checks.
//
// Two programs with the same instruction count but idle gaps of 0 and of a
// million cycles before every instruction show that the simulator's cost is
// per instruction, not per cycle.
//
// Usage: lpx-sim-bench [instructions] [nodes] [out.lpxb] [--no-vector-check]
// (the flag, last, times the replay checks alone)
//        (default 1000000 64; out.lpxb: also write the program without
//        gaps, e.g. to time `lpx simulate --trace/--report` on it)
//
//===----------------------------------------------------------------------===//
#include "lpx/isa/Banks.h"
#include "lpx/isa/Program.h"
#include "lpx/isa/Topology.h"
#include "lpx/sim/Simulator.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

using namespace lpx;

namespace {

constexpr uint32_t kRingSlots = 128; // buffers per node, one bank each
constexpr int64_t kWidth = 320;      // every value is a 1x320 f32 tensor
constexpr unsigned kUnits = isa::kNumUnits;

struct Slot {
  uint32_t buffer = 0;
  uint64_t writeEnd = 0;    // the last tenant is complete
  uint64_t lastReadEnd = 0; // its readers have finished streaming it
};

struct NodeState {
  std::vector<Slot> ring;
  uint32_t next = 0; // next ring slot to hand out
  uint32_t input = 0, weight = 0;
  int64_t current = -1; // ring slot holding the chain's latest value
  int64_t inbox = -1;   // ring slot holding a value received from a peer
  uint64_t steps = 0;
  uint64_t unitFree[kUnits] = {};
  std::vector<uint64_t> linkFree;
};

class Generator {
public:
  Generator(const isa::ChipSpec &chip, uint32_t nodes, uint64_t gap)
      : chip(chip), numNodes(nodes), gap(gap),
        start(nodes > 1 ? chip.topology.deskewCycles : 0) {}

  isa::pb::Program build(uint64_t instructions);

private:
  uint32_t addBuffer(uint32_t node, uint64_t bank, std::vector<int64_t> shape,
                     isa::pb::BufferKind kind);
  uint32_t allocate(uint32_t node);
  uint64_t readyOf(uint32_t node, uint32_t slot) const {
    return nodes[node].ring[slot].writeEnd;
  }
  void emit(isa::pb::Instruction inst, uint32_t node, uint64_t ready,
            std::vector<uint32_t> readSlots, uint32_t resultNode,
            uint32_t resultSlot);
  void stepNode(uint32_t node);

  const isa::ChipSpec &chip;
  const uint32_t numNodes;
  const uint64_t gap;
  const uint64_t start;
  isa::pb::Program program;
  std::vector<NodeState> nodes;
  std::vector<isa::pb::Instruction> out;
};

uint32_t Generator::addBuffer(uint32_t node, uint64_t bank,
                              std::vector<int64_t> shape,
                              isa::pb::BufferKind kind) {
  isa::pb::Buffer *b = program.add_buffers();
  b->set_name(llvm::formatv("n{0}.b{1}", node, bank).str());
  b->set_node(node);
  b->set_addr(bank * isa::bankBytes(chip));
  b->set_dtype(uint32_t(isa::DType::F32));
  uint64_t elems = 1;
  for (int64_t d : shape) {
    b->add_shape(d);
    elems *= uint64_t(d);
  }
  b->set_bytes(elems * 4);
  b->set_kind(kind);
  return uint32_t(program.buffers_size() - 1);
}

// The next ring slot that holds neither the chain's value nor an unread
// received one.
uint32_t Generator::allocate(uint32_t node) {
  NodeState &n = nodes[node];
  for (;;) {
    uint32_t s = n.next;
    n.next = (n.next + 1) % kRingSlots;
    if (int64_t(s) != n.current && int64_t(s) != n.inbox)
      return s;
  }
}

// Issues `inst` at the first cycle (plus the idle gap) at which its operands
// are complete, its queue is free and its result slot's previous tenant is
// no longer read or written: the same rule as the compiler's scheduler.
void Generator::emit(isa::pb::Instruction inst, uint32_t node, uint64_t ready,
                     std::vector<uint32_t> readSlots, uint32_t resultNode,
                     uint32_t resultSlot) {
  const isa::Cost cost = isa::instructionCost(chip, program, inst);
  const bool isSend = isa::opcodeOf(inst) == isa::Opcode::Send;
  NodeState &n = nodes[node];
  uint64_t &queue =
      isSend ? n.linkFree[inst.link()]
             : n.unitFree[unsigned(isa::unitOf(isa::opcodeOf(inst)))];
  Slot &result = nodes[resultNode].ring[resultSlot];
  uint64_t issue =
      std::max({start, ready, queue, result.writeEnd, result.lastReadEnd}) +
      gap;
  inst.set_issue(issue);
  const uint64_t readEnd = issue + cost.busy;
  const uint64_t done = readEnd + cost.latency;
  if (isSend)
    inst.set_arrive(done);
  queue = readEnd;
  for (uint32_t s : readSlots)
    n.ring[s].lastReadEnd = std::max(n.ring[s].lastReadEnd, readEnd);
  result.writeEnd = done;
  out.push_back(std::move(inst));
}

void Generator::stepNode(uint32_t node) {
  NodeState &n = nodes[node];
  const uint64_t step = n.steps++;
  const uint32_t cur = uint32_t(n.current);
  auto make = [&](isa::Opcode op, std::vector<uint32_t> operands,
                  uint32_t result) {
    isa::pb::Instruction inst;
    inst.set_opcode(uint32_t(op));
    inst.set_node(node);
    for (uint32_t id : operands)
      inst.add_operands(id);
    inst.set_result(result);
    return inst;
  };

  if (step % 4 == 3 && numNodes > 1) {
    // Send the chain's value to the next node, hop by hop.
    const uint32_t dst = (node + 1) % numNodes;
    uint32_t at = node, slot = cur;
    for (const isa::Hop &hop : isa::route(chip, numNodes, node, dst)) {
      uint32_t landed = allocate(hop.to);
      isa::pb::Instruction inst =
          make(isa::Opcode::Send, {nodes[at].ring[slot].buffer},
               nodes[hop.to].ring[landed].buffer);
      inst.set_node(hop.from);
      inst.set_dst_node(hop.to);
      inst.set_link(hop.link);
      emit(std::move(inst), hop.from, readyOf(at, slot), {slot}, hop.to,
           landed);
      at = hop.to;
      slot = landed;
    }
    nodes[dst].inbox = slot;
    return;
  }

  const uint32_t res = allocate(node);
  const uint32_t resBuf = n.ring[res].buffer;
  const uint32_t curBuf = n.ring[cur].buffer;
  if (step % 2 == 1) {
    // Chain value times the node's weights on the MXM.
    emit(make(isa::Opcode::MatMul, {curBuf, n.weight}, resBuf), node,
         readyOf(node, cur), {cur}, node, res);
  } else if (n.inbox >= 0) {
    // Fold in what a peer sent.
    const uint32_t in = uint32_t(n.inbox);
    emit(make(isa::Opcode::Add, {curBuf, n.ring[in].buffer}, resBuf), node,
         std::max(readyOf(node, cur), readyOf(node, in)), {cur, in}, node, res);
    n.inbox = -1;
  } else {
    emit(make(isa::Opcode::Add, {curBuf, n.input}, resBuf), node,
         readyOf(node, cur), {cur}, node, res);
  }
  n.current = res;
}

isa::pb::Program Generator::build(uint64_t instructions) {
  program.set_producer("lpx-sim-bench");
  program.set_source_model("synthetic");
  program.set_chip_yaml(isa::printChipSpec(chip));
  program.set_chip_hash(isa::hashText(program.chip_yaml()));
  program.set_num_nodes(numNodes);

  nodes.resize(numNodes);
  for (uint32_t node = 0; node < numNodes; ++node) {
    NodeState &n = nodes[node];
    n.ring.resize(kRingSlots);
    for (uint32_t s = 0; s < kRingSlots; ++s)
      n.ring[s].buffer = addBuffer(node, s, {1, kWidth},
                                   s == 0 ? isa::pb::INPUT : isa::pb::TEMP);
    // Slot 0 starts as the chain's value; it is an input, there at cycle 0.
    n.current = 0;
    n.next = 1;
    n.input = addBuffer(node, kRingSlots, {1, kWidth}, isa::pb::INPUT);
    n.weight =
        addBuffer(node, kRingSlots + 1, {kWidth, kWidth}, isa::pb::CONSTANT);
    n.linkFree.assign(isa::linksPerChip(chip), 0);
    std::fill(std::begin(n.unitFree), std::end(n.unitFree), 0);
  }

  out.reserve(instructions + 4);
  while (out.size() < instructions)
    for (uint32_t node = 0; node < numNodes && out.size() < instructions;
         ++node)
      stepNode(node);

  std::stable_sort(
      out.begin(), out.end(),
      [](const isa::pb::Instruction &a, const isa::pb::Instruction &b) {
        return a.issue() < b.issue();
      });
  program.mutable_instructions()->Reserve(int(out.size()));
  for (isa::pb::Instruction &inst : out)
    *program.add_instructions() = std::move(inst);
  out.clear();
  out.shrink_to_fit();

  return std::move(program);
}

// A field of /proc/self/status in KiB: "VmHWM" (peak resident set) or
// "VmRSS" (current).
uint64_t statusKiB(const std::string &key) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind(key + ":", 0) == 0)
      return std::strtoull(line.c_str() + key.size() + 1, nullptr, 10);
  return 0;
}

bool runOne(const isa::ChipSpec &chip, uint32_t nodes, uint64_t count,
            uint64_t gap, const char *writeTo, const sim::SimOptions &opts) {
  using Clock = std::chrono::steady_clock;
  auto t0 = Clock::now();
  isa::pb::Program generated = Generator(chip, nodes, gap).build(count);
  auto t1 = Clock::now();
  if (writeTo)
    if (llvm::Error e = isa::writeProgramFile(generated, {}, writeTo)) {
      llvm::errs() << "lpx-sim-bench: " << llvm::toString(std::move(e))
                   << "\n";
      return false;
    }
  const uint64_t programKiB = statusKiB("VmRSS");
  auto verified = isa::VerifiedProgram::verify(std::move(generated), chip);
  if (!verified) {
    llvm::errs() << "lpx-sim-bench: generated program does not verify: "
                 << llvm::toString(verified.takeError()) << "\n";
    return false;
  }
  const isa::VerifiedProgram &prog = *verified;

  // Best of five runs, so a busy machine does not set the figure.
  double best = 1e300;
  sim::SimResult result;
  for (int rep = 0; rep < 5; ++rep) {
    auto s0 = Clock::now();
    auto r = sim::simulate(prog, opts);
    auto s1 = Clock::now();
    if (!r) {
      llvm::errs() << "lpx-sim-bench: " << llvm::toString(r.takeError())
                   << "\n";
      return false;
    }
    best = std::min(best, std::chrono::duration<double>(s1 - s0).count());
    result = std::move(*r);
  }
  const double chipCycles = double(result.totalCycles) * nodes;
  llvm::outs() << llvm::formatv(
      "gap {0,8} | {1,8} instructions, {2,3} nodes | {3,14} cycles | "
      "build {4:f2} s | simulate {5:f3} s | {6:f2} M instr/s | {7:e} "
      "chip-cycles/s | hazards {8} | efficiency {9:f2} | RSS with program {10} "
      "MiB, peak {11} MiB\n",
      gap, result.instructions, nodes, result.totalCycles,
      std::chrono::duration<double>(t1 - t0).count(), best,
      double(result.instructions) / best / 1e6, chipCycles / best,
      result.hazardCount, result.efficiency, programKiB / 1024,
      statusKiB("VmHWM") / 1024);
  if (result.hazardCount != 0) {
    llvm::errs() << "lpx-sim-bench: the synthetic program has hazards; first: "
                 << result.hazards.front().kind << ": "
                 << result.hazards.front().message << "\n";
    return false;
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  // --no-vector-check (last): time the replay checks alone.
  sim::SimOptions opts;
  if (argc > 1 && llvm::StringRef(argv[argc - 1]) == "--no-vector-check")
    opts.vectorCheck = false, --argc;
  uint64_t count = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
  uint32_t nodes = argc > 2 ? uint32_t(std::strtoul(argv[2], nullptr, 10)) : 64;
  auto chip = isa::loadChipSpec("tsp-v1");
  if (!chip) {
    llvm::errs() << "lpx-sim-bench: " << llvm::toString(chip.takeError())
                 << "\n";
    return 1;
  }
  if (auto why = isa::checkChipCount(*chip, nodes)) {
    llvm::errs() << "lpx-sim-bench: " << *why << "\n";
    return 1;
  }
  llvm::outs() << llvm::formatv("chip {0}, best of 5 simulate() runs\n",
                                chip->name);
  bool ok = true;
  for (uint64_t gap : {uint64_t(0), uint64_t(1000000)})
    ok &= runOne(*chip, nodes, count, gap,
                 gap == 0 && argc > 3 ? argv[3] : nullptr, opts);
  return ok ? 0 : 1;
}
