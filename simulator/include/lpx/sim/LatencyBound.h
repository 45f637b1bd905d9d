//===- LatencyBound.h - Time one request cannot beat on its stages -*- C++ -*-===//
//
// The physical bound (PhysicalBound.h) spreads every chip's work over all
// chips at once: a floor on throughput, which one request crossing the
// pipeline stages one after another never reaches. This is the floor on one
// request's latency, from the model's work and the chip's peaks only, under
// the program's placement (which chips hold which weights; stage s is nodes
// [s * tp, (s + 1) * tp) of the program's mesh, one stage without a mesh):
//
//   cycles = deskew + (stages - 1) * hop latency
//            + max over stages b of ( W_b + sum over s != b of E_s )
//
//  - W_s, the stage's whole work for the request: on its busiest chip, the
//    larger of its matrix products at the MXM peaks (PhysicalBound's
//    productCycles) and the bytes that must touch its SRAM over the SRAM
//    bandwidth;
//  - E_s, the least work of any pass through the stage: however finely a
//    request is cut (a chunk of a prompt, one row, one sequence of a batch),
//    the piece that first leaves stage s has met every layer of the stage,
//    so every weight the stage's matrix products read has entered the MXM
//    of the chip holding it (elements at the MXM's entry rate, bytes at the
//    SRAM bandwidth). The first piece crosses the stages before b and the
//    last piece the stages after b, while b does all of W_b; one token
//    (a decode step at batch 1) gives W_s = E_s plus its activations, so
//    the bound is then the sum of the stages' work along the chain.
//  - Before the request arrives a chip may already hold one MXM load of
//    weights (planes * rows * cols elements): each chip's terms are reduced
//    by that load's entry and SRAM time, so the bound stays a floor.
//  - One hop's latency (the fastest link's) per stage boundary: the last
//    element of a stage's output has to cross it. Link bandwidth, the
//    all-reduces inside a stage and host I/O are left out, which keeps it a
//    floor and makes a placement that removes hops look better, not worse.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_SIM_LATENCYBOUND_H
#define LPX_SIM_LATENCYBOUND_H

#include "lpx/isa/Program.h"
#include <cstdint>
#include <vector>

namespace lpx::sim {

/// One pipeline stage's terms, in cycles, each on its busiest chip.
struct StageLatency {
  uint32_t firstNode = 0, nodes = 1;
  double mxmCycles = 0;  // its matrix products at the MXM peaks
  double sramCycles = 0; // the bytes that must touch its SRAM
  double workCycles = 0; // W_s: the larger of the two
  double passCycles = 0; // E_s: its matrix weights entering once
};

struct LatencyBound {
  std::vector<StageLatency> stages;
  uint32_t busiestStage = 0; // the b that sets the bound
  uint64_t hopCycles = 0;    // (stages - 1) * the fastest link's latency
  uint64_t deskew = 0;       // multi-chip programs only
  uint64_t cycles = 0;       // the bound; 0 for an empty program
};

/// The bound of `prog` on its chip. Linear in buffers + instructions.
LatencyBound computeLatencyBound(const isa::VerifiedProgram &prog);

} // namespace lpx::sim

#endif
