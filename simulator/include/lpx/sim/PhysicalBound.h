//===- PhysicalBound.h - Time the chip's peaks allow for the work -*- C++ -*-===//
//
// A floor on the time of a program from the model's work and the chip's
// peak rates only, independent of the instructions the compiler chose and of
// the cost model that prices them (LowerBound.h is the bound of the schedule
// itself). Three terms, each spread perfectly over every chip the program
// uses, of which the largest is the bound:
//  - compute: the multiply-accumulates of the model's matrix products over
//    the MXM peak at the operands' rate (planes * rows * cols MACs per
//    cycles_per_vector of that width), or, when larger, their operands'
//    elements over the rate at which they can enter the MXM (installed
//    into the planes or streamed through them): a matrix-vector product
//    uses each weight once, so its weights' entry bounds it;
//  - SRAM: the bytes that must be read at least once (weights, inputs and
//    resident state) and the outputs written once,
//    over the SRAM bandwidth of all chips;
//  - links: the bytes that cross chips under the program's placement (each
//    value once per destination chip, no framing) over the links of all
//    chips, plus one hop latency per chip boundary on the longest chain of
//    dependent values. This term takes the placement as given: a placement
//    that moves less lowers it. The MXM and SRAM terms do not depend on the
//    placement; `workCycles` is the bound from them alone.
// Multi-chip programs add the deskew, which precedes any work. The gap
// between this bound and the simulated time is what the compiler's program
// leaves on the table; attributeGap() splits it into shares.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_SIM_PHYSICALBOUND_H
#define LPX_SIM_PHYSICALBOUND_H

#include "lpx/isa/Program.h"
#include <cstdint>
#include <string>
#include <vector>

namespace lpx::sim {

struct PhysicalBound {
  uint64_t macs = 0;           // multiply-accumulates of the model's matmuls
  double computeCycles = 0;    // macs at the MXM peak of all chips
  uint64_t sramBytes = 0;      // weights + inputs/state read, outputs written
  double sramCycles = 0;       // sramBytes at the SRAM bandwidth of all chips
  uint64_t linkBytes = 0;      // bytes crossing chips, once per destination
  uint32_t linkHops = 0;       // chip boundaries on the longest value chain
  double linkCycles = 0;       // linkBytes over all links + hops * latency
  uint64_t deskew = 0;         // multi-chip programs only
  uint32_t chips = 1;
  uint64_t cycles = 0;         // deskew + ceil(the largest term)
  uint64_t workCycles = 0;     // deskew + ceil(compute or SRAM, the larger)
  /// "MXM peak", "SRAM bandwidth" or "links"; "none" for an empty program.
  std::string limit = "none";
};

/// Where the simulated cycles beyond the physical bound went. The shares add
/// up to simulated - bound (0 when the schedule meets the bound):
///  - serialLatency: the program's longest dependency chain (busy + latency
///    of each instruction, LowerBounds::criticalPath) beyond the bound: time
///    spent waiting on results, not on throughput;
///  - linkTime: of the rest, the busiest link's busy cycles beyond the
///    physical link term (framing, relays, transfers the placement adds);
///  - idleUnits: the remainder, cycles in which units could have worked but
///    the schedule left them idle.
struct GapAttribution {
  uint64_t serialLatency = 0;
  uint64_t linkTime = 0;
  uint64_t idleUnits = 0;
};

/// The bound of `prog` on its chip. Linear in buffers + instructions.
PhysicalBound computePhysicalBound(const isa::VerifiedProgram &prog);

/// Splits simulated - bound.cycles as described above, from the simulated
/// cycles, the program's dependency chain and its busiest link's busy cycles.
GapAttribution attributeGap(const PhysicalBound &bound, uint64_t simulated,
                            uint64_t criticalPathCycles,
                            uint64_t busiestLinkBusy);
/// The same split beyond any bound of `boundCycles` whose link share is
/// `boundLinkCycles` (the latency bound's hops, LatencyBound.h).
GapAttribution attributeGap(uint64_t boundCycles, double boundLinkCycles,
                            uint64_t simulated, uint64_t criticalPathCycles,
                            uint64_t busiestLinkBusy);

/// MACs per cycle one chip's MXM sustains with operands of these types.
double mxmPeakMacsPerCycle(const isa::ChipSpec &chip, isa::DType a,
                           isa::DType b);

/// Operand elements per cycle that can enter one chip's MXM: installed
/// into its planes (planes * rows * cols per weight_load_cycles, at any
/// width) plus streamed through them (a vector of `rows` elements per
/// plane per cycles_per_vector of the operands' width).
double mxmIngestElementsPerCycle(const isa::ChipSpec &chip, isa::DType a,
                                 isa::DType b);

/// Cycles of one MXM instruction at one chip's peaks: the larger of its
/// MACs at the MAC peak and its operands' elements at the rate they can
/// enter the MXM; 0 for any other instruction. Adds its MACs to `macs`.
double productCycles(const isa::pb::Program &p, const isa::ChipSpec &chip,
                     const isa::pb::Instruction &inst,
                     uint64_t *macs = nullptr);

/// Per node, the bytes that must touch its SRAM at least once: every
/// weight, input and resident buffer read once and every output written
/// once; values made and used inside the program need not touch SRAM in
/// the best case, and a table read only by gathers (an embedding) needs
/// only the rows they pick.
std::vector<uint64_t> bytesThatMustMoveByNode(const isa::pb::Program &p);

} // namespace lpx::sim

#endif
