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
  uint64_t done(uint64_t issue) const { return issue + busy + latency; }
};

/// Cost of one instruction on `chip`. Every instruction occupies its unit for
/// at least one cycle.
/// `attrs` are the instruction's integer attributes: the generic opcodes
/// (unary, binary, reduce) are priced by the function they name.
Cost instructionCost(const ChipSpec &chip, Opcode op,
                     const std::vector<TensorDesc> &operands,
                     const TensorDesc &result,
                     const std::vector<int64_t> &attrs = {});

/// Multiply-accumulates an MXM instruction performs (matmul, conv,
/// conv_transpose: the useful products, no padding of tiles); 0 for every
/// other opcode. For reports: the cost model above prices the tiles.
uint64_t multiplyAccumulates(Opcode op, const std::vector<TensorDesc> &operands,
                             const TensorDesc &result);

/// What one link carries: bytes per cycle (all lanes) and cycles of flight.
struct LinkRate {
  double bytesPerCycle = 0;
  uint32_t latency = 0;
};
/// The rate of a link inside a group (`link.*`).
LinkRate localLinkRate(const ChipSpec &chip);

/// A transfer of `bytes` over one link: flits serialised onto the link at
/// its rate, then its fixed latency (isa::linkRate gives a link's rate).
Cost sendCost(const ChipSpec &chip, uint64_t bytes, const LinkRate &rate);

} // namespace lpx::isa

#endif
