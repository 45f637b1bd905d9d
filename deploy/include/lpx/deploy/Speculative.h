//===- Speculative.h - Speculative decoding: a draft and a verifier -*- C++ -*-===//
//
// `lpx decode --draft PRESET --speculate K [--accept A|measured]`: a draft
// model proposes K tokens, one decode step each, and the target checks them
// in one step of K + 1 tokens against its resident cache (the chunked
// prefill's "step of C tokens into the L-position cache", C = K + 1); the
// longest prefix the target agrees with is kept, plus the target's own next
// token. The draft's step and the target's verification are compiled and
// simulated on the chips each needs (the draft on chips of its own, found
// by its own search; the verification on the target's chips, with the
// target's placement and the same resident state), and tokens/s per user
// follows from those simulated times and an acceptance rate, given or
// measured by running both greedily on the CPU runtime
// (SpeculativeGenerate.cpp). docs/decode.md, "Speculative decoding".
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_SPECULATIVE_H
#define LPX_DEPLOY_SPECULATIVE_H

#include "lpx/deploy/DecodeWords.h"

namespace lpx::deploy {

/// The words of speculative decoding, as given.
struct SpeculativeWords {
  std::string draft;     // the draft's preset
  std::string speculate; // K, the tokens the draft proposes per round
  std::string accept;    // A in (0, 1], or "measured" (the default)
};
// Its options' table: speculativeWordOptions (WordOptions.h).

/// At most this many drafted tokens per round: at a per-token acceptance
/// of 0.95 a round of 65 tokens already yields 96% of the 1 / (1 - a)
/// tokens no K exceeds; a longer round only lengthens the verification.
inline constexpr int64_t kMaxSpeculate = 64;

/// The prompts acceptance is measured over without --prompt-ids: those of
/// the onnxruntime references (models/reference/decode.mjs: 1, 2, 3 plus
/// 6 b for sequence b), four of them, and the tokens generated after each.
std::vector<std::vector<int64_t>> measuredPromptSet();
inline constexpr unsigned kMeasuredTokens = 32;

struct SpeculativeNumbers {
  const models::DecoderConfig *draft = nullptr; // null: no speculation
  int64_t k = 0;
  double accept = 0;     // given; 0 when measured
  bool measured = false; // run on the CPU runtime
  bool active() const { return draft != nullptr; }
};

/// The words checked against the target `model`: the draft a preset, the
/// target a preset of the same vocabulary, K from 1 to kMaxSpeculate,
/// --accept in (0, 1] or "measured" (the test presets only: the CPU
/// runtime holds their weights). Without --draft, none of the others.
llvm::Error parseSpeculative(const SpeculativeWords &w, llvm::StringRef model,
                             SpeculativeNumbers &o);

/// As parseSpeculative, for `lpx decode --run`, which measures the
/// acceptance: --accept goes without it.
llvm::Error parseSpeculativeRun(const SpeculativeWords &w,
                                llvm::StringRef model, SpeculativeNumbers &o);

/// Why --draft refuses the other modes of `lpx decode`.
inline constexpr const char *kSpeculativeAlone =
    "--draft times one deployment; --sweep, --sensitivity, --context-sweep, "
    "--prompt-sweep and --report go without it";

/// Whether two presets propose and read the same token ids, and if not a
/// line saying why. Presets carry no tokenizer: a published model's ids
/// are its family's tokenizer of that size (Llama 2's and Mixtral's are
/// both 32,000 pieces, but not the same pieces); the test presets' ids are
/// plain numbers, shared by any two of one size.
std::optional<std::string> vocabularyMismatch(const models::DecoderConfig &draft,
                                              const models::DecoderConfig &target);

/// What a greedy speculative run did, summed over its rounds: a round is
/// K draft steps and one verification of K + 1 tokens; `trials` counts the
/// drafted tokens compared up to the first the target rejects, so
/// accepted / trials is the per-token acceptance rate.
struct SpeculativeRounds {
  int64_t rounds = 0, drafted = 0, trials = 0, accepted = 0;
  int64_t allAccepted = 0; // rounds whose K drafts were all kept
  int64_t tokens = 0;      // kept per round (accepted + the target's), summed
  double acceptance() const { return trials ? double(accepted) / trials : 0; }
  double tokensPerRound() const { return rounds ? double(tokens) / rounds : 0; }
};

/// The speculative deployment's figures, from simulated step times.
struct SpeculativeMetrics {
  std::string draft;
  int64_t k = 0;
  double acceptance = 0;
  bool measured = false;
  SpeculativeRounds rounds; // measured: over the prompt set
  unsigned measuredPrompts = 0;
  /// Tokens kept per round: (1 - a^(K+1)) / (1 - a) for a given per-token
  /// acceptance a (K + 1 at a = 1), or the measured mean.
  double tokensPerRound = 0;
  /// Rounds whose drafts were all kept (a^K, or measured): the draft then
  /// takes one more step, on its last draft, before it proposes again.
  double allAcceptedShare = 0;
  DecodeMetrics draftDeployment; // the draft planned as lpx decode plans it
  double draftStepUs = 0;        // its TPOT: step + host I/O
  double verifyComputeUs = 0, verifyHostUs = 0;
  double verifyStepUs() const { return verifyComputeUs + verifyHostUs; }
  std::string verifyBottleneck; // bottleneckOf its simulation
  /// K draft steps, the verification and the draft's catch-up share.
  double roundUs = 0;
  double tokensPerSecondPerUser = 0;
  double targetTokensPerSecondPerUser = 0; // without speculation: 1 / TPOT
  unsigned targetChips = 0; // the target's, which verify
};

/// Plans the target as `lpx decode` does (its figures in `target`), then
/// compiles and simulates its verification of K + 1 tokens on the target's
/// chips with its placement (the same resident state: isa::checkSameState
/// against the decode step), plans the draft on chips of its own (same
/// chip, context, prompt, batch and formats), and, when measured, runs both
/// greedily on the CPU runtime over measuredPromptSet().
/// Exports go to a private scratch folder, removed on return.
llvm::Expected<SpeculativeMetrics>
planSpeculative(const DecodeWords &w, const SpeculativeNumbers &s,
                const PlanProgress &progress, DecodeMetrics &target);

void printSpeculativeText(const SpeculativeMetrics &m, llvm::raw_ostream &os);
/// The `speculative` object of `lpx decode --json`.
llvm::json::Object speculativeJson(const SpeculativeMetrics &m);
/// The target's report (printDecodeText, decodeJson) with the speculative
/// figures after it (text) or as its `speculative` key (JSON).
void printSpeculativeDecode(const DecodeMetrics &target,
                            const SpeculativeMetrics &m, bool json,
                            llvm::raw_ostream &os);

/// Greedy speculative decoding on the CPU runtime: `target` (its model,
/// chip, chips, placement, context, prompts and tokens) verifies what
/// `draft` (compiled for `draftChips` chips, the compiler's placement)
/// proposes, K tokens a round. Each prompt is a sequence of its own (batch
/// 1: sequences keep different numbers of drafts). The generated ids are
/// the target's greedy ids, token for token.
struct SpeculativeRunResult {
  std::vector<std::vector<int64_t>> generatedIds; // per prompt
  SpeculativeRounds rounds;
};
llvm::Expected<SpeculativeRunResult>
generateSpeculative(const DecodeRunOptions &target, llvm::StringRef draft,
                    unsigned draftChips, int64_t k);

/// `lpx decode --run --draft D --speculate K`: generateSpeculative with
/// the run's chips for the draft, then what it prints: the ids per prompt
/// and the rounds (text), or `generated_ids` (a list per prompt) and
/// `speculative` (JSON).
llvm::Error runSpeculative(const DecodeRunOptions &target,
                           const SpeculativeNumbers &s, bool json,
                           llvm::raw_ostream &os);

} // namespace lpx::deploy

#endif
