//===- UnitCost.h - Pieces of the cost model, one file per unit -*- C++ -*-===//
//
// isa::instructionCost measures an instruction's streams once (Timing.cpp)
// and hands them to the cost entry of its opcode, which lives with its unit:
// MxmCost.cpp, VxmCost.cpp, SxmCost.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ISA_COST_UNITCOST_H
#define LPX_ISA_COST_UNITCOST_H

#include "lpx/isa/ElementwiseFunctions.h"
#include "lpx/isa/Timing.h"
#include "program.pb.h"

#include <string>

namespace lpx::isa::cost {

inline uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/// Product of v[from..to) (negative dims count as 0).
uint64_t product(const std::vector<int64_t> &v, size_t from, size_t to);

/// One instruction and the measures of its streams every entry needs.
struct Streams {
  const ChipSpec &chip;
  Opcode op;
  const std::vector<TensorDesc> &operands;
  const TensorDesc &result;
  const pb::Attributes &attrs;
  uint64_t vectors;     // of the largest operand or result, at least 1
  uint64_t laneVectors; // the same in VXM lane-vectors, at least 1
  uint64_t sramFloor;   // (bytes read + written) / SRAM bandwidth
  uint64_t transport;   // stream transport across the chip
  const std::string &opName; // the key in the unit's latency table

  /// Vectors of one tensor.
  uint64_t vectorsOf(const TensorDesc &t) const;
  /// `passes` passes over the largest stream through a stream unit.
  Cost streamed(const StreamUnitSpec &u, uint64_t passes) const;
  /// `work` vectors through a stream unit, no faster than SRAM allows.
  Cost throughput(const StreamUnitSpec &u, uint64_t work) const;
  /// A vector operation of `passes` ALU passes per lane-vector.
  Cost vectorOp(uint64_t passes) const;
};

// MxmCost.cpp
Cost matmulCost(const Streams &s);
Cost convCost(const Streams &s);
Cost convTransposeCost(const Streams &s);
// VxmCost.cpp
Cost functionCost(const Streams &s); // unary, binary, reduce, arg_reduce
/// ALU passes of unary quantize / dequantize (divPasses: a division's).
uint64_t rescalePasses(const Streams &s, UnaryFn fn, uint64_t divPasses);
Cost poolCost(const Streams &s);
Cost topKCost(const Streams &s);
Cost detCost(const Streams &s);
// SxmCost.cpp
Cost scatterCost(const Streams &s);
Cost gridSampleCost(const Streams &s);
Cost gatherCost(const Streams &s);
Cost sliceCost(const Streams &s);

} // namespace lpx::isa::cost

#endif
