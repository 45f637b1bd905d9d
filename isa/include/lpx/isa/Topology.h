//===- Topology.h - Which link joins which chips ----------------*- C++ -*-===//
//
// Chips form groups of `group_size` that are fully connected by local links.
// Chip n is in group n / group_size; its local link k (k < group_size-1) goes
// to the k-th other chip of its group. Every chip also has
// `global_links_per_chip` global links; a group's global port
// p = k * group_size + l is global link k of its chip l.
//
// Flat Dragonfly (as long as groups * (groups - 1) fits the ports, i.e. at
// most group_size * global_links + 1 groups): every pair of groups is joined
// by k = P / (G - 1) global links, P the group's ports (one at full reach;
// `topology.bundle_global_links: false` keeps one at any size); port p of
// group a goes to group (a + p mod (G-1) + 1) mod G, copy p / (G-1).
//
// Parallel links that join the same two chips form a bundle: its lowest
// copy carries every transfer routed over any of them, striped over all its
// links (one queue, as a chip's local links to one peer are), and its other
// links carry nothing.
//
// Past that reach, the optional levels take over: groups form racks of
// `rack.size`, racks a system of `system.size`. Inside a unit of a level, its
// n units of the level below (the last unit may be partial) are joined pair by
// pair with `links_per_pair` links: unit a's level port q goes to unit
// (a + q mod (n-1) + 1) mod n, copy q / (n-1). A unit's level ports are dealt
// round-robin to its sub-units, down to groups, where each group stacks its
// ports level by level (rack ports first, then system ports).
//
// A route between two chips: inside one group one local hop; else, at the
// lowest level whose unit holds both, route to the gateway chip holding the
// port toward the other sub-unit, cross that link, and route from the gateway
// on the other side; so 1, 3 (flat or rack) or 7 (system) hops at most. All
// of it is arithmetic on chip indices (no tables over chips). The compiler
// picks every route; nothing is routed at run time.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ISA_TOPOLOGY_H
#define LPX_ISA_TOPOLOGY_H

#include "lpx/isa/ChipSpec.h"
#include "lpx/isa/Timing.h"
#include <optional>
#include <vector>

namespace lpx::isa {

struct Hop {
  uint32_t from = 0, to = 0;
  uint32_t link = 0;   // outgoing link id on `from`
  bool global = false; // a link between groups
  uint32_t level = 0;  // 0 local; 1 flat global or rack; 2 system
  LinkRate rate;       // the link's bandwidth and latency
};

/// The most chips a description can join.
uint64_t maxChips(const ChipSpec &chip);
/// Why `numChips` chips cannot be joined, or nullopt when they can.
std::optional<std::string> checkChipCount(const ChipSpec &chip,
                                          uint64_t numChips);
/// Why the declared levels do not fit the groups' global ports when full, or
/// nullopt. Levels that do not fit add nothing to maxChips; a chip count
/// that needs them is refused by checkChipCount with the group short of ports.
std::optional<std::string> checkLevelPorts(const TopologySpec &topology);
/// The fixed route from `src` to `dst` (see the file comment).
std::vector<Hop> route(const ChipSpec &chip, uint32_t numChips, uint32_t src,
                       uint32_t dst);
/// The chip at the other end of `link` of `node`, if that link exists.
std::optional<uint32_t> linkTarget(const ChipSpec &chip, uint32_t numChips,
                                   uint32_t node, uint32_t link);
/// The bandwidth and latency of `link` of `node` among `numChips` chips.
LinkRate linkRate(const ChipSpec &chip, uint32_t numChips, uint32_t node,
                  uint32_t link);
/// Whether `link` is a global (between-group) link.
bool isGlobalLink(const ChipSpec &chip, uint32_t link);
/// Outgoing links per chip: local ones, then global ones.
uint32_t linksPerChip(const ChipSpec &chip);

} // namespace lpx::isa

#endif
