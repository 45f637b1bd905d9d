//===- Topology.cpp - Which link joins which chips ------------------------===//
#include "lpx/isa/Topology.h"

using namespace lpx::isa;

static uint32_t localLinks(const ChipSpec &c) { return c.topology.groupSize - 1; }

uint32_t lpx::isa::linksPerChip(const ChipSpec &c) {
  return localLinks(c) + c.topology.globalLinksPerChip;
}

bool lpx::isa::isGlobalLink(const ChipSpec &c, uint32_t link) {
  return link >= localLinks(c);
}

uint64_t lpx::isa::maxChips(const ChipSpec &c) {
  uint64_t ports = uint64_t(c.topology.groupSize) * c.topology.globalLinksPerChip;
  return uint64_t(c.topology.groupSize) * (ports + 1);
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
           " global links per chip)";
  return std::nullopt;
}

namespace {
uint32_t groupCount(const ChipSpec &c, uint32_t n) {
  return (n + c.topology.groupSize - 1) / c.topology.groupSize;
}
/// Global port of group `a` toward group `b`.
uint32_t portToward(uint32_t a, uint32_t b, uint32_t groups) {
  return (b + groups - a - 1) % groups;
}
} // namespace

std::vector<Hop> lpx::isa::route(const ChipSpec &c, uint32_t n, uint32_t src,
                                 uint32_t dst) {
  const uint32_t g = c.topology.groupSize;
  std::vector<Hop> hops;
  auto local = [&](uint32_t from, uint32_t to) {
    uint32_t lf = from % g, lt = to % g;
    hops.push_back({from, to, lt < lf ? lt : lt - 1, false});
  };
  if (src == dst)
    return hops;
  uint32_t ga = src / g, gb = dst / g;
  if (ga == gb) {
    local(src, dst);
    return hops;
  }
  uint32_t groups = groupCount(c, n);
  uint32_t pa = portToward(ga, gb, groups), pb = portToward(gb, ga, groups);
  uint32_t gateA = ga * g + pa % g, gateB = gb * g + pb % g;
  if (src != gateA)
    local(src, gateA);
  hops.push_back({gateA, gateB, localLinks(c) + pa / g, true});
  if (gateB != dst)
    local(gateB, dst);
  return hops;
}

std::optional<uint32_t> lpx::isa::linkTarget(const ChipSpec &c, uint32_t n,
                                             uint32_t node, uint32_t link) {
  const uint32_t g = c.topology.groupSize;
  uint32_t group = node / g, l = node % g;
  if (link < localLinks(c)) {
    uint32_t lt = link < l ? link : link + 1;
    uint32_t target = group * g + lt;
    return target < n ? std::optional<uint32_t>(target) : std::nullopt;
  }
  uint32_t k = link - localLinks(c);
  if (k >= c.topology.globalLinksPerChip)
    return std::nullopt;
  uint32_t groups = groupCount(c, n);
  uint32_t p = k * g + l;
  if (p + 1 >= groups)
    return std::nullopt; // this port is not used with this many groups
  uint32_t other = (group + p + 1) % groups;
  uint32_t back = portToward(other, group, groups);
  uint32_t target = other * g + back % g;
  return target < n ? std::optional<uint32_t>(target) : std::nullopt;
}
