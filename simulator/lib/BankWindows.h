//===- BankWindows.h - SRAM bank accesses still in progress -----*- C++ -*-===//
//
// A read and a write in the same cycle must hit different banks of a MEM
// slice. At the granularity of one macro-instruction, an instruction reads
// its operands during [issue, issue + busy) and writes its result during
// [issue, issue + busy + latency). This keeps, for one node, the accesses
// whose window has not ended yet and finds the one a new access conflicts
// with: a write against anything, a read against a write.
//
// Windows are kept unordered and expired lazily by the scan that looks for
// conflicts: every lookup has to visit all live windows anyway, so pruning
// there costs nothing extra, and the live set stays as small as the number
// of instructions in flight on the node.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_SIM_BANKWINDOWS_H
#define LPX_SIM_BANKWINDOWS_H

#include "lpx/isa/Banks.h"
#include <cstdint>
#include <vector>

namespace lpx::sim {

struct BankAccess {
  uint64_t start = 0; // issue cycle of the instruction, or later
  uint64_t end = 0;   // exclusive
  isa::BankRange banks;
  uint64_t instruction = 0;
  uint32_t buffer = 0;
  bool write = false;

  /// Whether the two accesses may not overlap in time: they share a bank
  /// and at least one of them writes.
  bool excludes(const BankAccess &other) const {
    return (write || other.write) && banks.overlaps(other.banks);
  }
};

class BankWindows {
public:
  /// Drops windows that ended at or before `now` (the issue cycle of the
  /// access being checked; issue cycles never decrease, and no access starts
  /// before its issue) and returns the live window overlapping `access` in
  /// time and conflicting with it that belongs to the lowest instruction
  /// index, or nullptr.
  const BankAccess *findConflict(const BankAccess &access, uint64_t now);
  void add(const BankAccess &access) {
    if (!access.banks.empty() && access.end > access.start)
      live.push_back(access);
  }

private:
  std::vector<BankAccess> live;
};

} // namespace lpx::sim

#endif
