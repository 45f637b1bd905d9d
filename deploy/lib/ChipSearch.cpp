//===- ChipSearch.cpp - The fewest chips a model compiles on --------------===//
#include "lpx/deploy/ChipSearch.h"

#include "lpx/isa/ChipSpec.h"
#include "lpx/isa/Topology.h"
#include <algorithm>

using namespace lpx;
using namespace lpx::deploy;

namespace {

/// More chips than any preset topology reaches; the search stops there.
constexpr unsigned kMaxChips = 1u << 16;

unsigned roundUpToGroups(unsigned chips, unsigned group) {
  return (chips + group - 1) / group * group;
}

} // namespace

llvm::Expected<ChipSearchResult>
lpx::deploy::findFewestChips(const ChipSearchPolicy &p,
                             const ChipTrialFn &trial) {
  const unsigned group = std::max(p.group, 1u);
  ChipSearchResult r;
  // One count: a fit, a misfit (with the compiler's hint) or a stop.
  auto attempt = [&](unsigned chips) -> llvm::Expected<ChipTrial> {
    if (p.skip && p.skip(chips))
      return ChipTrial{ChipTrial::DoesNotFit, 0};
    ++r.trials;
    return trial(chips);
  };
  // Gallop: `step` doubles while the compiler names no count past the last
  // misfit.
  unsigned step = group, first = 1;
  if (p.start > 1 && p.start <= p.most) {
    auto t = attempt(p.start);
    if (!t)
      return t.takeError();
    if (t->outcome == ChipTrial::Fails) {
      r.failedAt = p.start;
      return r;
    }
    if (t->outcome == ChipTrial::Fits) {
      const unsigned below = p.start > group ? p.start - group : 1;
      auto u = attempt(below);
      if (!u)
        return u.takeError();
      if (u->outcome == ChipTrial::DoesNotFit) {
        r.chips = p.start;
        r.lastMisfit = below;
        r.startConfirmed = true;
        return r;
      }
      // Fewer chips fit as well: search from one as without the start.
    } else {
      r.lastMisfit = p.start;
      first = std::max(roundUpToGroups(p.start + group, group),
                       p.followHint ? roundUpToGroups(t->chipsHint, group) : 0);
      if (first > p.most)
        first = p.most;
    }
  }
  for (unsigned chips = first; chips <= p.most;) {
    auto t = attempt(chips);
    if (!t)
      return t.takeError();
    if (t->outcome == ChipTrial::Fits) {
      r.chips = chips;
      break;
    }
    if (t->outcome == ChipTrial::Fails) {
      r.failedAt = chips;
      return r;
    }
    r.lastMisfit = chips;
    const unsigned named =
        p.followHint ? roundUpToGroups(t->chipsHint, group) : 0;
    chips = named > chips ? named : roundUpToGroups(chips + step, group);
    if (named <= r.lastMisfit)
      step *= 2;
    if (chips > p.most && r.lastMisfit < p.most)
      chips = p.most;
  }
  if (!r.chips || !p.bisect)
    return r;
  // Whole-group counts strictly between the last misfit and the fit.
  unsigned lo = r.lastMisfit / group + 1, hi = *r.chips / group;
  while (*r.chips > group && lo < hi) {
    const unsigned mid = (lo + hi) / 2;
    auto t = attempt(mid * group);
    if (!t)
      return t.takeError();
    if (t->outcome == ChipTrial::Fits) {
      r.chips = mid * group;
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return r;
}

ChipSearchPolicy lpx::deploy::wholeGroupsPolicy(const isa::ChipSpec &chip) {
  ChipSearchPolicy p;
  p.group = std::max(chip.topology.groupSize, 1u);
  p.most = unsigned(std::min<uint64_t>(kMaxChips, isa::maxChips(chip)) /
                    p.group * p.group);
  // Counts the topology cannot wire (a group short of global ports) are
  // never compiled, and the last count tried is one it can.
  while (p.most > p.group && isa::checkChipCount(chip, p.most))
    p.most -= p.group;
  p.skip = [chip](unsigned chips) {
    return isa::checkChipCount(chip, chips).has_value();
  };
  return p;
}

ChipSearchPolicy lpx::deploy::doublingPolicy(const isa::ChipSpec &chip) {
  ChipSearchPolicy p;
  p.followHint = false;
  p.bisect = false;
  // The largest power of two the topology reaches: the doubling ends there.
  const uint64_t reach = std::min<uint64_t>(kMaxChips, isa::maxChips(chip));
  p.most = 1;
  while (uint64_t(p.most) * 2 <= reach)
    p.most *= 2;
  p.skip = [chip](unsigned chips) {
    return isa::checkChipCount(chip, chips).has_value();
  };
  return p;
}
