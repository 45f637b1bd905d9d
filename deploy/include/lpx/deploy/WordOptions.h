//===- WordOptions.h - The options of a deployment's words ------*- C++ -*-===//
//
// The words structs of this layer (DeploymentArgs, DecodeWords,
// DecodeSweepWords, ServeWords) hold what a command line gives as text;
// each table here names, for each word, its option and what it means, so
// the meaning is written once, beside the rules that read the word, and
// the command line adds the options in a loop, in the table's order.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_WORDOPTIONS_H
#define LPX_DEPLOY_WORDOPTIONS_H

#include "lpx/deploy/DecodeWords.h"
#include "lpx/deploy/ServeRun.h"
#include "lpx/deploy/Speculative.h"
#include "llvm/ADT/ArrayRef.h"

namespace lpx::deploy {

template <typename Words> struct WordOption {
  const char *flags; // "--max-batch", "-o,--output"
  std::string Words::*word;
  const char *help;
};

/// --context, --chips, --tp, --pp, --weights, --activations (--model,
/// --chip and --set are the command line's: required, a default, a list).
llvm::ArrayRef<WordOption<DeploymentArgs>> deploymentWordOptions();
/// --prompt, --batch, --prefill-chunk of `lpx decode`.
llvm::ArrayRef<WordOption<DecodeWords>> decodeWordOptions();
/// --context-sweep, --prompt-sweep, -o and --plot of `lpx decode`.
llvm::ArrayRef<WordOption<DecodeSweepWords>> decodeSweepWordOptions();
/// --draft, --speculate, --accept of `lpx decode` (Speculative.h).
llvm::ArrayRef<WordOption<SpeculativeWords>> speculativeWordOptions();
/// The workload, the policy, the network and the outputs of `lpx serve`.
llvm::ArrayRef<WordOption<ServeWords>> serveWordOptions();

} // namespace lpx::deploy

#endif
