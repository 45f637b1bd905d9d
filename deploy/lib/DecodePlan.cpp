//===- DecodePlan.cpp - The chips a deployment needs, both phases timed ---===//
#include "lpx/deploy/DecodePlan.h"

#include "lpx/isa/Topology.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>

using namespace lpx;
using namespace lpx::cli;

namespace {

/// More chips than any preset topology reaches; the search stops there.
constexpr unsigned kMaxChips = 1u << 16;

llvm::Error error(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg.str());
}

unsigned roundUpToGroups(unsigned chips, unsigned group) {
  return (chips + group - 1) / group * group;
}

/// The two phases on `chips` chips; none when either does not compile
/// (`failure` says why).
llvm::Expected<std::optional<DecodePlan>>
tryChips(const DecodeTarget &t, const DecodeRequest &req, unsigned chips,
         PhaseFailure &failure, const PlanProgress &progress) {
  if (progress.compiling)
    progress.compiling("decode step", chips);
  auto step = runPhase(t, req.step, chips, failure, progress.stage);
  if (!step)
    return step.takeError();
  if (!*step)
    return std::nullopt;
  DecodePlan plan;
  plan.chips = chips;
  plan.step = std::move(**step);
  if (req.prefill) {
    if (progress.compiling)
      progress.compiling("prefill", chips);
    // Placed as the step is: the same KV state on the same chips.
    DecodeTarget placed = t;
    placed.tp = plan.step.program->program().tp();
    placed.pp = plan.step.program->program().pp();
    auto prefill =
        runPhase(placed, *req.prefill, chips, failure, progress.stage);
    if (!prefill)
      return prefill.takeError();
    if (!*prefill)
      return std::nullopt;
    plan.prefill = std::move(**prefill);
  }
  return std::optional<DecodePlan>(std::move(plan));
}

/// Without --tp/--pp, on the plan's chips: each tensor-parallel width
/// that divides the compiler's, narrowest last, both phases compiled and
/// the step simulated; the fastest step is kept (the compiler's on a tie).
llvm::Error tryNarrower(const DecodeTarget &t, const DecodeRequest &req,
                        DecodePlan &plan, const PlanProgress &progress) {
  if (t.tp || t.pp || !plan.step.program)
    return llvm::Error::success();
  const unsigned tp = plan.step.program->program().tp();
  if (tp < 2)
    return llvm::Error::success();
  plan.trials.push_back({tp, unsigned(plan.step.program->program().pp()),
                         plan.step.computeUs(), true});
  for (unsigned width = tp - 1; width >= 1; --width) {
    if (tp % width)
      continue;
    DecodeTarget narrower = t;
    narrower.tp = width;
    PhaseFailure failure;
    auto tried = tryChips(narrower, req, plan.chips, failure, progress);
    if (!tried)
      return tried.takeError();
    if (!*tried) {
      plan.trials.push_back({width, plan.chips / width, 0, false,
                             failure.doesNotFit, failure.message});
      continue;
    }
    DecodePlan &other = **tried;
    const isa::pb::Program &placed = other.step.program->program();
    plan.trials.push_back({unsigned(placed.tp()), unsigned(placed.pp()),
                           other.step.computeUs(), true});
    if (other.step.computeUs() < plan.step.computeUs()) {
      plan.step = std::move(other.step);
      plan.prefill = std::move(other.prefill);
    }
  }
  return llvm::Error::success();
}

} // namespace

llvm::Expected<DecodePlan> lpx::cli::planDecode(const DecodeTarget &t,
                                                const DecodeRequest &req,
                                                const PlanProgress &progress) {
  PhaseFailure failure;
  if (req.chips) {
    auto plan = tryChips(t, req, req.chips, failure, progress);
    if (!plan)
      return plan.takeError();
    if (*plan) {
      if (auto e = tryNarrower(t, req, **plan, progress))
        return std::move(e);
      return std::move(**plan);
    }
    if (failure.doesNotFit)
      return error(llvm::formatv("the model does not fit on --chips {0}: {1}",
                                 req.chips, failure.message));
    return error(failure.message);
  }
  const unsigned group = std::max(t.chip.topology.groupSize, 1u);
  // Gallop over whole groups (1, 2, 4, ... groups past the last count that
  // failed, or straight to the count the compiler names), then bisect back
  // between the last failure and the first success: the fewest whole groups
  // that compile, in O(log) compiles when the allocator (not the
  // partitioner's count) decides.
  unsigned failed = 0, step = group;
  // The topology's largest count (whole groups) is tried last rather than
  // skipped over: past it the compiler refuses the count, not the model.
  const unsigned most = unsigned(
      std::min<uint64_t>(kMaxChips, isa::maxChips(t.chip)) / group * group);
  std::optional<DecodePlan> found;
  for (unsigned chips = 1; chips <= most && !found;) {
    auto plan = tryChips(t, req, chips, failure, progress);
    if (!plan)
      return plan.takeError();
    if (*plan) {
      found = std::move(**plan);
      break;
    }
    if (!failure.doesNotFit)
      return error(failure.message);
    failed = chips;
    const unsigned named = roundUpToGroups(failure.chipsHint, group);
    chips = named > chips ? named : roundUpToGroups(chips + step, group);
    if (named <= failed)
      step *= 2;
    if (chips > most && failed < most)
      chips = most;
  }
  if (!found)
    return error(llvm::formatv("the model does not fit on {0} chips: {1}",
                               failed, failure.message));
  // Whole-group counts strictly between `failed` and the success.
  unsigned lo = failed / group + 1, hi = found->chips / group;
  while (found->chips > group && lo < hi) {
    const unsigned mid = (lo + hi) / 2;
    auto plan = tryChips(t, req, mid * group, failure, progress);
    if (!plan)
      return plan.takeError();
    if (*plan) {
      found = std::move(**plan);
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  found->searched = true;
  if (auto e = tryNarrower(t, req, *found, progress))
    return std::move(e);
  return std::move(*found);
}
