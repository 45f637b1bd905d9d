//===- Banks.h - Which SRAM banks a byte range touches ----------*- C++ -*-===//
//
// Each MEM slice has `banks_per_slice` banks, and a read and a write in the
// same cycle must hit different banks. The compiler's allocator and the
// simulator's check must agree on which bank holds which byte, so the layout
// is defined once here: node SRAM is cut into slices * banks_per_slice
// contiguous banks of equal size, bank i holding bytes
// [i * bankBytes, (i + 1) * bankBytes).
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ISA_BANKS_H
#define LPX_ISA_BANKS_H

#include "lpx/isa/ChipSpec.h"
#include <cstdint>

namespace lpx::isa {

/// An inclusive range of bank indices; empty when first > last.
struct BankRange {
  uint64_t first = 1;
  uint64_t last = 0;

  bool empty() const { return first > last; }
  /// Whether the two ranges share at least one bank (never for empty ones).
  bool overlaps(const BankRange &other) const {
    return !empty() && !other.empty() && first <= other.last &&
           other.first <= last;
  }
};

/// Bytes per bank: sram.bytes / (slices * banks_per_slice), at least 1.
uint64_t bankBytes(const ChipSpec &chip);

/// Banks touched by [addr, addr + bytes); empty for 0 bytes.
BankRange banksOf(const ChipSpec &chip, uint64_t addr, uint64_t bytes);

} // namespace lpx::isa

#endif
