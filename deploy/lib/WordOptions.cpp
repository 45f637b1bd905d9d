//===- WordOptions.cpp - The options of a deployment's words --------------===//
#include "lpx/deploy/WordOptions.h"

using namespace lpx::deploy;

llvm::ArrayRef<WordOption<DeploymentArgs>>
lpx::deploy::deploymentWordOptions() {
  static const WordOption<DeploymentArgs> options[] = {
      {"--context", &DeploymentArgs::context,
       "Positions in the KV cache at the decode step (default: the "
       "preset's, up to 4096)"},
      {"--chips", &DeploymentArgs::chips,
       "Chips to use (default: the fewest whole groups that hold "
       "the model, found by compiling)"},
      {"--tp", &DeploymentArgs::tp, "Chips per tensor-parallel group"},
      {"--pp", &DeploymentArgs::pp, "Pipeline stages"},
      {"--weights", &DeploymentArgs::weights,
       "Number format of MatMul weights (default: the chip's "
       "formats.weights, else the model's)"},
      {"--activations", &DeploymentArgs::activations,
       "Number format of all other floating-point values (default: "
       "the chip's formats.activations, else the model's)"},
  };
  return options;
}

llvm::ArrayRef<WordOption<DecodeWords>> lpx::deploy::decodeWordOptions() {
  static const WordOption<DecodeWords> options[] = {
      {"--prompt", &DecodeWords::prompt,
       "Tokens in the prompt (the prefill; default 128, at most the "
       "context)"},
      {"--batch", &DecodeWords::batch,
       "Sequences decoded together (default 1)"},
      {"--prefill-chunk", &DecodeWords::prefillChunk,
       "Prompt tokens per prefill chunk (default: chosen, and the "
       "report says why)"},
  };
  return options;
}

llvm::ArrayRef<WordOption<DecodeSweepWords>>
lpx::deploy::decodeSweepWordOptions() {
  static const WordOption<DecodeSweepWords> options[] = {
      {"--context-sweep", &DecodeSweepWords::contextSweep,
       "Context lengths such as 512,1024,2048: TPOT of each, as CSV "
       "(-o) and SVG (--plot)"},
      {"--prompt-sweep", &DecodeSweepWords::promptSweep,
       "Prompt lengths such as 128,512,2048: TTFT of each and its "
       "latency bound, as CSV (-o) and SVG (--plot)"},
      {"-o,--output", &DecodeSweepWords::output, "CSV of a sweep"},
      {"--plot", &DecodeSweepWords::plot,
       "SVG of a sweep (default: the CSV's name with .svg)"},
  };
  return options;
}

llvm::ArrayRef<WordOption<ServeWords>> lpx::deploy::serveWordOptions() {
  static const WordOption<ServeWords> options[] = {
      {"--workload", &ServeWords::workload,
       "poisson:, closed:, agent: or trace:FILE"},
      {"--max-batch", &ServeWords::maxBatch, "Sequences in a step (default 8)"},
      {"--policy", &ServeWords::policy, "chunked or prefill-first"},
      {"--prefill-chunk", &ServeWords::prefillChunk,
       "Prompt tokens per prefill chunk of the table (default: "
       "chosen as lpx decode does)"},
      {"--queue", &ServeWords::queue,
       "Admission queue places (default: unbounded)"},
      {"--retry", &ServeWords::retry, "Retries of a rejected call: N,base=T"},
      {"--network", &ServeWords::network,
       "fixed:T, lognormal:median=T,p99=T or 0"},
      {"--duration", &ServeWords::duration, "Send calls for this long (10s)"},
      {"--requests", &ServeWords::requests, "Send this many calls"},
      {"--seed", &ServeWords::seed, "Random seed (default 1)"},
      {"--slo", &ServeWords::slo, "ttft_p95=1s,tpot_p99=50ms,..."},
      {"-o,--output", &ServeWords::output, "Per-request CSV"},
      {"--load-sweep", &ServeWords::loadSweep,
       "Loads: users or rates, 1,5,10,20,50"},
      {"--curve-csv", &ServeWords::curveCsv, "The sweep's curve as CSV"},
      {"--curve-svg", &ServeWords::curveSvg, "The sweep's curve as SVG"},
      {"--report", &ServeWords::report, "Self-contained HTML report"},
      {"--trace", &ServeWords::trace, "Perfetto trace (JSON)"},
      {"--cache-dir", &ServeWords::cacheDir, "Service table cache"},
  };
  return options;
}

llvm::ArrayRef<WordOption<SpeculativeWords>>
lpx::deploy::speculativeWordOptions() {
  static const WordOption<SpeculativeWords> options[] = {
      {"--draft", &SpeculativeWords::draft,
       "Speculative decoding: the draft model's preset (the target's "
       "vocabulary), on chips of its own"},
      {"--speculate", &SpeculativeWords::speculate,
       "With --draft: tokens the draft proposes per round, K (1 to 64); the "
       "target verifies K + 1 in one step"},
      {"--accept", &SpeculativeWords::accept,
       "With --draft: the per-token acceptance rate in (0, 1], or measured "
       "(the default: draft and target run greedily on the CPU runtime; "
       "test presets only)"},
  };
  return options;
}
