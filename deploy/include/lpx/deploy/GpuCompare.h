//===- GpuCompare.h - A GPU deployment beside the LPX one --------*- C++ -*-===//
//
// `lpx decode --compare GPU[:tp=N]` and `--afd gpu=GPU:N,link=LAT:BW`: the
// analytic GPU model (gpu/, GpuModel.h) at the LPX deployment's model,
// context, prompt, batch and number formats, and attention-FFN
// disaggregation (attention with the KV cache on N GPUs, analytic; the FFN
// blocks on LPX chips, an FFN-only program compiled and simulated on the
// fewest chips that hold it; the activations of every layer over the link).
// GPU figures are analytic everywhere they appear.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_GPUCOMPARE_H
#define LPX_DEPLOY_GPUCOMPARE_H

#include "lpx/deploy/DecodeMetrics.h"
#include "lpx/deploy/DecodeWords.h"
#include "lpx/deploy/WordOptions.h"
#include "lpx/gpu/GpuModel.h"

#include <optional>

namespace lpx::deploy {

/// The comparison options of `lpx decode`, as given.
struct CompareWords {
  std::string compare; // GPU[:tp=N[,weights=F]]
  std::string afd;     // gpu=GPU:N,link=LATENCY:BANDWIDTH
  bool comparing() const { return !compare.empty() || !afd.empty(); }
};
llvm::ArrayRef<WordOption<CompareWords>> compareWordOptions();

/// "h200", "h200:tp=8", "h100-sxm:tp=4,weights=fp8"; tp 0: the fewest of
/// 1, 2, 4, 8 that hold the weights and cache.
struct GpuTarget {
  gpu::GpuSpec spec;
  unsigned tp = 0;
  std::optional<gpu::Format> weights; // none: the LPX deployment's
};
llvm::Expected<GpuTarget> parseGpuTarget(llvm::StringRef text);

struct AfdSpec {
  GpuTarget gpu; // tp: the N GPUs of the attention side
  double linkLatencyUs = 0, linkBytesPerSecond = 0;
};
/// "gpu=h200:8,link=2us:400GB/s" (latency: ns, us, ms, s; bandwidth:
/// B/s, GB/s, TB/s).
llvm::Expected<AfdSpec> parseAfdSpec(llvm::StringRef text);

/// `t` at the formats of the LPX deployment `m` (8-bit weights on the FP8
/// tensor cores, else 16 bits; the KV cache in the activations' format),
/// on its group or the fewest of 1, 2, 4, 8 GPUs that hold `blocks`'
/// weights and `m`'s KV cache; the error names what does not fit.
llvm::Expected<gpu::GpuDeployment>
gpuDeploymentFor(const GpuTarget &t, const DecodeMetrics &m,
                 const gpu::ModelShape &shape,
                 gpu::Blocks blocks = gpu::Blocks::All);

/// Both options checked before anything is compiled, and that `model`
/// (when given) is a preset, whose shapes the GPU model reads.
llvm::Error checkCompareWords(const CompareWords &w,
                              llvm::StringRef model = "");

/// The GPU deployment of `lpx decode --compare` (analytic).
struct GpuSide {
  std::string gpu;
  unsigned gpus = 0; // the tensor-parallel group
  bool tpChosen = false;
  gpu::Format weights = gpu::Format::Fp16, kvCache = gpu::Format::Fp16;
  gpu::GpuDecode d;
};

/// The attention-FFN disaggregated deployment (`--afd`).
struct AfdSide {
  std::string gpu;
  unsigned gpus = 0;
  unsigned chips = 0;        // LPX chips the FFN-only program needs
  std::string chipName;
  gpu::StepTime attention;   // the GPU side's step (analytic)
  double attentionUs = 0;    // its time
  double ffnUs = 0;          // the FFN-only step, simulated
  double exchangeUs = 0;     // 2 crossings a layer over the link
  double tpotUs = 0;
  double allLpxTpotUs = 0, allGpuTpotUs = 0; // 0: all-GPU does not fit
  gpu::GpuMemory gpuMemory;  // per GPU of the attention side
  double tokensPerSecondPerUser = 0, tokensPerSecond = 0;
};

struct Comparisons {
  std::optional<GpuSide> gpu;
  std::optional<AfdSide> afd;
};

/// What `w` asks beside the LPX deployment `m` of `words` (a preset):
/// the GPU side from the analytic model, the AFD side with its FFN-only
/// program compiled under `scratchDir`.
llvm::Expected<Comparisons>
runComparisons(const CompareWords &w, const DecodeWords &words,
               const DecodeMetrics &m, llvm::StringRef scratchDir,
               const PlanProgress &progress);

/// `compare` (the GPU side under decodeJson's keys, `gpus` for `chips`)
/// and `afd` added to `report`.
void addComparisonsJson(llvm::json::Object &report, const Comparisons &c,
                        const DecodeMetrics &m);
void printComparisons(const Comparisons &c, const DecodeMetrics &m,
                      llvm::raw_ostream &os);

} // namespace lpx::deploy

#endif
