//===- Banks.cpp - Which SRAM banks a byte range touches ------------------===//
#include "lpx/isa/Banks.h"

#include <algorithm>

using namespace lpx::isa;

uint64_t lpx::isa::bankBytes(const ChipSpec &chip) {
  const uint64_t banks =
      uint64_t(chip.sram.slices) * uint64_t(chip.sram.banksPerSlice);
  // A description always has positive counts; guard anyway so a hand-built
  // spec cannot divide by zero.
  if (banks == 0)
    return std::max<uint64_t>(chip.sram.bytes, 1);
  return std::max<uint64_t>(chip.sram.bytes / banks, 1);
}

BankRange lpx::isa::banksOf(const ChipSpec &chip, uint64_t addr,
                            uint64_t bytes) {
  if (bytes == 0)
    return BankRange{};
  const uint64_t size = bankBytes(chip);
  // Clamp the last byte so a range reaching the top of the address space
  // does not wrap.
  const uint64_t lastByte =
      addr + (bytes - 1) < addr ? UINT64_MAX : addr + (bytes - 1);
  return BankRange{addr / size, lastByte / size};
}
