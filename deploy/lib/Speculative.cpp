//===- Speculative.cpp - Speculative decoding: a draft and a verifier -----===//
#include "lpx/deploy/Speculative.h"
#include "lpx/deploy/DeployError.h"
#include "lpx/isa/StateLayout.h"

#include "llvm/Support/FormatVariadic.h"
#include <cmath>

using namespace lpx;
using namespace lpx::deploy;

std::vector<std::vector<int64_t>> lpx::deploy::measuredPromptSet() {
  std::vector<std::vector<int64_t>> prompts;
  for (int64_t b = 0; b < 4; ++b)
    prompts.push_back({1 + 6 * b, 2 + 6 * b, 3 + 6 * b});
  return prompts;
}

std::optional<std::string>
lpx::deploy::vocabularyMismatch(const models::DecoderConfig &draft,
                                const models::DecoderConfig &target) {
  auto vocabulary = [](const models::DecoderConfig &c) {
    return c.randomWeights
               ? llvm::formatv("{0} plain ids", c.vocab).str()
               : llvm::formatv("{0}'s {1} tokens",
                               models::familyName(c.family), c.vocab)
                     .str();
  };
  const bool same = draft.vocab == target.vocab &&
                    (draft.randomWeights ? target.randomWeights
                                         : !target.randomWeights &&
                                               draft.family == target.family);
  if (same)
    return std::nullopt;
  return llvm::formatv("the draft {0} ({1}) and the target {2} ({3}) do not "
                       "share a vocabulary; a draft proposes the target's "
                       "token ids",
                       draft.name, vocabulary(draft), target.name,
                       vocabulary(target))
      .str();
}

llvm::Error lpx::deploy::parseSpeculative(const SpeculativeWords &w,
                                          llvm::StringRef model,
                                          SpeculativeNumbers &o) {
  if (w.draft.empty()) {
    if (!w.speculate.empty() || !w.accept.empty())
      return error("--speculate and --accept go with --draft");
    return llvm::Error::success();
  }
  o.draft = models::findPreset(w.draft);
  if (!o.draft)
    return error("--draft: " + unknownPresetMessage(w.draft));
  const models::DecoderConfig *target = models::findPreset(model);
  if (!target)
    return error("--draft needs a preset as --model (the target), not '" +
                 model + "'");
  if (auto mismatch = vocabularyMismatch(*o.draft, *target))
    return error(*mismatch);
  if (w.speculate.empty())
    return error("--draft needs --speculate K (the tokens it proposes per "
                 "round)");
  if (w.speculate.find_first_not_of("0123456789") != std::string::npos ||
      w.speculate.size() > 3 || std::stoll(w.speculate) < 1 ||
      std::stoll(w.speculate) > kMaxSpeculate)
    return error(llvm::formatv("--speculate '{0}' is not a number of tokens "
                               "from 1 to {1}",
                               w.speculate, kMaxSpeculate));
  o.k = std::stoll(w.speculate);
  if (w.accept.empty() || w.accept == "measured") {
    o.measured = true;
    for (const models::DecoderConfig *c : {o.draft, target})
      if (!c->randomWeights)
        return error(llvm::Twine("--accept measured runs draft and target "
                                 "on the CPU runtime, which holds only the "
                                 "test presets' weights; give --accept A "
                                 "for ") +
                     c->name);
    return llvm::Error::success();
  }
  double a = 0;
  if (llvm::StringRef(w.accept).getAsDouble(a) || !(a > 0 && a <= 1))
    return error("--accept '" + w.accept + "' is not a rate in (0, 1] or "
                 "'measured'");
  o.accept = a;
  return llvm::Error::success();
}

llvm::Error lpx::deploy::parseSpeculativeRun(const SpeculativeWords &w,
                                             llvm::StringRef model,
                                             SpeculativeNumbers &o) {
  if (!w.draft.empty() && !w.accept.empty())
    return error("--accept goes without --run: a speculative --run measures "
                 "the acceptance");
  return parseSpeculative(w, model, o);
}


llvm::Expected<SpeculativeMetrics>
lpx::deploy::planSpeculative(const DecodeWords &w, const SpeculativeNumbers &s,
                             const PlanProgress &progress,
                             DecodeMetrics &target) {
  ScratchDir scratch;
  if (auto e = scratch.create("lpx-decode"))
    return std::move(e);
  const llvm::StringRef scratchDir = scratch.path;
  // The target's chips hold its decode step, its prefill and the
  // verification of K + 1 tokens, all placed alike (DecodeRequest::verify).
  std::shared_ptr<const DecodePlan> plan;
  auto planned =
      decodeFromWords(w, scratchDir, progress, 0, &plan, nullptr, s.k + 1);
  if (!planned)
    return planned.takeError();
  target = std::move(*planned);
  const PhaseResult &verify = *plan->verify;
  if (auto e = isa::checkSameState(verify.program->program(),
                                   "the verification step",
                                   plan->step.program->program(),
                                   "the decode step"))
    return error(llvm::formatv("the compiler places the verification of {0} "
                               "tokens with a KV cache other than the decode "
                               "step's, so it cannot continue from it: {1}",
                               s.k + 1, llvm::toString(std::move(e))));

  // The draft: its own chips (its own search), the target's shapes.
  DecodeWords dw = w;
  dw.model = s.draft->name;
  dw.chips = dw.tp = dw.pp = "";
  dw.context = std::to_string(target.context);
  dw.prompt = std::to_string(target.prompt);
  PlanProgress draftProgress = progress;
  if (progress.compiling)
    draftProgress.compiling = [&](llvm::StringRef phase, unsigned chips) {
      progress.compiling(("draft " + phase).str(), chips);
    };
  auto draft = decodeFromWords(dw, scratchDir, draftProgress);
  if (!draft)
    return error("the draft " + dw.model + ": " +
                 llvm::toString(draft.takeError()));

  SpeculativeMetrics m;
  m.draft = s.draft->name;
  m.k = s.k;
  m.measured = s.measured;
  m.draftDeployment = std::move(*draft);
  m.draftStepUs = m.draftDeployment.tpotUs();
  m.verifyComputeUs = verify.computeUs();
  m.verifyHostUs = verify.hostUs();
  m.verifyBottleneck = bottleneckOf(verify.sim);
  if (s.measured) {
    DecodeRunOptions run;
    run.model = w.model;
    run.chip = w.chip;
    run.sets = w.sets;
    run.chips = target.chips;
    run.context = target.context;
    run.prompts = measuredPromptSet();
    run.tokens = unsigned(std::min<int64_t>(
        kMeasuredTokens, target.context - run.prompts.front().size() - s.k + 1));
    if (run.tokens < 1)
      return error(llvm::formatv("--accept measured: a round of {0} tokens "
                                 "after the prompts of {1} leaves no room in "
                                 "the context of {2}",
                                 s.k + 1, run.prompts.front().size(),
                                 target.context));
    auto r = generateSpeculative(run, m.draft, m.draftDeployment.chips, s.k);
    if (!r)
      return error("--accept measured: " + llvm::toString(r.takeError()));
    m.rounds = r->rounds;
    m.measuredPrompts = unsigned(run.prompts.size());
    m.acceptance = m.rounds.acceptance();
    m.tokensPerRound = m.rounds.tokensPerRound();
    m.allAcceptedShare = double(m.rounds.allAccepted) / m.rounds.rounds;
  } else {
    const double a = s.accept;
    m.acceptance = a;
    m.tokensPerRound =
        a == 1 ? double(s.k + 1) : (1 - std::pow(a, s.k + 1)) / (1 - a);
    m.allAcceptedShare = std::pow(a, s.k);
  }
  m.roundUs = (s.k + m.allAcceptedShare) * m.draftStepUs + m.verifyStepUs();
  m.tokensPerSecondPerUser = m.tokensPerRound / m.roundUs * 1e6;
  m.targetTokensPerSecondPerUser = target.tokensPerSecondPerUser;
  m.targetChips = target.chips;
  return m;
}

static std::string placementOf(const DecodeMetrics &d) {
  if (!d.tp)
    return llvm::formatv("{0} chip(s)", d.chips).str();
  return llvm::formatv("{0} chips, tp {1} x pp {2}", d.chips, d.tp, d.pp).str();
}

void lpx::deploy::printSpeculativeText(const SpeculativeMetrics &m,
                                       llvm::raw_ostream &os) {
  const DecodeMetrics &d = m.draftDeployment;
  os << "speculative decoding: draft " << m.draft << ", K = " << m.k << "\n";
  os << llvm::formatv("  draft: {0} of its own; step {1:f1} us ({2:f1} "
                      "simulated + {3:f1} host I/O)\n",
                      placementOf(d), m.draftStepUs, d.tpotComputeUs,
                      d.tpotHostUs);
  os << llvm::formatv("  verification of {0} tokens on the target's chips: "
                      "{1:f1} us ({2:f1} simulated + {3:f1} host I/O); "
                      "bottleneck: {4}\n",
                      m.k + 1, m.verifyStepUs(), m.verifyComputeUs,
                      m.verifyHostUs, m.verifyBottleneck);
  if (m.measured)
    os << llvm::formatv(
        "  acceptance {0:f3} measured on the CPU runtime: {1} prompts, {2} "
        "rounds, {3} of {4} drafts compared kept; {5:f2} tokens per round "
        "(measured)\n",
        m.acceptance, m.measuredPrompts, m.rounds.rounds, m.rounds.accepted,
        m.rounds.trials, m.tokensPerRound);
  else
    os << llvm::formatv("  acceptance {0:f3} given: (1 - a^(K+1)) / (1 - a) "
                        "= {1:f2} tokens per round\n",
                        m.acceptance, m.tokensPerRound);
  os << llvm::formatv("  round: {0} draft steps + {1:f2} catch-up + the "
                      "verification = {2:f1} us\n",
                      m.k, m.allAcceptedShare, m.roundUs);
  os << llvm::formatv("  tokens/s per user: {0:f1} (without speculation "
                      "{1:f1}, x{2:f2}); chips: {3} target + {4} draft\n",
                      m.tokensPerSecondPerUser, m.targetTokensPerSecondPerUser,
                      m.tokensPerSecondPerUser / m.targetTokensPerSecondPerUser,
                      m.targetChips, d.chips);
}

llvm::json::Object lpx::deploy::speculativeJson(const SpeculativeMetrics &m) {
  const DecodeMetrics &d = m.draftDeployment;
  llvm::json::Object o{
      {"draft", m.draft},
      {"k", m.k},
      {"acceptance", m.acceptance},
      {"acceptance_source", m.measured ? "measured" : "given"},
      {"draft_chips", d.chips},
      {"draft_tp", d.tp ? llvm::json::Value(d.tp) : nullptr},
      {"draft_pp", d.tp ? llvm::json::Value(d.pp) : nullptr},
      {"draft_step_us", m.draftStepUs},
      {"draft_step_compute_us", d.tpotComputeUs},
      {"draft_step_host_io_us", d.tpotHostUs},
      {"verify_step_us", m.verifyStepUs()},
      {"verify_step_compute_us", m.verifyComputeUs},
      {"verify_step_host_io_us", m.verifyHostUs},
      {"verify_bottleneck", m.verifyBottleneck},
      {"all_accepted_share", m.allAcceptedShare},
      {"round_us", m.roundUs},
      {"tokens_per_round", m.tokensPerRound},
      {"tokens_per_second_per_user", m.tokensPerSecondPerUser},
      {"target_tokens_per_second_per_user", m.targetTokensPerSecondPerUser},
  };
  if (m.measured)
    o["measured"] = llvm::json::Object{{"prompts", m.measuredPrompts},
                                       {"rounds", m.rounds.rounds},
                                       {"drafted", m.rounds.drafted},
                                       {"compared", m.rounds.trials},
                                       {"accepted", m.rounds.accepted},
                                       {"all_accepted_rounds",
                                        m.rounds.allAccepted},
                                       {"tokens", m.rounds.tokens}};
  return o;
}

void lpx::deploy::printSpeculativeDecode(const DecodeMetrics &target,
                                         const SpeculativeMetrics &m,
                                         bool json, llvm::raw_ostream &os) {
  if (!json) {
    printDecodeText(target, os);
    printSpeculativeText(m, os);
    return;
  }
  llvm::json::Object o = decodeJson(target);
  o["speculative"] = speculativeJson(m);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(o))) << "\n";
}
