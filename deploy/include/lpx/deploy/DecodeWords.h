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

#include "lpx/deploy/DecodeMetrics.h"
#include "lpx/deploy/DeploymentTarget.h"

#include <memory>

namespace lpx::deploy {

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
/// prefill of that many tokens, chunked as `o` asks or chosen.
llvm::Expected<DecodeRequest> decodeRequest(const DecodeTarget &t,
                                            const DecodeNumbers &o,
                                            int64_t context,
                                            int64_t prefillPrompt);

/// One deployment from its words: the target loaded, the preset's shape
/// defaults applied (recorded in the metrics), the shapes checked, then
/// planned and measured. Exports go under `scratchDir`, which the caller
/// owns. `chipsHint` starts the chip search (DecodeRequest::chipsHint).
/// `keepPlan` receives the plan (its programs, for resimulatePlan); with
/// `source`, the words' chip differs from the one `source` was planned on
/// only in keys the compiler does not read, and its programs are simulated
/// again instead of planned (resimulatePlan).
llvm::Expected<DecodeMetrics>
decodeFromWords(const DecodeWords &w, llvm::StringRef scratchDir,
                const PlanProgress &progress, unsigned chipsHint = 0,
                std::shared_ptr<const DecodePlan> *keepPlan = nullptr,
                const DecodePlan *source = nullptr);

} // namespace lpx::deploy

#endif
