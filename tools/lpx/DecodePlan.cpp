//===- DecodePlan.cpp - The chips a deployment needs, both phases timed ---===//
#include "DecodePlan.h"

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
    auto prefill = runPhase(t, *req.prefill, chips, failure, progress.stage);
    if (!prefill)
      return prefill.takeError();
    if (!*prefill)
      return std::nullopt;
    plan.prefill = std::move(**prefill);
  }
  return std::optional<DecodePlan>(std::move(plan));
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
    if (*plan)
      return std::move(**plan);
    if (failure.doesNotFit)
      return error(llvm::formatv("the model does not fit on --chips {0}: {1}",
                                 req.chips, failure.message));
    return error(failure.message);
  }
  const unsigned group = std::max(t.chip.topology.groupSize, 1u);
  for (unsigned chips = 1; chips <= kMaxChips;) {
    auto plan = tryChips(t, req, chips, failure, progress);
    if (!plan)
      return plan.takeError();
    if (*plan) {
      (*plan)->searched = true;
      return std::move(**plan);
    }
    if (!failure.doesNotFit)
      return error(failure.message);
    // The next whole group, or further when the compiler names a count
    // that the weights and cache need at least.
    chips = roundUpToGroups(std::max(chips + 1, failure.chipsHint), group);
  }
  return error(llvm::formatv("the model does not fit on {0} chips: {1}",
                             kMaxChips, failure.message));
}
