//===- DecodePlan.cpp - The chips a deployment needs, both phases timed ---===//
#include "lpx/deploy/DecodePlan.h"
#include "lpx/deploy/DeployError.h"
#include "lpx/deploy/ChipSearch.h"

#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <map>
#include <mutex>
#include <thread>

using namespace lpx;
using namespace lpx::deploy;

namespace {

/// The prefill compiled beside the step (DecodeRequest::prefillBesideStep)
/// at a guessed placement, on its own thread.
class PrefillBeside {
public:
  PrefillBeside(const DecodeTarget &t, const PhaseShape &shape,
                unsigned chips, unsigned tp)
      : placed(t) {
    placed.tp = tp;
    placed.pp = chips / tp;
    thread = std::thread([this, shape, chips] {
      result.emplace(runPhase(placed, shape, chips, failure));
    });
  }
  ~PrefillBeside() {
    join();
    if (result)
      llvm::consumeError(result->takeError()); // not taken: a compile error
  }
  void join() {
    if (thread.joinable())
      thread.join();
  }
  /// Its outcome when the step was placed as guessed; none otherwise.
  std::optional<llvm::Expected<std::optional<PhaseResult>>>
  take(const DecodeTarget &step, FitVerdict &why) {
    join();
    if (!result || step.tp != placed.tp || step.pp != placed.pp)
      return std::nullopt;
    why = failure;
    auto out = std::move(result);
    result.reset();
    return out;
  }

private:
  DecodeTarget placed;
  FitVerdict failure;
  std::optional<llvm::Expected<std::optional<PhaseResult>>> result;
  std::thread thread;
};

/// The two phases on `chips` chips; none when either does not compile
/// (`failure` says why). With `besideTp` (a width a step fitted at on
/// fewer chips), the prefill compiles beside the step at that width;
/// `stepTp` is set to the step's width when it fits.
llvm::Expected<std::optional<DecodePlan>>
tryChips(const DecodeTarget &t, const DecodeRequest &req, unsigned chips,
         FitVerdict &failure, const PlanProgress &progress,
         unsigned besideTp = 0, unsigned *stepTp = nullptr) {
  std::optional<PrefillBeside> beside;
  if (besideTp && req.prefill && chips % besideTp == 0) {
    if (progress.compiling)
      progress.compiling("prefill", chips);
    beside.emplace(t, *req.prefill, chips, besideTp);
  }
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
  // The other phases placed as the step is: the same KV state on the same
  // chips.
  DecodeTarget placed = t;
  placed.tp = plan.step.program->program().tp();
  placed.pp = plan.step.program->program().pp();
  if (stepTp)
    *stepTp = placed.tp;
  for (auto [shape, result, name] :
       {std::tuple{&req.prefill, &plan.prefill, "prefill"},
        std::tuple{&req.verify, &plan.verify, "verification step"}}) {
    if (!*shape)
      continue;
    auto phase = [&]() -> llvm::Expected<std::optional<PhaseResult>> {
      if (beside && result == &plan.prefill)
        if (auto done = beside->take(placed, failure))
          return std::move(*done);
      if (progress.compiling)
        progress.compiling(name, chips);
      return runPhase(placed, **shape, chips, failure, progress.stage);
    }();
    if (!phase)
      return phase.takeError();
    if (!*phase)
      return std::nullopt;
    *result = std::move(**phase);
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
      plan.verify = std::move(other.verify);
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
  // The fewest whole groups for which both phases compile (ChipSearch.h):
  // the plan of the fewest count that fitted is kept, and each misfit's
  // verdict. With the prefill beside the step, the width of the step on
  // the most chips below a count is its prefill's guess.
  std::optional<DecodePlan> found;
  std::map<unsigned, FitVerdict> verdicts;
  std::map<unsigned, unsigned> stepFits; // chips -> the step's width
  std::mutex m;
  PlanProgress told; // two compiles at once: told one at a time, no stages
  told.compiling = [&](llvm::StringRef what, unsigned chips) {
    std::lock_guard<std::mutex> lock(m);
    if (progress.compiling)
      progress.compiling(what, chips);
  };
  const PlanProgress &tell = req.prefillBesideStep ? told : progress;
  ChipSearchPolicy policy = wholeGroupsPolicy(t.chip);
  policy.start = req.chipsHint;
  policy.cheapMisfits = req.cheapMisfits;
  auto search = findFewestChips(
      policy,
      [&](unsigned chips) -> llvm::Expected<ChipTrial> {
        FitVerdict verdict;
        unsigned besideTp = 0, stepTp = 0;
        if (auto below = stepFits.lower_bound(chips);
            req.prefillBesideStep && below != stepFits.begin())
          besideTp = std::prev(below)->second;
        auto plan = tryChips(t, req, chips, verdict, tell, besideTp, &stepTp);
        if (!plan)
          return plan.takeError();
        if (stepTp)
          stepFits[chips] = stepTp;
        if (*plan) {
          if (!found || chips < found->chips)
            found = std::move(**plan);
          return ChipTrial{ChipTrial::Fits};
        }
        verdicts[chips] = verdict;
        return ChipTrial{verdict.moreChipsMayHelp() ? ChipTrial::DoesNotFit
                                                    : ChipTrial::Fails,
                         verdict.chipsHint};
      });
  if (!search)
    return search.takeError();
  // The compiler's words for the last count that did not fit.
  auto why = [&](unsigned chips) {
    auto it = verdicts.upper_bound(chips);
    return it == verdicts.begin() ? std::string() : std::prev(it)->second.message;
  };
  if (search->failedAt)
    return error(why(*search->failedAt));
  if (!search->chips)
    return error(llvm::formatv("the model does not fit on {0} chips: {1}",
                               search->lastMisfit, why(search->lastMisfit)));
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
  for (auto [from, to] : {std::pair{&source.prefill, &plan.prefill},
                           std::pair{&source.verify, &plan.verify}}) {
    if (!*from)
      continue;
    auto phase = resimulatePhase(**from, chip);
    if (!phase)
      return phase.takeError();
    *to = std::move(*phase);
  }
  return plan;
}
