//===- Timing.h - Cycle cost of one instruction -----------------*- C++ -*-===//
//
// The one cost model: the compiler's scheduler uses it to pick issue cycles
// and the simulator uses it to check them. An instruction occupies its unit
// (or link) for `busy` cycles from its issue cycle; its result is complete
// `latency` cycles after that.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ISA_TIMING_H
#define LPX_ISA_TIMING_H

#include "lpx/isa/ChipSpec.h"
#include "lpx/isa/DType.h"
#include "lpx/isa/Opcode.h"
#include <cstdint>
#include <vector>

// The attribute messages are protobuf (program.proto); this header stays
// free of protobuf so the compiler's passes need not see it.
namespace lpx::isa::pb {
class Attributes;
} // namespace lpx::isa::pb

namespace lpx::isa {

struct TensorDesc {
  DType dtype = DType::Undefined;
  std::vector<int64_t> shape;
  uint64_t elements() const;
  uint64_t bytes() const { return elements() * dtypeBytes(dtype); }
};

struct Cost {
  uint64_t busy = 0;    // cycles the unit or link is occupied
  uint64_t latency = 0; // further cycles until the result is complete
  // Set-up cycles at the start of `busy` before any vector streams (the
  // MXM's first tile install); the streaming window is [issue + fill,
  // issue + busy) (docs/simulator.md, "Chaining").
  uint64_t fill = 0;
  // ALU passes per lane-vector of a vector operation (0 elsewhere): with
  // chaining, two of them may share the VXM's ALU mesh (isa::fusesInMesh).
  uint64_t passes = 0;
  uint64_t done(uint64_t issue) const { return issue + busy + latency; }
  uint64_t streaming() const { return busy > fill ? busy - fill : 0; }
};

/// Cost of one instruction on `chip`. Every instruction occupies its unit for
/// at least one cycle.
/// `attrs` are the instruction's attributes: the generic opcodes (unary,
/// binary, reduce) are priced by the function they name. The entry of each
/// opcode is in Timing.cpp, its body with its unit's (lib/cost/).
Cost instructionCost(const ChipSpec &chip, Opcode op,
                     const std::vector<TensorDesc> &operands,
                     const TensorDesc &result, const pb::Attributes &attrs);
/// The same for an instruction without attributes.
Cost instructionCost(const ChipSpec &chip, Opcode op,
                     const std::vector<TensorDesc> &operands,
                     const TensorDesc &result);

/// Multiply-accumulates an MXM instruction performs (matmul, conv,
/// conv_transpose: the useful products, no padding of tiles); 0 for every
/// other opcode. For reports: the cost model above prices the tiles.
uint64_t multiplyAccumulates(Opcode op, const std::vector<TensorDesc> &operands,
                             const TensorDesc &result);

/// Bytes a gather of `indices` along `axis` reads from `data`: each index
/// picks one contiguous slice (the dims after `axis`) per outer position,
/// read as whole vectors, but never more than streaming all of `data`.
uint64_t gatherReadBytes(const ChipSpec &chip, const TensorDesc &data,
                         const TensorDesc &indices, int64_t axis);

/// Bytes a slice of `data` into `result` reads: the source is read as whole
/// vectors, and only the vectors that hold the elements it selects. A run
/// is the selection's contiguous stretch of the source (its innermost axis
/// that is not taken whole, with everything inside it); a run not aligned
/// to vectors may touch one vector more than its length, and is counted
/// so. Never more than streaming all of `data`. `starts` and `steps` are
/// the slice's attributes (one per axis; otherwise the whole of `data`).
uint64_t sliceReadBytes(const ChipSpec &chip, const TensorDesc &data,
                        const TensorDesc &result,
                        const std::vector<int64_t> &starts,
                        const std::vector<int64_t> &steps);

/// Multiply-accumulates the MXM can do per cycle at its int8 rate, all
/// planes together: the peak that MXM utilisation is measured against.
uint64_t mxmPeakMacsPerCycle(const ChipSpec &chip);

/// What one link carries: bytes per cycle (all lanes) and cycles of flight;
/// `links` parallel links join the same pair of chips, and a transfer deals
/// its flits out over them.
struct LinkRate {
  double bytesPerCycle = 0;
  uint32_t latency = 0;
  uint32_t links = 1;
};
/// The rate of the links between two chips of a group (`link.*`): the
/// links a chip has beyond its global ones are spread evenly over the
/// other chips of its group (localLinksPerPeer).
LinkRate localLinkRate(const ChipSpec &chip);
/// Links joining each pair of chips of a group: (link.per_chip -
/// topology.global_links_per_chip) / (group_size - 1), at least 1 (lpx3:
/// 64 / 7 = 9; tsp-v1: 12 / 7 = 1).
uint32_t localLinksPerPeer(const ChipSpec &chip);

/// Flits a transfer of `bytes` takes on a link (at least 1).
uint64_t flitCount(const ChipSpec &chip, uint64_t bytes);

/// The earliest cycle a send may forward a transfer of `bytes` that arrives
/// over a previous hop issued at `prevIssue` with cost `prev`; `next` is
/// the forwarding send's own cost. With link.cut_through, flit j of F is on
/// a link during [issue + j*busy/F, issue + (j+1)*busy/F) and complete
/// `latency` cycles after that; the forwarding hop may send flit j once it
/// is complete, so the first flit (and, onto a faster link, the last)
/// decides. Without cut-through: when the whole tensor has arrived.
uint64_t forwardEarliest(const ChipSpec &chip, uint64_t bytes,
                         uint64_t prevIssue, const Cost &prev,
                         const Cost &next);

/// A transfer of `bytes` over one link: flits serialised onto the link at
/// its rate, then its fixed latency (isa::linkRate gives a link's rate).
Cost sendCost(const ChipSpec &chip, uint64_t bytes, const LinkRate &rate);

} // namespace lpx::isa

#endif
