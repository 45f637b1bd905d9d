//===- UnitOps.h - Named operations of each functional unit -----*- C++ -*-===//
//
// The keys of a chip description's per-operation latency tables
// (`vxm.latencies`, `sxm.latencies`, `mem.latencies`). A unit's operations are
// its opcodes by mnemonic; the vector unit's generic opcodes are split by the
// function they apply (ElementwiseFunctions.def): unary and binary functions
// by their own names, reductions as `reduce_<fn>`, arg reductions as
// `arg<fn>`.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ISA_UNITOPS_H
#define LPX_ISA_UNITOPS_H

#include "lpx/isa/ChipSpec.h"
#include "lpx/isa/Opcode.h"
#include "lpx/isa/Timing.h"
#include <cstdint>
#include <string>
#include <vector>

namespace lpx::isa {

/// Every operation name of `unit`, sorted (none for MXM and C2C, which have
/// their own timing keys).
const std::vector<std::string> &unitOpNames(Unit unit);

/// The operation an instruction performs, as named in its unit's latency
/// table: the mnemonic, or the function of a generic vector opcode (named by
/// its attributes). The names are built once; this is a table lookup (the
/// cost model asks for every instruction).
const std::string &unitOpName(Opcode op, const pb::Attributes &attrs);

/// Instruction queues of `unit` on `chip` (links: 1 per link).
uint32_t queueCount(const ChipSpec &chip, Unit unit);

} // namespace lpx::isa

#endif
