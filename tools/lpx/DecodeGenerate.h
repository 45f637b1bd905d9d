//===- DecodeGenerate.h - Greedy generation through the CPU runtime -*- C++ -*-===//
//
// `lpx decode --run`: the decode path checked for values. The model is
// compiled with its KV cache resident in SRAM (lpx-resident-kv) for N chips
// and run step by step on rt::Machine, which keeps the cache between runs:
// each step the host writes only the token, its position and the attention
// mask, and reads only the logits.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_TOOLS_DECODEGENERATE_H
#define LPX_TOOLS_DECODEGENERATE_H

#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>
#include <vector>

namespace lpx::cli {

struct DecodeRunOptions {
  std::string model;            // a preset name (`lpx models list`) or FILE.onnx
  std::string chip;             // preset or description file; empty: default
  unsigned chips = 1;
  int64_t context = 0;          // a preset's cache positions; 0: its default
  std::vector<int64_t> promptIds;
  unsigned tokens = 32;         // tokens to generate
};

struct DecodeRunResult {
  std::vector<int64_t> generatedIds;
  std::vector<std::vector<float>> logits; // per step, prompt steps included
  int64_t context = 0;
  uint64_t hostInputBytes = 0, hostOutputBytes = 0; // per step
  uint64_t stateBytes = 0; // resident KV cache, all chips
};

/// Compiles `opts.model` with a resident KV cache and generates greedily:
/// prompt tokens are fed one step at a time (position = step, the mask
/// covering positions 0..step), then each step's argmax (the first of
/// equal maxima) is the next token. Errors are one line.
llvm::Expected<DecodeRunResult> generateGreedy(const DecodeRunOptions &opts);

/// `lpx decode --run`: prints the generated ids (or, with `json`, an object
/// with `generated_ids` and every step's `logits`). Returns an exit code.
int runDecodeGenerate(const DecodeRunOptions &opts, bool json);

/// "1,2,3" as ids; an error names the bad entry.
llvm::Expected<std::vector<int64_t>> parseIdList(llvm::StringRef text);

} // namespace lpx::cli

#endif
