//===- SramOccupancy.cpp - Which buffer holds each SRAM byte --------------===//
#include "SramOccupancy.h"

#include <algorithm>
#include <iterator>

using namespace lpx::sim;

void SramOccupancy::occupy(uint64_t addr, uint64_t bytes, uint32_t buffer,
                           llvm::SmallVectorImpl<uint32_t> &displaced) {
  if (bytes == 0)
    return;
  // Verified buffers lie inside SRAM, so this cannot wrap; clamp anyway so a
  // bad range degrades to a shorter one instead of an empty one.
  const uint64_t end = addr + bytes < addr ? UINT64_MAX : addr + bytes;
  size_t firstDisplaced = displaced.size();

  // The first segment that can overlap is the one starting at or before addr.
  auto it = segments.upper_bound(addr);
  if (it != segments.begin() && std::prev(it)->second.end > addr)
    it = std::prev(it);
  while (it != segments.end() && it->first < end) {
    uint64_t start = it->first;
    Segment seg = it->second;
    displaced.push_back(seg.buffer);
    it = segments.erase(it);
    // Keep the parts of the old tenant that stick out on either side.
    if (start < addr)
      segments.emplace(start, Segment{addr, seg.buffer});
    if (seg.end > end) {
      segments.emplace(end, Segment{seg.end, seg.buffer});
      break;
    }
  }
  segments.emplace(addr, Segment{end, buffer});

  auto first = displaced.begin() + firstDisplaced;
  std::sort(first, displaced.end());
  displaced.erase(std::unique(first, displaced.end()), displaced.end());
}
