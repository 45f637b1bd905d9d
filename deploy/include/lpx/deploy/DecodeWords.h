//===- DecodeWords.h - One decode deployment from its command-line words -*- C++ -*-===//
//
// What `lpx decode` plans from its words: the deployment (DeploymentTarget.h)
// plus the prompt, the batch and the prefill's chunk, checked, defaulted,
// made into a DecodeRequest, planned (DecodePlan.h) and measured
// (DecodeMetrics.h). A deployment sweep (DeploymentSweep.h) runs this once
// per point, with the point's values in the words.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_DECODEWORDS_H
#define LPX_DEPLOY_DECODEWORDS_H

#include "lpx/deploy/DecodeGenerate.h"
#include "lpx/deploy/DecodeMetrics.h"
#include "lpx/deploy/DeploymentTarget.h"

#include <memory>

namespace lpx::deploy {

struct StudyOptions; // StudyRun.h

/// The options of one decode deployment, as given.
struct DecodeWords : DeploymentArgs {
  std::string prompt, batch = "1"; // validated
  std::string prefillChunk;        // tokens per prefill chunk; "": chosen
  std::string sample;              // "greedy": the prefill returns the token
};

/// Those options as numbers.
struct DecodeNumbers : DeploymentNumbers {
  int64_t prompt = 0, batch = 1;
  int64_t prefillChunk = 0; // 0: chosen
  bool greedy = false;
};
llvm::Error parseDecodeNumbers(const DecodeWords &w, DecodeNumbers &o);

/// The step at `context` and, with `prefillPrompt` (a preset only), the
/// prefill of that many tokens, chunked as `o` asks or chosen; with
/// `verifyTokens`, also a step of that many tokens after the prompt
/// (DecodeRequest::verify; the prompt and it must fit the context).
llvm::Expected<DecodeRequest> decodeRequest(const DecodeTarget &t,
                                            const DecodeNumbers &o,
                                            int64_t context,
                                            int64_t prefillPrompt,
                                            int64_t verifyTokens = 0);

/// One deployment from its words: the target loaded, the preset's shape
/// defaults applied (recorded in the metrics), the shapes checked, then
/// planned and measured. Exports go under `scratchDir`, which the caller
/// owns. `chipsHint` starts the chip search (DecodeRequest::chipsHint).
/// `keepPlan` receives the plan (its programs, for resimulatePlan); with
/// `source`, the words' chip differs from the one `source` was planned on
/// only in keys the compiler does not read, and its programs are simulated
/// again instead of planned (resimulatePlan). `verifyTokens`: see
/// decodeRequest.
llvm::Expected<DecodeMetrics>
decodeFromWords(const DecodeWords &w, llvm::StringRef scratchDir,
                const PlanProgress &progress, unsigned chipsHint = 0,
                std::shared_ptr<const DecodePlan> *keepPlan = nullptr,
                const DecodePlan *source = nullptr, int64_t verifyTokens = 0);

/// The words of `lpx decode`'s context and prompt sweeps, as given.
struct DecodeSweepWords {
  std::string contextSweep; // "512,1024,...": TPOT per context
  std::string promptSweep;  // "128,512,...": TTFT per prompt
  std::string output;       // the sweep's CSV
  std::string plot;         // the sweep's SVG; default: CSV path .svg
};

/// The decode numbers with those of a sweep.
struct DecodeSweepNumbers : DecodeNumbers {
  std::vector<int64_t> sweep;   // contexts of --context-sweep
  std::vector<int64_t> prompts; // prompts of --prompt-sweep
  std::string plot;             // the SVG written (checkDecodeSweepOutputs)
  bool sweeping() const { return !sweep.empty() || !prompts.empty(); }
};

/// The decode numbers, then the sweeps checked against them and against
/// the study options (`study`): a prompt sweep gives the prompts, a study
/// of whole deployments goes without either sweep, and its --metric,
/// --shard and --jobs go with it.
llvm::Error parseDecodeSweep(const DecodeWords &w, const DecodeSweepWords &s,
                             const StudyOptions &study, DecodeSweepNumbers &o);

/// A sweep needs -o (its CSV) and writes its SVG to --plot or beside the
/// CSV (`o.plot`); both are checked as output paths. Without a sweep
/// neither goes.
llvm::Error checkDecodeSweepOutputs(const DecodeSweepWords &s,
                                    DecodeSweepNumbers &o);

/// A sweep's target loaded, the preset's shape defaults applied (a context
/// sweep takes none) and the shapes of every point checked.
llvm::Error loadDecodeSweepTarget(const DecodeWords &w, DecodeSweepNumbers &o,
                                  DecodeTarget &t);

/// `lpx decode --run`'s options from the words and their numbers `o`: the
/// placement, context and prefill chunk, one prompt per "1,2,3" of
/// `promptIds` (none: the prompt "1"), as many as --batch asks.
llvm::Expected<DecodeRunOptions>
decodeRunOptions(const DecodeWords &w, const DecodeNumbers &o,
                 const std::vector<std::string> &promptIds, unsigned tokens);

} // namespace lpx::deploy

#endif
