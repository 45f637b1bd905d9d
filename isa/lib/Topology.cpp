//===- Topology.cpp - Which link joins which chips ------------------------===//
#include "lpx/isa/Topology.h"

#include "llvm/ADT/SmallVector.h"

using namespace lpx::isa;

static uint32_t localLinks(const ChipSpec &c) { return c.topology.groupSize - 1; }

uint32_t lpx::isa::linksPerChip(const ChipSpec &c) {
  return localLinks(c) + c.topology.globalLinksPerChip;
}

bool lpx::isa::isGlobalLink(const ChipSpec &c, uint32_t link) {
  return link >= localLinks(c);
}

namespace {
uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/// Global port of unit `a` toward unit `b` among `n` (copy 0).
uint64_t portToward(uint64_t a, uint64_t b, uint64_t n) {
  return (b + n - a - 1) % n;
}

/// The levels in use for a number of groups, and the arithmetic on them.
/// Level h (1-based) joins units of level h-1 (level 0: groups).
class Hierarchy {
public:
  struct Level {
    uint64_t size;         // units of level h-1 per unit of level h
    uint64_t linksPerPair;
    LinkRate rate;
  };

  Hierarchy(const TopologySpec &t, uint64_t groups) : groups(groups) {
    LinkRate global{t.globalBytesPerCycle(), t.globalLatency};
    if (groups <= flatGroups(t) || !t.rack) {
      levels.push_back({groups, flatLinksPerPair(t, groups), global});
      return;
    }
    auto add = [&](const TopologyLevel &l) {
      double rate = l.lanes ? l.lanes : t.globalLanes;
      rate *= l.laneBytesPerCycle > 0 ? l.laneBytesPerCycle
                                      : t.globalLaneBytesPerCycle;
      levels.push_back({l.size, l.linksPerPair,
                        {rate, l.latency ? l.latency : t.globalLatency}});
    };
    add(*t.rack);
    if (t.system)
      add(*t.system);
  }

  static uint64_t flatGroups(const TopologySpec &t) {
    return uint64_t(t.groupSize) * t.globalLinksPerChip + 1;
  }
  /// Links joining each pair of groups in a flat Dragonfly: one at its full
  /// reach; in a smaller system the groups' spare global ports join the
  /// same pairs in parallel (every port used), unless the description
  /// keeps one link per pair.
  static uint64_t flatLinksPerPair(const TopologySpec &t, uint64_t groups) {
    if (groups < 2 || !t.bundleGlobalLinks)
      return 1;
    return std::max<uint64_t>(
        1, uint64_t(t.groupSize) * t.globalLinksPerChip / (groups - 1));
  }
  unsigned depth() const { return unsigned(levels.size()); }
  const Level &level(unsigned h) const { return levels[h - 1]; }

  /// Groups per unit of level h.
  uint64_t span(unsigned h) const {
    uint64_t s = 1;
    for (unsigned l = 1; l <= h; ++l)
      s *= level(l).size;
    return s;
  }
  /// The level-h unit holding group `g`.
  uint64_t unitOf(uint64_t g, unsigned h) const { return g / span(h); }
  /// Level-(h-1) units present in level-h unit `x` (the last may be partial).
  uint64_t children(unsigned h, uint64_t x) const {
    uint64_t below = ceilDiv(groups, span(h - 1));
    return std::min<uint64_t>(level(h).size, below - x * level(h).size);
  }
  /// Level-h ports of the level-(h-1) unit `u`.
  uint64_t ports(unsigned h, uint64_t u) const {
    uint64_t n = children(h, u / level(h).size);
    return n > 1 ? (n - 1) * level(h).linksPerPair : 0;
  }
  /// Level-h ports that group `g` holds (its unit's, dealt round-robin).
  uint64_t portsAt(unsigned h, uint64_t g) const {
    uint64_t t = ports(h, unitOf(g, h - 1));
    for (unsigned l = h - 1; l >= 1 && t; --l) {
      uint64_t c = children(l, unitOf(g, l)), i = unitOf(g, l - 1) % level(l).size;
      t = t > i ? ceilDiv(t - i, c) : 0;
    }
    return t;
  }
  /// Index of group `g`'s first level-h port among its global ports.
  uint64_t offset(unsigned h, uint64_t g) const {
    uint64_t o = 0;
    for (unsigned l = 1; l < h; ++l)
      o += portsAt(l, g);
    return o;
  }
  /// Port q of level-(h-1) unit u: the group holding it and its index there.
  std::pair<uint64_t, uint64_t> descend(unsigned h, uint64_t u,
                                        uint64_t q) const {
    for (unsigned l = h - 1; l >= 1; --l) {
      uint64_t c = children(l, u);
      u = u * level(l).size + q % c;
      q /= c;
    }
    return {u, q};
  }
  /// The inverse: group g's q-th level-h port as a port of its level-(h-1) unit.
  uint64_t lift(unsigned h, uint64_t g, uint64_t q) const {
    for (unsigned l = 1; l < h; ++l)
      q = q * children(l, unitOf(g, l)) + unitOf(g, l - 1) % level(l).size;
    return q;
  }

  uint64_t groups;

private:
  llvm::SmallVector<Level, 2> levels;
};

uint64_t groupsOf(const ChipSpec &c, uint64_t chips) {
  return ceilDiv(chips, c.topology.groupSize);
}
} // namespace

static std::optional<std::string> checkPorts(const TopologySpec &t,
                                             uint64_t groups);

/// Groups in a full system of the declared levels (0: none declared).
static uint64_t leveledGroups(const TopologySpec &t) {
  return t.rack ? uint64_t(t.rack->size) * (t.system ? t.system->size : 1) : 0;
}

uint64_t lpx::isa::maxChips(const ChipSpec &c) {
  const TopologySpec &t = c.topology;
  uint64_t groups = Hierarchy::flatGroups(t);
  // Levels that do not fit the ports when full (say after --set
  // topology.global_links_per_chip=1) add nothing to the reach.
  if (leveledGroups(t) > groups && !checkPorts(t, leveledGroups(t)))
    groups = leveledGroups(t);
  return groups * t.groupSize;
}

/// The first group whose global ports cannot hold its links, if any.
static std::optional<std::string> checkPorts(const TopologySpec &t,
                                             uint64_t groups) {
  Hierarchy h(t, groups);
  uint64_t have = uint64_t(t.groupSize) * t.globalLinksPerChip;
  for (uint64_t g = 0; g < groups; ++g) {
    uint64_t need = h.offset(h.depth() + 1, g);
    if (need > have)
      return "group " + std::to_string(g) + " of " + std::to_string(groups) +
             " needs " + std::to_string(need) + " global ports, its " +
             std::to_string(t.groupSize) + " chips have " +
             std::to_string(have);
  }
  return std::nullopt;
}

std::optional<std::string>
lpx::isa::checkLevelPorts(const TopologySpec &t) {
  uint64_t full = leveledGroups(t);
  if (full <= Hierarchy::flatGroups(t))
    return std::nullopt; // never used: the flat Dragonfly reaches as far
  if (auto why = checkPorts(t, full))
    return "topology.rack/system do not fit the global links: " + *why;
  return std::nullopt;
}

std::optional<std::string> lpx::isa::checkChipCount(const ChipSpec &c,
                                                    uint64_t n) {
  if (n == 0)
    return std::string("the number of chips must be at least 1");
  if (localLinks(c) > c.link.perChip)
    return "a group of " + std::to_string(c.topology.groupSize) +
           " chips needs " + std::to_string(localLinks(c)) +
           " local links per chip, '" + c.name + "' has " +
           std::to_string(c.link.perChip);
  if (n > c.topology.groupSize && n % c.topology.groupSize != 0)
    return std::to_string(n) + " chips do not fill whole groups of " +
           std::to_string(c.topology.groupSize) + " on '" + c.name + "'";
  if (n > maxChips(c))
    return std::to_string(n) + " chips exceed the " +
           std::to_string(maxChips(c)) + " that '" + c.name +
           "' can join (groups of " + std::to_string(c.topology.groupSize) +
           " with " + std::to_string(c.topology.globalLinksPerChip) +
           " global links per chip" +
           (c.topology.rack ? ", in racks and systems" : "") + ")";
  if (auto why = checkPorts(c.topology, groupsOf(c, n)))
    return std::to_string(n) + " chips cannot be wired on '" + c.name +
           "': " + *why;
  return std::nullopt;
}

namespace {
/// A group's global port `p` as a chip and its outgoing link.
std::pair<uint32_t, uint32_t> portChip(const ChipSpec &c, uint64_t group,
                                       uint64_t p) {
  const uint32_t g = c.topology.groupSize;
  return {uint32_t(group * g + p % g), uint32_t(localLinks(c) + p / g)};
}

/// The chip and link of level-(h-1) unit u's port toward sibling position
/// `b`, copy `copy`.
std::pair<uint32_t, uint32_t> gateway(const ChipSpec &c, const Hierarchy &hy,
                                      unsigned h, uint64_t u, uint64_t b,
                                      uint64_t copy) {
  uint64_t n = hy.children(h, u / hy.level(h).size);
  uint64_t q = copy * (n - 1) + portToward(u % hy.level(h).size, b, n);
  auto [group, local] = hy.descend(h, u, q);
  return portChip(c, group, hy.offset(h, group) + local);
}

/// The copies of the level-h links between units u and v that join the
/// same two chips as copy `copy`: they form one bundle, used as one queue
/// of parallel links (as a chip's local links to one peer are) by its
/// lowest copy. Returns that copy and the bundle's size.
std::pair<uint64_t, uint32_t> bundleOf(const ChipSpec &c, const Hierarchy &hy,
                                       unsigned h, uint64_t u, uint64_t v,
                                       uint64_t copy) {
  uint64_t size = hy.level(h).size, k = hy.level(h).linksPerPair;
  if (k == 1)
    return {copy, 1};
  auto a = gateway(c, hy, h, u, v % size, copy).first;
  auto b = gateway(c, hy, h, v, u % size, copy).first;
  uint64_t first = copy;
  uint32_t count = 0;
  for (uint64_t other = 0; other < k; ++other)
    if (gateway(c, hy, h, u, v % size, other).first == a &&
        gateway(c, hy, h, v, u % size, other).first == b) {
      first = std::min(first, other);
      ++count;
    }
  return {first, count};
}

void appendRoute(const ChipSpec &c, const Hierarchy &hy, uint32_t src,
                 uint32_t dst, std::vector<Hop> &hops) {
  const uint32_t g = c.topology.groupSize;
  if (src == dst)
    return;
  uint64_t gs = src / g, gd = dst / g;
  if (gs == gd) {
    uint32_t lf = src % g, lt = dst % g;
    hops.push_back({src, dst, lt < lf ? lt : lt - 1, false, 0,
                    localLinkRate(c)});
    return;
  }
  unsigned h = 1;
  while (hy.unitOf(gs, h) != hy.unitOf(gd, h))
    ++h;
  uint64_t u = hy.unitOf(gs, h - 1), v = hy.unitOf(gd, h - 1);
  uint64_t size = hy.level(h).size;
  // Parallel links of a pair are used by (src + dst) so traffic spreads;
  // the links of that copy's bundle carry the transfer together.
  auto [copy, links] =
      bundleOf(c, hy, h, u, v, (uint64_t(src) + dst) % hy.level(h).linksPerPair);
  auto [gateA, linkA] = gateway(c, hy, h, u, v % size, copy);
  auto [gateB, linkB] = gateway(c, hy, h, v, u % size, copy);
  (void)linkB;
  appendRoute(c, hy, src, gateA, hops);
  LinkRate rate = hy.level(h).rate;
  rate.links = links;
  hops.push_back({gateA, gateB, linkA, true, h, rate});
  appendRoute(c, hy, gateB, dst, hops);
}

/// Which level group `group`'s global port `p` belongs to, and its index
/// among that level's ports of the group; nullopt if unused.
std::optional<std::pair<unsigned, uint64_t>>
portLevel(const Hierarchy &hy, uint64_t group, uint64_t p) {
  for (unsigned h = 1; h <= hy.depth(); ++h) {
    uint64_t n = hy.portsAt(h, group);
    if (p < n)
      return std::make_pair(h, p);
    p -= n;
  }
  return std::nullopt;
}
} // namespace

std::vector<Hop> lpx::isa::route(const ChipSpec &c, uint32_t n, uint32_t src,
                                 uint32_t dst) {
  std::vector<Hop> hops;
  appendRoute(c, Hierarchy(c.topology, groupsOf(c, n)), src, dst, hops);
  return hops;
}

namespace {
/// Where global `link` of `node` leads: its level, the level-(h-1) units it
/// joins and its copy among their parallel links; nullopt if unused.
struct PortEnds {
  unsigned h;
  uint64_t u, v, copy;
};
std::optional<PortEnds> portEnds(const ChipSpec &c, const Hierarchy &hy,
                                 uint32_t node, uint32_t link) {
  const uint32_t g = c.topology.groupSize;
  uint64_t k = link - localLinks(c);
  if (k >= c.topology.globalLinksPerChip)
    return std::nullopt;
  uint64_t group = node / g;
  auto at = portLevel(hy, group, k * g + node % g);
  if (!at)
    return std::nullopt; // this port is not used with this many chips
  auto [h, local] = *at;
  uint64_t u = hy.unitOf(group, h - 1), size = hy.level(h).size;
  uint64_t siblings = hy.children(h, u / size);
  uint64_t q = hy.lift(h, group, local);
  uint64_t b = (u % size + q % (siblings - 1) + 1) % siblings;
  return PortEnds{h, u, (u / size) * size + b, q / (siblings - 1)};
}
} // namespace

std::optional<uint32_t> lpx::isa::linkTarget(const ChipSpec &c, uint32_t n,
                                             uint32_t node, uint32_t link) {
  const uint32_t g = c.topology.groupSize;
  if (link < localLinks(c)) {
    uint64_t group = node / g, l = node % g;
    uint64_t target = group * g + (link < l ? link : link + 1);
    return target < n ? std::optional<uint32_t>(uint32_t(target)) : std::nullopt;
  }
  Hierarchy hy(c.topology, groupsOf(c, n));
  auto ends = portEnds(c, hy, node, link);
  if (!ends)
    return std::nullopt;
  uint64_t size = hy.level(ends->h).size;
  uint32_t target =
      gateway(c, hy, ends->h, ends->v, ends->u % size, ends->copy).first;
  return target < n ? std::optional<uint32_t>(target) : std::nullopt;
}

LinkRate lpx::isa::linkRate(const ChipSpec &c, uint32_t n, uint32_t node,
                            uint32_t link) {
  if (link < localLinks(c))
    return localLinkRate(c);
  Hierarchy hy(c.topology, groupsOf(c, n));
  auto ends = portEnds(c, hy, node, link);
  if (!ends)
    return hy.level(1).rate;
  LinkRate rate = hy.level(ends->h).rate;
  // A bundle's lowest copy carries its transfers over all its links.
  auto [first, links] = bundleOf(c, hy, ends->h, ends->u, ends->v, ends->copy);
  rate.links = first == ends->copy ? links : 1;
  return rate;
}
