//===- VectorCheck.h - A second, vector-granular opinion on a schedule -*- C++ -*-===//
//
// The simulator's other checks replay the schedule against the cost model
// the scheduler used, so an error in that model can never show. This check
// times every instruction with its own model (VectorTiming.h) and verifies,
// per vector or flit (in closed form over each stream segment, so its cost
// does not grow with the vectors):
//
//  - `vector-not-ready`: no instruction reads a vector before its producer
//    wrote it to SRAM or before it arrived over a link;
//  - `stream-conflict`: no queue's stream ports (or link) carry the vectors
//    of two instructions in one cycle;
//  - `sram-port-conflict`: no SRAM bank is written in a cycle in which
//    another vector is read from it or written to it.
//
// docs/simulator.md, "The vector check", has the rules and a worked example.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_SIM_VECTORCHECK_H
#define LPX_SIM_VECTORCHECK_H

#include "BankWindows.h"
#include "VectorTiming.h"

#include "lpx/isa/Program.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <string>
#include <vector>

namespace lpx::sim {

/// What the check found at one instruction.
struct VectorFinding {
  const char *kind; // "vector-not-ready", "stream-conflict", "sram-port-conflict"
  std::string message;
};

class VectorCheck {
public:
  explicit VectorCheck(const isa::VerifiedProgram &prog);

  /// Checks instruction `index` (instructions come in issue order) against
  /// those before it, then records its streams. Appends at most one finding
  /// of each kind.
  void step(uint64_t index, const isa::pb::Instruction &inst,
            llvm::SmallVectorImpl<VectorFinding> &out);

private:
  /// When each vector of a buffer lands, from the plan of its producer.
  struct Landing {
    bool known = false;      // produced (or preloaded) so far
    uint64_t producer = 0;   // instruction index
    uint64_t issue = 0;
    VectorPlan plan;         // preloaded: span 0, depth 0
    bool overLink = false;
    uint64_t done() const { return issue + plan.span + plan.depth; }
  };
  struct QueueUse {
    uint64_t freeAt = 0;
    uint64_t instruction = 0;
    uint64_t passes = 0;  // the holder's ALU passes (VXM)
    bool paired = false;  // the holder shares the ALU mesh already
  };
  bool sharesMesh(const isa::pb::Instruction &inst, const VectorPlan &plan,
                  const QueueUse &q) const;

  void checkReady(uint64_t index, const isa::pb::Instruction &inst,
                  const VectorPlan &plan,
                  llvm::SmallVectorImpl<VectorFinding> &out);
  bool readsInStep(const isa::pb::Instruction &inst, const VectorPlan &plan,
                   uint32_t operand) const;
  bool readsOffStream(const isa::pb::Instruction &inst, const VectorPlan &plan,
                      uint32_t operand) const;
  void checkStreams(uint64_t index, const isa::pb::Instruction &inst,
                    const VectorPlan &plan,
                    llvm::SmallVectorImpl<VectorFinding> &out);
  void checkPorts(uint64_t index, const isa::pb::Instruction &inst,
                  const VectorPlan &plan,
                  llvm::SmallVectorImpl<VectorFinding> &out);
  void addSegments(uint64_t index, uint32_t buffer, bool write,
                   uint64_t issue, const VectorPlan &plan,
                   uint64_t whole /*0: per unit; else the end of a whole write*/);

  const isa::VerifiedProgram &prog;
  const isa::pb::Program &p;
  std::vector<Landing> landings; // per buffer
  // Per node: each unit's queues, then each outgoing link.
  uint32_t maxQueues = 1, queueStride = 1;
  std::vector<QueueUse> queues;
  std::vector<BankWindows> ports;   // per node
  std::vector<BankAccess> segments; // scratch: the current instruction's
  std::vector<uint32_t> segmentNodes;
};

} // namespace lpx::sim

#endif
