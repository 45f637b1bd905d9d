//===- DecodePlan.h - The chips a deployment needs, both phases timed -*- C++ -*-===//
//
// Finds how many chips the model needs (or uses the number given) by
// compiling: 1 chip if one holds everything, else the smallest number of
// whole groups (topology.group_size chips) for which both the prefill and
// the decode step compile (assuming that a model that fits on n chips fits
// on more). Chip counts the compiler itself rules out (its "N nodes would
// hold them") are skipped; past them the search gallops over groups and
// bisects back, so large models take few compiles (ChipSearch.h,
// wholeGroupsPolicy). On the count found, the
// narrower tensor-parallel widths are tried too and the fastest decode step
// kept. Nothing is guessed from a formula.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_DECODEPLAN_H
#define LPX_DEPLOY_DECODEPLAN_H

#include "lpx/deploy/DecodePhase.h"

namespace lpx::deploy {

struct DecodeRequest {
  PhaseShape step;                // a decode step: query 1
  std::optional<PhaseShape> prefill; // the prompt; none for a file model
  /// A step of several tokens into the step's cache (speculative decoding's
  /// verification, Speculative.h), compiled on the same chips and placed
  /// as the step, so that a count fits only when it compiles too.
  std::optional<PhaseShape> verify;
  unsigned chips = 0;             // 0: the fewest that compile
  /// With chips 0: a count to try first, e.g. a neighbouring deployment's
  /// (ChipSearchPolicy::start); verified by compiling, never trusted.
  unsigned chipsHint = 0;
  /// With chips 0 and a prefill: once a step has fitted on fewer chips,
  /// each count's prefill compiles beside its step on a second thread,
  /// placed as that step was (the same width, the count over it in
  /// stages), and again after the step where the step is placed otherwise:
  /// a count's two compiles at once, every count the serial search's.
  bool prefillBesideStep = false;
  /// With chips 0: the bisection leans to misfits, which stop early
  /// (ChipSearchPolicy::cheapMisfits; the count found is the same).
  bool cheapMisfits = false;
  int64_t prompt = 0;             // the prompt's tokens (0: prefill->query)
  /// How the prefill chunk was chosen, as the report says it ("" when
  /// there is no prefill).
  std::string chunkWhy;
};

/// Without --prefill-chunk: at most this many chunks (the program holds
/// one copy of the chunk step per chunk, so compile time grows with them)
/// of at least kMinPrefillChunk tokens, so a prompt up to that long is one
/// pass (llama2-70b's 128-token prefill on 576 tsp-v1 chips fits no more
/// in 4 chunks of 32: 30 bytes short on chip 0, and compiles in 5 minutes).
inline constexpr int64_t kMaxPrefillChunks = 8;
inline constexpr int64_t kMinPrefillChunk = 256;

/// The prefill of `prompt` tokens per sequence into `context` cache
/// positions, its last position's logits returned. `chunk` tokens per
/// chunk (0: the prompt over kMaxPrefillChunks rounded up to a multiple
/// of 32, and at least kMinPrefillChunk, so enough chunks to overlap the
/// stages and each chunk's temporaries at most an eighth of the prompt's;
/// measured on llama2-7b in docs/decode.md): a prompt no longer than one
/// chunk is
/// one pass of the prompt (no past); a longer one is ceil(prompt / chunk)
/// chunks of the chunk step into the cache, the last padded after the
/// prompt (its padding writes cache positions past the prompt, which the
/// decode step overwrites before it reads them). `why` says how the chunk
/// was chosen. The padded prompt must fit in the context.
llvm::Expected<PhaseShape> prefillShape(int64_t prompt, int64_t batch,
                                        int64_t context, int64_t chunk,
                                        std::string &why);

/// A placement tried on the plan's chips: its decode step's simulated
/// time, or why it did not compile.
struct PlacementTrial {
  unsigned tp = 0, pp = 0;
  double stepUs = 0;
  bool compiled = false, doesNotFit = false;
  std::string failure;
};

struct DecodePlan {
  unsigned chips = 0;
  bool searched = false; // chips found by compiling, not given
  unsigned searchCompiles = 0; // counts compiled by the search
  bool hintConfirmed = false;  // the request's chipsHint was the fewest
  std::optional<PhaseResult> prefill;
  PhaseResult step;
  std::optional<PhaseResult> verify; // DecodeRequest::verify's
  /// Without --tp/--pp: the compiler's placement, then each narrower
  /// tensor-parallel width that divides its (more stages of fewer chips)
  /// on the same chips; the plan is the fastest step of those whose both
  /// phases compile. Empty when the placement was asked for or there is
  /// no tensor-parallel mesh.
  std::vector<PlacementTrial> trials;
};

/// Told before each compile: which phase, on how many chips, and the
/// compile's stages as they start.
struct PlanProgress {
  std::function<void(llvm::StringRef phase, unsigned chips)> compiling;
  PhaseProgress stage;
};

/// Compiles and simulates both phases, and picks the fastest placement on
/// those chips (`DecodePlan::trials`). A model that does not fit on the
/// chips given, or on any count up to the topology's reach, is an error
/// whose message has the compiler's numbers.
llvm::Expected<DecodePlan> planDecode(const DecodeTarget &target,
                                      const DecodeRequest &request,
                                      const PlanProgress &progress = {});

/// The plan of `source`'s chips and placement with both phases simulated
/// again on `chip`, which differs from the chip `source` was compiled for
/// only in keys the compiler does not read (compilerReadsKey): what
/// planDecode on `chip` would give, without a compile. Not searched, so
/// it counts no search compiles.
llvm::Expected<DecodePlan> resimulatePlan(const DecodePlan &source,
                                          const isa::ChipSpec &chip);

} // namespace lpx::deploy

#endif
