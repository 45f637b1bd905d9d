//===- DecodePlan.h - The chips a deployment needs, both phases timed -*- C++ -*-===//
//
// Finds how many chips the model needs (or uses the number given) by
// compiling: 1 chip if one holds everything, else the smallest number of
// whole groups (topology.group_size chips) for which both the prefill and
// the decode step compile (assuming that a model that fits on n chips fits
// on more). Chip counts the compiler itself rules out (its "N nodes would
// hold them") are skipped; past them the search gallops over groups and
// bisects back, so large models take few compiles. Nothing is guessed from a
// formula.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_TOOLS_DECODEPLAN_H
#define LPX_TOOLS_DECODEPLAN_H

#include "DecodePhase.h"

namespace lpx::cli {

struct DecodeRequest {
  PhaseShape step;                // a decode step: query 1
  std::optional<PhaseShape> prefill; // the prompt; none for a file model
  unsigned chips = 0;             // 0: the fewest that compile
};

struct DecodePlan {
  unsigned chips = 0;
  bool searched = false; // chips found by compiling, not given
  std::optional<PhaseResult> prefill;
  PhaseResult step;
};

/// Told before each compile: which phase, on how many chips, and the
/// compile's stages as they start.
struct PlanProgress {
  std::function<void(llvm::StringRef phase, unsigned chips)> compiling;
  PhaseProgress stage;
};

/// Compiles and simulates both phases. A model that does not fit on the
/// chips given, or on any count up to the topology's reach, is an error
/// whose message has the compiler's numbers.
llvm::Expected<DecodePlan> planDecode(const DecodeTarget &target,
                                      const DecodeRequest &request,
                                      const PlanProgress &progress = {});

} // namespace lpx::cli

#endif
