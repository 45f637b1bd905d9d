//===- GpuModel.h - Analytic prefill and decode on GPUs ---------*- C++ -*-===//
//
// An analytic model, not a simulation: each block of each layer (attention
// with its KV cache, the MLP or mixture of experts) takes the larger of its
// FLOPs at the format's dense peak times the attainable compute fraction and
// its HBM bytes (weights, KV cache) at the bandwidth times the attainable
// bandwidth fraction; a tensor-parallel group adds an all-reduce after each
// block over NVLink (ring: 2 (tp - 1) / tp of the rows' bytes at the
// per-direction bandwidth, plus the all-reduce latency); every step adds
// the GPU's launch overhead. The shapes are the model presets' (models/),
// the same ones `lpx decode` exports. docs/compare.md gives the check
// against published measurements.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_GPU_GPUMODEL_H
#define LPX_GPU_GPUMODEL_H

#include "lpx/gpu/GpuSpec.h"
#include "lpx/models/Presets.h"

namespace lpx::gpu {

enum class Format { Fp16, Fp8, Fp4 };
/// fp16, bf16, fp8 (fp8e4m3, fp8e5m2), fp4; anything else is an error.
llvm::Expected<Format> parseFormat(llvm::StringRef name);
llvm::StringRef formatName(Format f);
double bytesPer(Format f);
/// The dense peak of `f` on `gpu`; 0 when it has no tensor-core path.
double peakFlops(const GpuSpec &gpu, Format f);

/// What the model reads of a preset.
struct ModelShape {
  int64_t layers = 0, hidden = 0, heads = 0, kvHeads = 0, headDim = 0;
  int64_t ffn = 0, experts = 0, expertsPerToken = 0, vocab = 0;
  int64_t ffnMatrices = 3; // SwiGLU: gate, up, down; GPT-2's MLP: 2
  static ModelShape of(const models::DecoderConfig &c);
  double attentionParams() const; // one layer's Q, K, V, O
  double expertParams() const;    // one layer's MLP (one expert's)
  double ffnParams() const;       // one layer's MLP, all experts
  double tableParams() const;     // embedding and LM head (untied)
};

struct GpuDeployment {
  GpuSpec gpu;
  unsigned tp = 1;                   // GPUs of the tensor-parallel group
  Format weights = Format::Fp16;     // and the matrix units' format
  Format kvCache = Format::Fp16;
};

/// `batch` sequences each adding `query` tokens to a cache that then holds
/// `context` positions (query = context: a prefill); the LM head runs on
/// each sequence's last row only, as `lpx decode`'s steps do.
struct Step {
  int64_t batch = 1, query = 1, context = 1;
};

/// Which blocks a GPU runs: all of them, or in attention-FFN disaggregation
/// the attention side (embedding, attention with the KV cache, LM head) or
/// the FFN side (the MLP or experts).
enum class Blocks { All, Attention, Ffn };

/// One block's figures per GPU: its time is the larger of the two.
struct BlockTime {
  double flops = 0, bytes = 0;
  double computeUs = 0, memoryUs = 0;
  double us() const { return computeUs > memoryUs ? computeUs : memoryUs; }
};

/// One step, per GPU of the group, all layers.
struct StepTime {
  BlockTime attention, ffn, head; // all layers' sums (head: once)
  double allReduceUs = 0, launchUs = 0;
  double attentionUs = 0, ffnUs = 0; // the per-layer maxima, summed
  double totalUs() const {
    return attentionUs + ffnUs + head.us() + allReduceUs + launchUs;
  }
  /// "HBM bandwidth" or "compute": what bounds most of the step's time.
  std::string bound() const;
};

StepTime stepTime(const GpuDeployment &d, const ModelShape &m, const Step &s,
                  Blocks blocks = Blocks::All);

/// HBM one GPU of the group holds: the blocks' weights and the KV cache of
/// `batch` sequences of `context` positions (KV heads split over the group,
/// a head replicated when the group is wider than the KV heads).
struct GpuMemory {
  double weights = 0, kvCache = 0;
  double used() const { return weights + kvCache; }
};
GpuMemory memoryPerGpu(const GpuDeployment &d, const ModelShape &m,
                       int64_t batch, int64_t context,
                       Blocks blocks = Blocks::All);
/// The share of HBM the weights and cache may take (the rest: activations,
/// workspace; vLLM's default gpu_memory_utilization).
inline constexpr double kUsableHbm = 0.9;
bool fits(const GpuDeployment &d, const GpuMemory &mem);
/// The narrowest group of 1, 2, 4 or 8 GPUs that holds them; 0: none.
unsigned fewestGpus(GpuDeployment d, const ModelShape &m, int64_t batch,
                    int64_t context, Blocks blocks = Blocks::All);

/// A deployment's figures as `lpx decode` reports them (analytic).
struct GpuDecode {
  StepTime prefill, step;
  GpuMemory memory;
  double ttftUs = 0, tpotUs = 0;
  double tokensPerSecondPerUser = 0, tokensPerSecond = 0;
};
GpuDecode analyticDecode(const GpuDeployment &d, const ModelShape &m,
                         int64_t batch, int64_t prompt, int64_t context);

} // namespace lpx::gpu

#endif
