//===- ChipSearch.h - The fewest chips a model compiles on ------*- C++ -*-===//
//
// One search for the chip count, shared by coverage and decode: try 1 chip,
// then gallop over whole groups (1, 2, 4, ... groups past the last count
// that did not fit, or straight to the count the compiler names), then
// bisect back between the last misfit and the first fit. It assumes that a
// model that fits on n chips fits on more. The caller's `trial` compiles;
// the policy says what the caller needs:
//   - `group`: counts past 1 are whole groups (decode: topology.group_size;
//     coverage: 1, so the gallop doubles);
//   - `followHint`: jump to the count the compiler names;
//   - `bisect`: search back for the fewest (off: the first count that
//     fits, which for coverage is a power of two);
//   - `skip`: counts not to compile (the topology cannot join them), passed
//     over as misfits;
//   - `cheapMisfits`: a misfit costs about half a fit (the compile stops
//     where it runs out of SRAM), so the serial bisection tries two fifths
//     of the way up what is left rather than the middle: with a fit
//     costing twice a misfit, that is where a compile's expected cost per
//     bit it tells is least (about 4% below the middle's; the count found
//     is the same);
//   - `workers`: compiles at once (then `trial` must be thread-safe): the
//     gallop compiles the count after the one it tries beside it (used when
//     the first misses without naming a count), the bisection two counts a
//     third and two thirds into what is left. The count found is the
//     serial search's (the same assumption that more chips fit too). No
//     caller uses it now: lpx serve's search, which did, compiles each
//     count's prefill beside its step instead (fewer compiles it then does
//     not need; DecodeRequest::prefillBesideStep).
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_CHIPSEARCH_H
#define LPX_DEPLOY_CHIPSEARCH_H

#include "llvm/Support/Error.h"
#include <functional>
#include <optional>

namespace lpx::isa {
struct ChipSpec;
}

namespace lpx::deploy {

struct ChipSearchPolicy {
  unsigned group = 1;
  /// The largest count tried; tried last rather than galloped over (past it
  /// the compiler refuses the count, not the model).
  unsigned most = 1;
  bool followHint = true;
  bool bisect = true;
  std::function<bool(unsigned chips)> skip;
  /// A count to try first (a neighbouring deployment's): when it fits and
  /// the count a group below does not, it is the fewest in two compiles;
  /// otherwise the search goes on as without it. 0: none.
  unsigned start = 0;
  bool cheapMisfits = false;
  unsigned workers = 1;
};

/// What one compile said.
struct ChipTrial {
  enum Outcome { Fits, DoesNotFit, Fails } outcome = Fails;
  unsigned chipsHint = 0; // with DoesNotFit: the count the compiler named
};

struct ChipSearchResult {
  std::optional<unsigned> chips; // the fewest found to fit
  unsigned lastMisfit = 0;       // the largest count tried that did not fit
  /// A trial failed for another reason than fit: the search stopped there.
  std::optional<unsigned> failedAt;
  unsigned trials = 0; // compiles made (skipped counts are not)
  bool startConfirmed = false; // the policy's start was the fewest
};

using ChipTrialFn = std::function<llvm::Expected<ChipTrial>(unsigned chips)>;

/// Runs the search; an error from `trial` ends it and is returned.
llvm::Expected<ChipSearchResult> findFewestChips(const ChipSearchPolicy &p,
                                                 const ChipTrialFn &trial);

/// Decode's policy on `chip`: whole groups, the compiler's hint, bisection,
/// up to the topology's largest count of whole groups.
ChipSearchPolicy wholeGroupsPolicy(const isa::ChipSpec &chip);
/// Coverage's: 1, 2, 4, ... chips up to the topology's largest, counts the
/// topology cannot join skipped, the first that fits kept.
ChipSearchPolicy doublingPolicy(const isa::ChipSpec &chip);

} // namespace lpx::deploy

#endif
