//===- DecodeGenerate.h - Greedy generation through the CPU runtime -*- C++ -*-===//
//
// `lpx decode --run`: the decode path checked for values. A preset is
// compiled twice with its KV cache resident in SRAM (lpx-resident-kv) for N
// chips: the prefill of the prompt (S tokens per sequence, written into the
// cache in place) and the decode step. Both programs expect the same state
// (program format 3.2 binds it by name); the prefill runs once on one
// rt::Machine, hands the cache to the step's machine, and the step runs per
// token. The host writes only token ids, positions and the attention mask,
// and reads only the logits. B prompts of equal length run as one batch.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_DECODEGENERATE_H
#define LPX_DEPLOY_DECODEGENERATE_H

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include "lpx/isa/Program.h"
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace lpx::deploy {

struct DecodeRunOptions {
  std::string model;            // a preset name (`lpx models list`) or FILE.onnx
  std::string chip;             // preset or description file; empty: default
  std::vector<std::string> sets; // --set key=value changes to the chip
  unsigned chips = 1;
  unsigned tp = 0, pp = 0;      // the placement (--tp/--pp); 0: chosen
  int64_t context = 0;          // a preset's cache positions; 0: its default
  /// One prompt per sequence of the batch, all of one length.
  std::vector<std::vector<int64_t>> prompts;
  unsigned tokens = 32;         // tokens to generate per sequence
  /// Also prefill in chunks of this many tokens (one program of the
  /// chunks, as `lpx decode` times it), check its cache (the prompt's
  /// positions) and first token against the whole-prompt prefill's, and
  /// generate from the chunked cache; 0: no chunked prefill.
  int64_t prefillChunk = 0;
};

struct DecodeRunResult {
  std::vector<std::vector<int64_t>> generatedIds; // per sequence
  /// Per position fed (prompt positions included), per sequence: the logits.
  std::vector<std::vector<std::vector<float>>> logits;
  int64_t context = 0;
  /// Whether the prompt ran through a prefill program (a preset with a
  /// prompt of 2 or more tokens); otherwise one step per prompt token.
  bool prefill = false;
  uint64_t hostInputBytes = 0, hostOutputBytes = 0; // per decode step
  uint64_t prefillInputBytes = 0, prefillOutputBytes = 0; // once, if prefill
  uint64_t stateBytes = 0; // resident KV cache, all chips
  /// With prefillChunk: the chunks run, and the largest difference between
  /// the chunked and whole-prompt caches at the prompt's positions.
  int64_t prefillChunks = 0;
  double chunkedCacheMaxDiff = 0;
  std::shared_ptr<const isa::VerifiedProgram> chunkedProgram; // its program
};

/// Compiles `opts.model` with a resident KV cache and generates greedily:
/// the prompts go through the prefill (an ONNX file, which is a decode step
/// only, takes them one token per step), then each step's argmax (the first
/// of equal maxima) is every sequence's next token. Errors are one line.
llvm::Expected<DecodeRunResult> generateGreedy(const DecodeRunOptions &opts);

/// "1,2,3" as ids; an error names the bad entry.
llvm::Expected<std::vector<int64_t>> parseIdList(llvm::StringRef text);

/// What `lpx decode --run` prints: the generated ids, one line per
/// sequence, after a line of what ran (text); `generated_ids` and every fed
/// position's `logits`, per sequence when there are several (JSON).
void printDecodeRunText(const DecodeRunOptions &opts, const DecodeRunResult &r,
                        llvm::raw_ostream &os);
void printDecodeRunJson(const DecodeRunOptions &opts, const DecodeRunResult &r,
                        llvm::raw_ostream &os);

} // namespace lpx::deploy

#endif
