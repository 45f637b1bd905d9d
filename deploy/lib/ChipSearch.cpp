//===- ChipSearch.cpp - The fewest chips a model compiles on --------------===//
#include "lpx/deploy/ChipSearch.h"

#include "lpx/isa/ChipSpec.h"
#include "lpx/isa/Topology.h"
#include <algorithm>
#include <map>
#include <thread>

using namespace lpx;
using namespace lpx::deploy;

namespace {

/// More chips than any preset topology reaches; the search stops there.
constexpr unsigned kMaxChips = 1u << 16;

unsigned roundUpToGroups(unsigned chips, unsigned group) {
  return (chips + group - 1) / group * group;
}

} // namespace

namespace {

/// The trials of one search: each count compiled once; with more than one
/// worker, several counts at once (`prefetch`), their outcomes kept until
/// the search asks for them in its own order.
class Trials {
public:
  Trials(const ChipSearchPolicy &p, const ChipTrialFn &trial,
         ChipSearchResult &r)
      : p(p), trial(trial), r(r) {}

  /// Compiles those of `counts` not yet tried, on up to p.workers threads.
  void prefetch(std::vector<unsigned> counts) {
    if (p.workers < 2)
      return;
    std::vector<unsigned> todo;
    for (unsigned c : counts)
      if (!done.count(c) && !(p.skip && p.skip(c)) &&
          std::find(todo.begin(), todo.end(), c) == todo.end())
        todo.push_back(c);
    if (todo.size() < 2)
      return; // one count: compiled when the search asks for it
    std::vector<std::optional<llvm::Expected<ChipTrial>>> out(todo.size());
    std::vector<std::thread> threads;
    for (size_t i = 1; i < todo.size(); ++i)
      threads.emplace_back([&, i] { out[i].emplace(trial(todo[i])); });
    out[0].emplace(trial(todo[0]));
    for (std::thread &t : threads)
      t.join();
    for (size_t i = 0; i < todo.size(); ++i) {
      ++r.trials;
      done.emplace(todo[i], std::move(*out[i]));
    }
  }

  /// One count's outcome: a fit, a misfit (with the compiler's hint) or a
  /// stop; a skipped count is a misfit, not compiled.
  llvm::Expected<ChipTrial> at(unsigned chips) {
    if (p.skip && p.skip(chips))
      return ChipTrial{ChipTrial::DoesNotFit, 0};
    run(chips);
    auto it = done.find(chips);
    if (!it->second)
      return it->second.takeError();
    return *it->second;
  }

private:
  void run(unsigned chips) {
    if (done.count(chips))
      return;
    ++r.trials;
    done.emplace(chips, trial(chips));
  }
  const ChipSearchPolicy &p;
  const ChipTrialFn &trial;
  ChipSearchResult &r;
  std::map<unsigned, llvm::Expected<ChipTrial>> done;
};

} // namespace

llvm::Expected<ChipSearchResult>
lpx::deploy::findFewestChips(const ChipSearchPolicy &p,
                             const ChipTrialFn &trial) {
  const unsigned group = std::max(p.group, 1u);
  ChipSearchResult r;
  Trials trials(p, trial, r);
  auto attempt = [&](unsigned chips) { return trials.at(chips); };
  // Gallop: `step` doubles while the compiler names no count past the last
  // misfit.
  unsigned step = group, first = 1;
  if (p.start > 1 && p.start <= p.most) {
    const unsigned below = p.start > group ? p.start - group : 1;
    trials.prefetch({p.start, below}); // with one worker: nothing
    auto t = attempt(p.start);
    if (!t)
      return t.takeError();
    if (t->outcome == ChipTrial::Fails) {
      r.failedAt = p.start;
      return r;
    }
    if (t->outcome == ChipTrial::Fits) {
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
  // The count tried after a misfit at `chips` that names no count past it.
  auto following = [&](unsigned chips, unsigned step) {
    unsigned next = roundUpToGroups(chips + step, group);
    if (next > p.most && chips < p.most)
      next = p.most;
    return next;
  };
  for (unsigned chips = first; chips <= p.most;) {
    if (chips < p.most)
      trials.prefetch({chips, following(chips, step)});
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
    chips = named > chips ? named : following(chips, step);
    if (named <= r.lastMisfit)
      step *= 2;
    if (chips > p.most && r.lastMisfit < p.most)
      chips = p.most;
  }
  if (!r.chips || !p.bisect)
    return r;
  // Whole-group counts strictly between the last misfit and the fit.
  unsigned lo = r.lastMisfit / group + 1, hi = *r.chips / group;
  // Compiles `groups` whole groups and narrows [lo, hi) by the outcome.
  auto narrow = [&](unsigned groups) -> llvm::Expected<bool> {
    auto t = attempt(groups * group);
    if (!t)
      return t.takeError();
    const bool fit = t->outcome == ChipTrial::Fits;
    if (fit) {
      r.chips = groups * group;
      hi = groups;
    } else {
      lo = groups + 1;
    }
    return fit;
  };
  while (*r.chips > group && lo < hi) {
    if (p.workers > 1 && hi - lo >= 2) {
      // Two counts at once, a third and two thirds into [lo, hi); the
      // second matters only when the first misses.
      const unsigned a = lo + (hi - lo) / 3, b = lo + 2 * (hi - lo) / 3;
      trials.prefetch({a * group, b * group});
      auto fa = narrow(a);
      if (!fa)
        return fa.takeError();
      if (*fa)
        continue;
      if (auto fb = narrow(b); !fb)
        return fb.takeError();
      continue;
    }
    const unsigned probe =
        p.cheapMisfits ? lo + (hi - lo) * 2 / 5 : (lo + hi) / 2;
    if (auto fm = narrow(probe); !fm)
      return fm.takeError();
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
