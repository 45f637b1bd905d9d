//===- GpuModel.cpp - Analytic prefill and decode on GPUs ----------------===//
#include "lpx/gpu/GpuModel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace lpx::gpu;

namespace {
/// Each format's names (the first is the one printed) and bytes.
struct FormatInfo {
  Format format;
  double bytes;
  std::initializer_list<llvm::StringLiteral> names;
};
const FormatInfo kFormats[] = {
    {Format::Fp16, 2.0, {"fp16", "bf16"}},
    {Format::Fp8, 1.0, {"fp8", "fp8e4m3", "fp8e5m2"}},
    {Format::Fp4, 0.5, {"fp4"}},
};
const FormatInfo &info(Format f) {
  for (const FormatInfo &i : kFormats)
    if (i.format == f)
      return i;
  return kFormats[0];
}
} // namespace

llvm::Expected<Format> lpx::gpu::parseFormat(llvm::StringRef name) {
  for (const FormatInfo &i : kFormats)
    if (llvm::is_contained(i.names, name))
      return i.format;
  return llvm::createStringError(
      llvm::formatv("unknown GPU number format '{0}' (fp16, bf16, fp8, fp4)",
                    name)
          .str());
}

llvm::StringRef lpx::gpu::formatName(Format f) { return *info(f).names.begin(); }

double lpx::gpu::bytesPer(Format f) { return info(f).bytes; }

double lpx::gpu::peakFlops(const GpuSpec &gpu, Format f) {
  return f == Format::Fp16 ? gpu.fp16Flops
         : f == Format::Fp8 ? gpu.fp8Flops
                            : gpu.fp4Flops;
}

ModelShape ModelShape::of(const models::DecoderConfig &c) {
  ModelShape m;
  m.layers = c.layers;
  m.hidden = c.hidden;
  m.heads = c.heads;
  m.kvHeads = c.kvHeads;
  m.headDim = c.headDim();
  m.ffn = c.ffn;
  m.experts = c.experts;
  m.expertsPerToken = c.expertsPerToken;
  m.vocab = c.vocab;
  m.ffnMatrices = c.family == models::Family::Gpt2 ? 2 : 3;
  return m;
}

double ModelShape::attentionParams() const {
  const double d = double(hidden), q = double(heads * headDim),
               kv = double(kvHeads * headDim);
  return d * q + 2 * d * kv + q * d;
}
double ModelShape::expertParams() const {
  return double(ffnMatrices) * double(hidden) * double(ffn);
}
double ModelShape::ffnParams() const {
  return expertParams() * double(experts ? experts : 1) +
         (experts ? double(hidden * experts) : 0.0); // the router
}
double ModelShape::tableParams() const {
  return 2.0 * double(vocab) * double(hidden);
}

std::string StepTime::bound() const {
  const double memory = std::max(attention.memoryUs, 0.0) + ffn.memoryUs +
                        head.memoryUs;
  const double compute = attention.computeUs + ffn.computeUs + head.computeUs;
  return memory >= compute ? "HBM bandwidth" : "compute";
}

namespace {
/// The GPUs a KV head's cache is split over: whole heads per GPU, a head
/// replicated when the group is wider than the KV heads.
double kvSplit(const GpuDeployment &d, const ModelShape &m) {
  return double(std::min<int64_t>(d.tp, std::max<int64_t>(m.kvHeads, 1)));
}

BlockTime block(const GpuDeployment &d, double flops, double bytes) {
  BlockTime b;
  b.flops = flops;
  b.bytes = bytes;
  b.computeUs =
      flops / (peakFlops(d.gpu, d.weights) * d.gpu.computeFraction) * 1e6;
  b.memoryUs =
      bytes / (d.gpu.hbmBytesPerSecond * d.gpu.bandwidthFraction) * 1e6;
  return b;
}

void add(BlockTime &sum, const BlockTime &b, double times) {
  sum.flops += b.flops * times;
  sum.bytes += b.bytes * times;
  sum.computeUs += b.computeUs * times;
  sum.memoryUs += b.memoryUs * times;
}

/// Experts a step's tokens touch, in expectation: each of `tokens` picks k
/// of E uniformly.
double expertsTouched(const ModelShape &m, double tokens) {
  const double e = double(m.experts), k = double(m.expertsPerToken);
  return e * (1.0 - std::pow(1.0 - k / e, tokens));
}

/// One all-reduce of `rows` x hidden 16-bit activations over the group.
double allReduceUs(const GpuDeployment &d, const ModelShape &m, double rows) {
  if (d.tp <= 1)
    return 0;
  const double t = double(d.tp), bytes = rows * double(m.hidden) * 2.0;
  return d.gpu.nvlinkLatencyUs +
         2.0 * (t - 1) / t * bytes / d.gpu.nvlinkBytesPerSecond * 1e6;
}
} // namespace

StepTime lpx::gpu::stepTime(const GpuDeployment &d, const ModelShape &m,
                            const Step &s, Blocks blocks) {
  const double t = double(d.tp), wb = bytesPer(d.weights),
               kvb = bytesPer(d.kvCache);
  const double tokens = double(s.batch * s.query);
  const double past = double(s.context - s.query);
  // Keys each query row attends to, summed over a sequence's rows (causal).
  const double keys =
      double(s.query) * past + double(s.query) * double(s.query + 1) / 2.0;
  const double kvRow = 2.0 * double(m.kvHeads * m.headDim) * kvb; // K and V
  StepTime r;
  const double layers = double(m.layers);
  if (blocks != Blocks::Ffn) {
    const double flops =
        (2.0 * tokens * m.attentionParams() +
         4.0 * double(m.heads * m.headDim) * double(s.batch) * keys) /
        t;
    const double bytes =
        m.attentionParams() * wb / t +
        double(s.batch) * double(s.context) * kvRow / kvSplit(d, m) + // read
        tokens * kvRow / kvSplit(d, m);                               // write
    BlockTime b = block(d, flops, bytes);
    add(r.attention, b, layers);
    r.attentionUs = b.us() * layers;
    const double rows = double(s.batch); // the last row of each sequence
    r.head = block(d, 2.0 * rows * double(m.vocab * m.hidden) / t,
                   double(m.vocab * m.hidden) * wb / t);
    r.launchUs = d.gpu.launchUs;
    r.allReduceUs += layers * allReduceUs(d, m, tokens);
  }
  if (blocks != Blocks::Attention) {
    double flops, weights;
    if (m.experts) {
      flops = 2.0 * tokens *
              (double(m.expertsPerToken) * m.expertParams() +
               double(m.hidden * m.experts));
      weights = expertsTouched(m, tokens) * m.expertParams() +
                double(m.hidden * m.experts);
    } else {
      flops = 2.0 * tokens * m.expertParams();
      weights = m.expertParams();
    }
    BlockTime b = block(d, flops / t, weights * wb / t);
    add(r.ffn, b, layers);
    r.ffnUs = b.us() * layers;
    r.allReduceUs += layers * allReduceUs(d, m, tokens);
  }
  return r;
}

GpuMemory lpx::gpu::memoryPerGpu(const GpuDeployment &d, const ModelShape &m,
                                 int64_t batch, int64_t context,
                                 Blocks blocks) {
  const double t = double(d.tp), wb = bytesPer(d.weights);
  GpuMemory g;
  if (blocks != Blocks::Ffn) {
    g.weights += (double(m.layers) * m.attentionParams() + m.tableParams()) *
                 wb / t;
    g.kvCache = double(batch) * double(context) * double(m.layers) * 2.0 *
                double(m.kvHeads * m.headDim) * bytesPer(d.kvCache) /
                kvSplit(d, m);
  }
  if (blocks != Blocks::Attention)
    g.weights += double(m.layers) * m.ffnParams() * wb / t;
  return g;
}

bool lpx::gpu::fits(const GpuDeployment &d, const GpuMemory &mem) {
  return mem.used() <= d.gpu.hbmBytes * kUsableHbm;
}

unsigned lpx::gpu::fewestGpus(GpuDeployment d, const ModelShape &m,
                              int64_t batch, int64_t context, Blocks blocks) {
  for (unsigned tp : {1u, 2u, 4u, 8u}) {
    d.tp = tp;
    if (fits(d, memoryPerGpu(d, m, batch, context, blocks)))
      return tp;
  }
  return 0;
}

GpuDecode lpx::gpu::analyticDecode(const GpuDeployment &d, const ModelShape &m,
                                   int64_t batch, int64_t prompt,
                                   int64_t context) {
  GpuDecode r;
  r.prefill = stepTime(d, m, Step{batch, prompt, prompt});
  r.step = stepTime(d, m, Step{batch, 1, context});
  r.memory = memoryPerGpu(d, m, batch, context);
  r.ttftUs = r.prefill.totalUs();
  r.tpotUs = r.step.totalUs();
  r.tokensPerSecondPerUser = 1e6 / r.tpotUs;
  r.tokensPerSecond = r.tokensPerSecondPerUser * double(batch);
  return r;
}
