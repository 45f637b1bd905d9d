//===- DecodePlan.cpp - The chips a deployment needs, both phases timed ---===//
#include "lpx/deploy/DecodePlan.h"
#include "lpx/deploy/DeployError.h"
#include "lpx/deploy/ChipSearch.h"

#include "llvm/Support/FormatVariadic.h"
#include <algorithm>

using namespace lpx;
using namespace lpx::deploy;

namespace {

/// The two phases on `chips` chips; none when either does not compile
/// (`failure` says why).
llvm::Expected<std::optional<DecodePlan>>
tryChips(const DecodeTarget &t, const DecodeRequest &req, unsigned chips,
         FitVerdict &failure, const PlanProgress &progress) {
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
    FitVerdict failure;
    auto tried = tryChips(narrower, req, plan.chips, failure, progress);
    if (!tried)
      return tried.takeError();
    if (!*tried) {
      plan.trials.push_back({width, plan.chips / width, 0, false,
                             failure.moreChipsMayHelp(), failure.message});
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

llvm::Expected<PhaseShape>
lpx::deploy::prefillShape(int64_t prompt, int64_t batch, int64_t context,
                          int64_t chunk, std::string &why) {
  const bool asked = chunk > 0;
  if (!asked) {
    const int64_t share = (prompt + kMaxPrefillChunks - 1) / kMaxPrefillChunks;
    chunk = std::max(kMinPrefillChunk, (share + 31) / 32 * 32);
  }
  PhaseShape s{prompt, prompt, batch, context};
  s.logitsAt = prompt - 1;
  if (chunk >= prompt) {
    why = asked ? "the prompt is one --prefill-chunk"
                : llvm::formatv("the prompt is one chunk of at least {0} "
                                "tokens",
                                kMinPrefillChunk)
                      .str();
    return s;
  }
  const int64_t chunks = (prompt + chunk - 1) / chunk;
  if (chunks * chunk > context)
    return error(llvm::formatv(
        "{0} chunks of {1} tokens (the prompt {2}, padded) need {3} cache "
        "positions; the context is {4} (use a --prefill-chunk that divides "
        "the prompt, or a longer --context)",
        chunks, chunk, prompt, chunks * chunk, context));
  s.context = context;
  s.query = chunk;
  s.chunks = chunks;
  s.logitsAt = prompt - 1 - (chunks - 1) * chunk;
  why = asked ? std::string("--prefill-chunk")
              : llvm::formatv("chosen: at most {0} chunks of at least {1} "
                              "tokens, so the stages overlap chunks and a "
                              "chunk's temporaries, not the prompt's, sit "
                              "beside the weights and cache",
                              kMaxPrefillChunks, kMinPrefillChunk)
                    .str();
  return s;
}

llvm::Expected<DecodePlan> lpx::deploy::planDecode(const DecodeTarget &t,
                                                const DecodeRequest &req,
                                                const PlanProgress &progress) {
  FitVerdict failure;
  if (req.chips) {
    auto plan = tryChips(t, req, req.chips, failure, progress);
    if (!plan)
      return plan.takeError();
    if (*plan) {
      if (auto e = tryNarrower(t, req, **plan, progress))
        return std::move(e);
      return std::move(**plan);
    }
    if (failure.moreChipsMayHelp())
      return error(llvm::formatv("the model does not fit on --chips {0}: {1}",
                                 req.chips, failure.message));
    return error(failure.message);
  }
  // The fewest whole groups for which both phases compile (ChipSearch.h);
  // the plan of the last count that fitted is the plan of the fewest.
  std::optional<DecodePlan> found;
  ChipSearchPolicy policy = wholeGroupsPolicy(t.chip);
  policy.start = req.chipsHint;
  auto search = findFewestChips(
      policy,
      [&](unsigned chips) -> llvm::Expected<ChipTrial> {
        return chipTrial(tryChips(t, req, chips, failure, progress), found,
                         failure);
      });
  if (!search)
    return search.takeError();
  if (search->failedAt)
    return error(failure.message);
  if (!search->chips)
    return error(llvm::formatv("the model does not fit on {0} chips: {1}",
                               search->lastMisfit, failure.message));
  found->searched = true;
  found->searchCompiles = search->trials;
  found->hintConfirmed = search->startConfirmed;
  if (auto e = tryNarrower(t, req, *found, progress))
    return std::move(e);
  return std::move(*found);
}

llvm::Expected<DecodePlan>
lpx::deploy::resimulatePlan(const DecodePlan &source,
                            const isa::ChipSpec &chip) {
  DecodePlan plan;
  plan.chips = source.chips;
  // The placements tried keep the step times measured on the source's
  // chip: the keys that differ scale or shift every trial alike.
  plan.trials = source.trials;
  auto step = resimulatePhase(source.step, chip);
  if (!step)
    return step.takeError();
  plan.step = std::move(*step);
  if (source.prefill) {
    auto prefill = resimulatePhase(*source.prefill, chip);
    if (!prefill)
      return prefill.takeError();
    plan.prefill = std::move(*prefill);
  }
  return plan;
}
