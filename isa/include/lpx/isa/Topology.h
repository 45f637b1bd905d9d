//===- Topology.h - Which link joins which chips ----------------*- C++ -*-===//
//
// Chips form groups of `group_size` that are fully connected by local links;
// groups are joined Dragonfly-style, every pair of groups by one global link.
// Chip n is in group n / group_size. A chip's local link k (k < group_size-1)
// goes to the k-th other chip of its group; global link k of chip l in
// group a is the group's global port p = k * group_size + l, which goes to
// group (a + p + 1) mod G. The compiler picks every route; nothing is routed
// at run time.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ISA_TOPOLOGY_H
#define LPX_ISA_TOPOLOGY_H

#include "lpx/isa/ChipSpec.h"
#include <optional>
#include <vector>

namespace lpx::isa {

struct Hop {
  uint32_t from = 0, to = 0;
  uint32_t link = 0;   // outgoing link id on `from`
  bool global = false; // a link between groups
};

/// The most chips a description can join (every group pair linked).
uint64_t maxChips(const ChipSpec &chip);
/// Why `numChips` chips cannot be joined, or nullopt when they can.
std::optional<std::string> checkChipCount(const ChipSpec &chip,
                                          uint64_t numChips);
/// The fixed route from `src` to `dst`: one local hop inside a group; else
/// local hop to the gateway (if needed), global hop, local hop (if needed).
std::vector<Hop> route(const ChipSpec &chip, uint32_t numChips, uint32_t src,
                       uint32_t dst);
/// The chip at the other end of `link` of `node`, if that link exists.
std::optional<uint32_t> linkTarget(const ChipSpec &chip, uint32_t numChips,
                                   uint32_t node, uint32_t link);
/// Whether `link` is a global (between-group) link.
bool isGlobalLink(const ChipSpec &chip, uint32_t link);
/// Outgoing links per chip: local ones, then global ones.
uint32_t linksPerChip(const ChipSpec &chip);

} // namespace lpx::isa

#endif
