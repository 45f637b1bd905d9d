//===- EngineState.h - The simulator's state while it replays ---*- C++ -*-===//
//
// The replay engine of Simulator.cpp: per queue the cycle it becomes free,
// per buffer the cycle its data is complete and its last reader finishes,
// per node its SRAM tenants and bank accesses in flight. Private to the
// simulator library (Simulator.cpp replays; EngineSummary.cpp sets up what
// is in SRAM before cycle 0 and summarises the run after the last).
//
//===----------------------------------------------------------------------===//
#ifndef LPX_SIM_ENGINESTATE_H
#define LPX_SIM_ENGINESTATE_H

#include "BankWindows.h"
#include "SramOccupancy.h"
#include "VectorCheck.h"

#include "lpx/isa/Chaining.h"
#include "lpx/isa/Timing.h"
#include "lpx/isa/UnitOps.h"
#include "lpx/sim/Simulator.h"

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

namespace lpx::sim::engine {

constexpr uint64_t kNever = UINT64_MAX;
constexpr uint64_t kNoInstruction = UINT64_MAX;
// Unit queues reported per node, in name order: mem, mxm, sxm, vxm.
constexpr isa::Unit kUnitsByName[] = {isa::Unit::MEM, isa::Unit::MXM,
                                      isa::Unit::SXM, isa::Unit::VXM};
constexpr unsigned kQueuedUnits = 4;

inline uint64_t addSat(uint64_t a, uint64_t b) {
  return a + b < a ? UINT64_MAX : a + b;
}

struct QueueState {
  uint64_t freeAt = 0; // first cycle the queue can start another one
  uint64_t busy = 0;   // union of occupied cycles
  uint64_t count = 0;
  uint64_t lastInst = kNoInstruction;
  isa::Cost lastCost;
  bool lastFused = false; // the last one shares the ALU mesh with its producer
};

struct BufferState {
  uint64_t readyAt = kNever; // data complete; kNever = never produced
  uint64_t writtenAt = kNever; // issue of its producer; 0 when preloaded
  uint64_t lastReadEnd = 0;  // latest issue + busy of a reader
  // Set when another buffer took part of this one's SRAM range.
  bool clobbered = false;
  uint32_t clobberedBy = 0;
  uint64_t clobberInst = kNoInstruction; // kNoInstruction: before cycle 0
  uint64_t clobberCycle = 0;
  // Its producer's issue and cost: a send forwarding it checks each flit
  // had arrived (link.cut_through, overLink), a chained reader each vector
  // (stream.chaining, producer.streams).
  bool overLink = false;
  isa::Emission producer;
};

inline unsigned unitSlot(isa::Unit u) {
  for (unsigned i = 0; i < kQueuedUnits; ++i)
    if (kUnitsByName[i] == u)
      return i;
  return 0;
}

inline uint32_t maxQueueCount(const isa::ChipSpec &chip) {
  uint32_t n = 1;
  for (isa::Unit u : kUnitsByName)
    n = std::max(n, isa::queueCount(chip, u));
  return n;
}

class Engine {
public:
  Engine(const isa::VerifiedProgram &prog, const SimOptions &opts)
      : prog(prog), p(prog.program()), opts(opts),
        maxQueues(maxQueueCount(prog.chip())),
        units(size_t(p.num_nodes()) * kQueuedUnits * maxQueues),
        buffers(p.buffers_size()),
        sram(p.num_nodes()), banks(p.num_nodes()), lower(prog) {
    if (opts.vectorCheck)
      vectors.emplace(prog);
  }

  llvm::Expected<SimResult> run();

private:
  void placeInitialTenants();
  void step(uint64_t index, const isa::pb::Instruction &inst);
  void checkQueue(uint64_t index, const isa::pb::Instruction &inst,
                  QueueState &q, const isa::Cost &cost, bool isLink);
  bool fusesWithHolder(const isa::pb::Instruction &inst, const QueueState &q,
                       const isa::Cost &cost) const;
  void readOperands(uint64_t index, const isa::pb::Instruction &inst,
                    const isa::Cost &cost);
  bool forwardsInFlight(uint64_t index, const isa::pb::Instruction &inst,
                        const BufferState &s, uint32_t id,
                        const isa::Cost &cost);
  bool readsChained(uint64_t index, const isa::pb::Instruction &inst,
                    const BufferState &s, int operand, const isa::Cost &cost);
  void writeResult(uint64_t index, const isa::pb::Instruction &inst,
                   uint32_t node);
  void checkBanks(uint64_t index, const isa::pb::Instruction &inst,
                  const isa::Cost &cost, uint32_t resultNode);
  std::string describeAccess(const BankAccess &a) const;
  void finishBoundsAndHostIo();
  void recordEvent(uint64_t index, const isa::pb::Instruction &inst,
                   const isa::Cost &cost, uint64_t hazardsBefore);
  void recordLifetimes();
  isa::Cost describeAndCost(const isa::pb::Instruction &inst);
  void hazard(uint64_t index, const isa::pb::Instruction &inst,
              const char *kind, std::string message);
  std::string describe(const isa::pb::Instruction &inst) const;
  const std::string &nameOf(uint32_t buffer) const {
    return p.buffers(buffer).name();
  }
  std::vector<QueueStats> collectQueues() const;

  const isa::VerifiedProgram &prog;
  const isa::pb::Program &p;
  const SimOptions &opts;
  SimResult result;
  const uint32_t maxQueues;       // of any unit
  std::vector<QueueState> units; // (node * kQueuedUnits + slot) * maxQueues + q
  size_t unitIndex(uint32_t node, unsigned slot, uint32_t queue) const {
    return (size_t(node) * kQueuedUnits + slot) * maxQueues + queue;
  }
  std::map<std::pair<uint32_t, uint32_t>, QueueState> links; // (node, link)
  std::vector<BufferState> buffers;
  std::vector<SramOccupancy> sram; // per node
  std::vector<BankWindows> banks;  // per node
  LowerBoundBuilder lower;
  // The second, vector-granular opinion (VectorCheck.h); unset when
  // SimOptions::vectorCheck is off.
  std::optional<VectorCheck> vectors;
  llvm::SmallVector<VectorFinding, 3> findings; // scratch for step
  llvm::SmallVector<uint32_t, 8> displaced; // scratch for writeResult
  llvm::SmallVector<BankAccess, 4> reads;   // scratch for checkBanks
  // Operands of the current send taken off an arriving link rather than
  // from SRAM (cut-through); readOperands fills it, checkBanks skips them.
  llvm::SmallVector<uint32_t, 2> forwarded;
  // The current instruction's tensors (describeAndCost).
  std::vector<isa::TensorDesc> operandDescs;
  isa::TensorDesc resultDesc;
};

} // namespace lpx::sim::engine

#endif
