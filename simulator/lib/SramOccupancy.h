//===- SramOccupancy.h - Which buffer holds each SRAM byte ------*- C++ -*-===//
//
// The allocator reuses SRAM space, so several buffers can share an address
// over a program's life. This tracks, for one node, the current tenant of
// every address range as disjoint segments keyed by start address. Each
// occupy() adds at most three segments and erases the ones it covers, so a
// whole program costs O(n log n).
//
//===----------------------------------------------------------------------===//
#ifndef LPX_SIM_SRAMOCCUPANCY_H
#define LPX_SIM_SRAMOCCUPANCY_H

#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <map>

namespace lpx::sim {

class SramOccupancy {
public:
  /// Makes `buffer` the tenant of [addr, addr + bytes) and appends to
  /// `displaced` the previous tenants of any part of it, each once, in
  /// ascending buffer id. `buffer` itself may appear when it is rewritten.
  void occupy(uint64_t addr, uint64_t bytes, uint32_t buffer,
              llvm::SmallVectorImpl<uint32_t> &displaced);

private:
  struct Segment {
    uint64_t end; // exclusive
    uint32_t buffer;
  };
  std::map<uint64_t, Segment> segments; // disjoint, keyed by start address
};

} // namespace lpx::sim

#endif
