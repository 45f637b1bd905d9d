//===- DecodeMetrics.h - What users of decode measure, from the plan -*- C++ -*-===//
//
// TTFT, TPOT, tokens/s, the bottleneck, SRAM per chip and the efficiency
// against the physical bound, each read from the compiled programs and their
// simulations (DecodePlan.h). Compute times are the simulated cycles (the
// hardware is deterministic: P50 = P99); host I/O, the only variable part,
// is kept apart.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_DECODEMETRICS_H
#define LPX_DEPLOY_DECODEMETRICS_H

#include "lpx/deploy/DecodePlan.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace lpx::deploy {

struct DecodeMetrics {
  std::string model, chipName;
  double clockMHz = 0;
  unsigned chips = 0, group = 1;
  bool searched = false;
  unsigned searchCompiles = 0; // counts the chip search compiled
  bool hintConfirmed = false;  // it started from a neighbour's count
  unsigned tp = 0, pp = 0; // the step program's placement; 0: no mesh
  bool placementAsked = false; // --tp/--pp given
  std::vector<PlacementTrial> trials; // placements tried (DecodePlan.h)
  int64_t context = 0, prompt = 0, batch = 0;
  /// The number formats compiled with ("" for the model's own) and
  /// whether they are the chip's deployment formats (no option gave them).
  std::string weights, activations;
  bool weightsFromChip = false, activationsFromChip = false;
  /// The shape defaults used, as the report says them ("batch 1").
  std::vector<std::string> defaults;

  bool hasPrefill = false;
  /// Prompt tokens per prefill chunk (the whole prompt when unchunked),
  /// the chunks, and why that chunk.
  int64_t prefillChunk = 0, prefillChunks = 0;
  std::string chunkWhy;
  double ttftComputeUs = 0, ttftHostUs = 0;
  double ttftUs() const { return ttftComputeUs + ttftHostUs; }
  double tpotComputeUs = 0, tpotHostUs = 0;
  double tpotUs() const { return tpotComputeUs + tpotHostUs; }
  double tokensPerSecondPerUser = 0;

  /// Groups of `batch` sequences decoding at once, pipelined through the
  /// stages: at most one per stage, as many as keep the busiest chip busy
  /// for a token period (TPOT over the longest chip occupancy, rounded
  /// up), and as SRAM holds their KV caches.
  unsigned inFlight = 1;
  unsigned stages = 1;    // pipeline stages a group passes through
  double stageUs = 0;     // the longest time one chip is occupied per step
  unsigned stageChip = 0; // that chip
  unsigned kvLimit = 0;   // groups the free SRAM holds caches for (0: any)
  double tokensPerSecond = 0;

  std::string bottleneck;
  std::vector<ChipSram> sram; // per chip, the larger of the two phases
  unsigned sramChip = 0;      // the chip with the most in use

  /// The floors one request cannot beat (sim::LatencyBound) of the
  /// prefill and of the step, plus the host I/O each pays as TTFT and TPOT
  /// do; efficiency = bound / figure. Reports give these first.
  double ttftLatencyBoundUs = 0, ttftLatencyEfficiency = 0;
  double tpotLatencyBoundUs = 0, tpotLatencyEfficiency = 0;
  sim::LatencyBound ttftLatency, tpotLatency;
  sim::GapAttribution ttftLatencyGap, tpotLatencyGap;

  sim::PhysicalBound physical; // of the decode step
  double physicalBoundUs = 0, efficiency = 0;
  sim::GapAttribution gap;
  double scheduleEfficiency = 0;
  std::string scheduleBottleneck;

  /// When each stage is busy in the prefill and in the step, for
  /// `--report` (PhaseTimeline.h).
  std::optional<PhaseTimeline> prefillTimeline;
  PhaseTimeline stepTimeline;
};

/// What a simulated step spent its time on: the busiest queue, or the SRAM
/// of the chip streaming the most bytes if that takes longer; when the
/// step's dependency chain is longer than twice either, the step waits on
/// latency and the busiest resource is named as such.
std::string bottleneckOf(const sim::SimResult &step);

/// Groups of sequences whose KV caches the free SRAM of every chip holds,
/// the first included; 0 when no chip holds a cache.
unsigned groupsSramHolds(const std::vector<ChipSram> &sram);

DecodeMetrics measureDecode(const DecodeTarget &target,
                            const DecodeRequest &request,
                            const DecodePlan &plan);

void printDecodeText(const DecodeMetrics &m, llvm::raw_ostream &os);
/// The stable keys of docs/decode.md plus detail.
llvm::json::Object decodeJson(const DecodeMetrics &m);

} // namespace lpx::deploy

#endif
