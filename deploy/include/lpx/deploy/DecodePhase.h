//===- DecodePhase.h - One phase of decode, compiled and simulated -*- C++ -*-===//
//
// `lpx decode` times two programs of the same model: the prefill of the
// prompt and one decode step. Each is exported from the preset (shape-only
// weights: timing needs no values), compiled for a number of chips and
// simulated; what the command reports is read from the compiled program (its
// buffer table) and the simulation, never from a formula.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_DECODEPHASE_H
#define LPX_DEPLOY_DECODEPHASE_H

#include "lpx/deploy/FitVerdict.h"
#include "lpx/deploy/PhaseTimeline.h"
#include "lpx/isa/Program.h"
#include "lpx/models/Presets.h"
#include "lpx/sim/Simulator.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace lpx::deploy {

/// What is being deployed, shared by every phase and chip count.
struct DecodeTarget {
  const models::DecoderConfig *preset = nullptr; // null: `modelFile` as is
  std::string modelFile;                         // a decode-step ONNX model
  isa::ChipSpec chip;
  std::string weights, activations; // number formats; empty: the model's
  bool weightsFromChip = false, activationsFromChip = false; // the chip's formats
  unsigned tp = 0, pp = 0;          // 0: the compiler's placement
  /// An ONNX file without a KV cache to keep resident (its step is compiled
  /// as it is); presets always have one.
  bool noResidentKV = false;
  std::string scratchDir;           // where exports are written and removed
};

/// The shape of one phase: `query` tokens per sequence into a cache of
/// `context` positions, for `batch` sequences. A prefill (query = context,
/// no past) keeps the prompt's cache resident in the `cache` positions of
/// its decode step's state.
struct PhaseShape {
  int64_t context = 0, query = 1, batch = 1;
  int64_t cache = 0;
  /// The query position whose logits the phase returns (the LM head on
  /// that row only, as serving engines compute a prefill); -1: every
  /// position's. `argmax`: its greedy token instead (`--sample greedy`).
  int64_t logitsAt = -1;
  bool argmax = false;
  /// A chunked prefill: `query` is the chunk, written into the `context`
  /// positions of resident state at its positions, and the program runs
  /// `chunks` of them pipelined through the stages (lpx-unroll-chunks);
  /// 1: one pass of the phase as exported.
  int64_t chunks = 1;
  /// Each of the `query` rows replicated over its tensor-parallel group as
  /// a decode step's one row is (CompileOptions::replicateBytes per row):
  /// a speculative verification of a few tokens, placed like the step.
  bool replicateRows = false;
  /// The FFN blocks alone (models::ExportOptions::ffnOnly): no attention,
  /// no KV cache; the LPX side of `lpx decode --afd`.
  bool ffnOnly = false;
  int64_t tokens() const { return query * chunks; }
};

/// One chip's SRAM as the program's buffer table lays it out.
struct ChipSram {
  uint64_t weights = 0;     // constants
  uint64_t kvCache = 0;     // past/present key and value buffers
  uint64_t activations = 0; // the rest of the highest address in use
  uint64_t capacity = 0;
  uint64_t used() const { return weights + kvCache + activations; }
};

struct PhaseResult {
  std::optional<isa::VerifiedProgram> program;
  sim::SimResult sim;
  std::vector<ChipSram> sram; // per chip
  /// Per chip: cycles from its first instruction on the tokens' path to
  /// its last completion in the simulation, no less than its busiest
  /// queue's busy cycles (0 for a chip with no instruction): the stage
  /// time a second group of sequences would wait for.
  std::vector<uint64_t> occupied;
  /// When each stage and the busiest chips are busy (`lpx decode --report`).
  PhaseTimeline timeline;
  double computeUs() const;
  double hostUs() const { return sim.hostInputUs + sim.hostOutputUs; }
};

/// Told as a compile moves from stage to stage.
using PhaseProgress =
    std::function<void(llvm::StringRef stage, unsigned index, unsigned count)>;

/// Exports, compiles for `chips` chips and simulates one phase. A failure
/// to compile is returned in `failure` (fitVerdict), not as an
/// error.
llvm::Expected<std::optional<PhaseResult>>
runPhase(const DecodeTarget &target, const PhaseShape &shape, unsigned chips,
         FitVerdict &failure, const PhaseProgress &progress = {});

/// `phase`'s program simulated again on `chip`, which differs from the
/// chip it was compiled for only in keys the compiler does not read
/// (compilerReadsKey, Evaluate.h): that chip's figures without compiling.
llvm::Expected<PhaseResult> resimulatePhase(const PhaseResult &phase,
                                            const isa::ChipSpec &chip);

/// Per-chip SRAM from a program's buffer table.
std::vector<ChipSram> sramByChip(const isa::VerifiedProgram &prog);

} // namespace lpx::deploy

#endif
