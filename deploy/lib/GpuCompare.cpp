//===- GpuCompare.cpp - A GPU deployment beside the LPX one ---------------===//
#include "lpx/deploy/GpuCompare.h"
#include "lpx/deploy/ChipSearch.h"
#include "lpx/serve/Units.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace lpx;
using namespace lpx::deploy;
using llvm::formatv;

namespace {

llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(message.str());
}

llvm::Error parseGroup(llvm::StringRef text, llvm::StringRef what,
                       unsigned &out) {
  unsigned v = 0;
  if (text.getAsInteger(10, v) || v == 0 || v > 72)
    return error(formatv("{0} '{1}' is not a GPU count from 1 to 72", what,
                         text));
  out = v;
  return llvm::Error::success();
}

/// "400GB/s", "1.8TB/s", "5e10B/s".
llvm::Error parseBandwidth(llvm::StringRef text, double &out) {
  static const std::pair<const char *, double> units[] = {
      {"TB/s", 1e12}, {"GB/s", 1e9}, {"MB/s", 1e6}, {"B/s", 1}};
  for (auto [unit, scale] : units)
    if (text.ends_with(unit)) {
      double v = 0;
      if (!text.drop_back(llvm::StringRef(unit).size()).getAsDouble(v) &&
          v > 0) {
        out = v * scale;
        return llvm::Error::success();
      }
      break;
    }
  return error(formatv("link bandwidth '{0}' is not a positive rate such as "
                       "400GB/s (B/s, MB/s, GB/s, TB/s)",
                       text));
}

/// The GPU formats of the LPX deployment's: 8-bit weights (fp8, int8) run
/// on the FP8 tensor cores, anything else (16-bit, fp32, the model's own)
/// in 16 bits, as GPU deployments serve it; the KV cache is kept in the
/// activations' format, 8 bits only for an fp8 one.
gpu::Format weightsFormat(llvm::StringRef lpx) {
  return lpx.starts_with("fp8") || lpx == "int8" ? gpu::Format::Fp8
                                                 : gpu::Format::Fp16;
}
gpu::Format kvFormat(llvm::StringRef lpx) {
  return lpx.starts_with("fp8") ? gpu::Format::Fp8 : gpu::Format::Fp16;
}

llvm::Expected<const models::DecoderConfig *> presetOf(llvm::StringRef model) {
  const models::DecoderConfig *c = models::findPreset(model);
  if (!c)
    return error("--compare and --afd take a model preset (the GPU model "
                 "reads its shapes), not '" +
                 model + "'");
  return c;
}

/// The FFN-only step of `words`' model on the fewest LPX chips that hold
/// it (whole groups, as decode searches), compiled and simulated.
llvm::Expected<PhaseResult> ffnOnlyStep(const DecodeWords &words,
                                        const DecodeMetrics &m,
                                        llvm::StringRef scratchDir,
                                        const PlanProgress &progress) {
  DeploymentNumbers n;
  if (auto e = parseDeployment(words, n))
    return std::move(e);
  n.tp = n.pp = n.chips = 0; // the FFN program's own count
  DecodeTarget t;
  if (auto e = loadTarget(words, n, t))
    return std::move(e);
  t.scratchDir = scratchDir.str();
  PhaseShape shape{m.context, 1, m.batch}; // the context is unread
  shape.ffnOnly = true;
  std::optional<PhaseResult> found;
  FitVerdict failure;
  auto search = findFewestChips(
      wholeGroupsPolicy(t.chip),
      [&](unsigned chips) -> llvm::Expected<ChipTrial> {
        if (progress.compiling)
          progress.compiling("FFN-only step", chips);
        // No attention heads tell the partitioner it is a transformer:
        // the mesh a deployment runs (a group's chips tensor-parallel, the
        // rest pipeline stages), not the spread placement (on llama2-7b's
        // FFN on 16 lpx3 chips 73.9 us against 449.5 us, link-bound).
        t.tp = std::min(chips, std::max(t.chip.topology.groupSize, 1u));
        return chipTrial(runPhase(t, shape, chips, failure, progress.stage),
                         found, failure);
      });
  if (!search)
    return search.takeError();
  if (!search->chips || !found)
    return error("the FFN-only step fits no chip count: " + failure.message);
  return std::move(*found);
}

llvm::json::Object gpuJson(const GpuSide &g, const DecodeMetrics &m) {
  return llvm::json::Object{
      {"model_kind", "analytic"},
      {"model", m.model},
      {"gpu", g.gpu},
      {"gpus", g.gpus},
      {"tp", g.gpus},
      {"context", m.context},
      {"prompt", m.prompt},
      {"batch", m.batch},
      {"weights", gpu::formatName(g.weights)},
      {"kv_cache", gpu::formatName(g.kvCache)},
      {"ttft_us", g.d.ttftUs},
      {"tpot_us", g.d.tpotUs},
      {"tokens_per_second_per_user", g.d.tokensPerSecondPerUser},
      {"tokens_per_second", g.d.tokensPerSecond},
      {"bottleneck", g.d.step.bound()},
      {"hbm_bytes_per_gpu",
       llvm::json::Object{{"weights", g.d.memory.weights},
                          {"kv_cache", g.d.memory.kvCache}}}};
}

} // namespace

llvm::ArrayRef<WordOption<CompareWords>> lpx::deploy::compareWordOptions() {
  static const WordOption<CompareWords> options[] = {
      {"--compare", &CompareWords::compare,
       "A GPU deployment beside this one, analytic: GPU[:tp=N] (h100-sxm, "
       "h200, b200; docs/compare.md)"},
      {"--afd", &CompareWords::afd,
       "Attention-FFN disaggregation: attention on N GPUs (analytic), the "
       "FFN on these chips (simulated): gpu=GPU:N,link=LATENCY:BANDWIDTH"},
  };
  return options;
}

llvm::Expected<GpuTarget> lpx::deploy::parseGpuTarget(llvm::StringRef text) {
  auto [name, rest] = text.split(':');
  GpuTarget t;
  auto spec = gpu::loadGpuSpec(name);
  if (!spec)
    return spec.takeError();
  t.spec = std::move(*spec);
  llvm::SmallVector<llvm::StringRef> items;
  if (!rest.empty())
    rest.split(items, ',');
  for (llvm::StringRef item : items) {
    auto [key, value] = item.split('=');
    if (key == "tp") {
      if (auto e = parseGroup(value, "tp", t.tp))
        return std::move(e);
    } else if (key == "weights") {
      auto f = gpu::parseFormat(value);
      if (!f)
        return f.takeError();
      t.weights = *f;
    } else {
      return error(formatv("'{0}' is not tp=N or weights=FORMAT", item));
    }
  }
  return t;
}

llvm::Expected<AfdSpec> lpx::deploy::parseAfdSpec(llvm::StringRef text) {
  AfdSpec s;
  bool gpuGiven = false, linkGiven = false;
  llvm::SmallVector<llvm::StringRef> items;
  text.split(items, ',');
  for (llvm::StringRef item : items) {
    auto [key, value] = item.split('=');
    auto [first, second] = value.split(':');
    if (key == "gpu") {
      auto g = parseGpuTarget(first);
      if (!g)
        return g.takeError();
      s.gpu = std::move(*g);
      if (auto e = parseGroup(second, "the attention GPUs", s.gpu.tp))
        return std::move(e);
      gpuGiven = true;
    } else if (key == "link") {
      auto latency = serve::parseDuration(first, "link latency");
      if (!latency)
        return latency.takeError();
      s.linkLatencyUs = serve::toUs(*latency);
      if (auto e = parseBandwidth(second, s.linkBytesPerSecond))
        return std::move(e);
      linkGiven = true;
    } else {
      return error(formatv("'{0}' is not gpu=GPU:N or link=LATENCY:BANDWIDTH",
                           item));
    }
  }
  if (!gpuGiven || !linkGiven)
    return error("it takes gpu=GPU:N and link=LATENCY:BANDWIDTH, such as "
                 "gpu=h200:8,link=2us:400GB/s");
  return s;
}

llvm::Expected<gpu::GpuDeployment>
lpx::deploy::gpuDeploymentFor(const GpuTarget &t, const DecodeMetrics &m,
                              const gpu::ModelShape &shape,
                              gpu::Blocks blocks) {
  gpu::GpuDeployment d;
  d.gpu = t.spec;
  d.weights = t.weights ? *t.weights : weightsFormat(m.weights);
  d.kvCache = kvFormat(m.activations);
  d.tp = t.tp ? t.tp
              : gpu::fewestGpus(d, shape, m.batch, m.context, blocks);
  if (!d.tp)
    d.tp = 8; // none holds it: the error below says by how much
  gpu::GpuMemory mem = gpu::memoryPerGpu(d, shape, m.batch, m.context, blocks);
  if (!gpu::fits(d, mem))
    return error(formatv("{0} x {1} does not hold {2}: {3:f1} GB of weights "
                         "and {4:f1} GB of KV cache per GPU, over {5:f0}% of "
                         "its {6:f0} GB",
                         d.tp, t.spec.name, m.model, mem.weights / 1e9,
                         mem.kvCache / 1e9, 100 * gpu::kUsableHbm,
                         t.spec.hbmBytes / 1e9));
  return d;
}

llvm::Error lpx::deploy::checkCompareWords(const CompareWords &w,
                                           llvm::StringRef model) {
  if (w.comparing() && !model.empty())
    if (auto p = presetOf(model); !p)
      return p.takeError();
  if (!w.compare.empty())
    if (auto t = parseGpuTarget(w.compare); !t)
      return error("--compare '" + w.compare +
                   "': " + llvm::toString(t.takeError()));
  if (!w.afd.empty())
    if (auto s = parseAfdSpec(w.afd); !s)
      return error("--afd '" + w.afd + "': " + llvm::toString(s.takeError()));
  return llvm::Error::success();
}

llvm::Expected<Comparisons>
lpx::deploy::runComparisons(const CompareWords &w, const DecodeWords &words,
                            const DecodeMetrics &m, llvm::StringRef scratchDir,
                            const PlanProgress &progress) {
  if (auto e = checkCompareWords(w))
    return std::move(e);
  auto preset = presetOf(words.model);
  if (!preset)
    return preset.takeError();
  const gpu::ModelShape shape = gpu::ModelShape::of(**preset);
  Comparisons c;
  if (!w.compare.empty()) {
    GpuTarget t = cantFail(parseGpuTarget(w.compare));
    auto dep = gpuDeploymentFor(t, m, shape);
    if (!dep)
      return error("--compare: " + llvm::toString(dep.takeError()));
    const gpu::GpuDeployment &d = *dep;
    GpuSide g;
    g.gpu = t.spec.name;
    g.gpus = d.tp;
    g.tpChosen = t.tp == 0;
    g.weights = d.weights;
    g.kvCache = d.kvCache;
    g.d = gpu::analyticDecode(d, shape, m.batch, m.prompt, m.context);
    c.gpu = std::move(g);
  }
  if (!w.afd.empty()) {
    AfdSpec s = cantFail(parseAfdSpec(w.afd));
    auto dep = gpuDeploymentFor(s.gpu, m, shape, gpu::Blocks::Attention);
    if (!dep)
      return error("--afd: " + llvm::toString(dep.takeError()));
    const gpu::GpuDeployment &d = *dep;
    auto ffn = ffnOnlyStep(words, m, scratchDir, progress);
    if (!ffn)
      return error("--afd: " + llvm::toString(ffn.takeError()));
    AfdSide a;
    a.gpu = s.gpu.spec.name;
    a.gpus = d.tp;
    a.chips = unsigned(ffn->sram.size());
    a.chipName = m.chipName;
    a.attention = gpu::stepTime(d, shape, gpu::Step{m.batch, 1, m.context},
                                gpu::Blocks::Attention);
    a.attentionUs = a.attention.totalUs();
    // The activations cross at the program's own time, not the host's.
    a.ffnUs = ffn->computeUs();
    const double rowBytes = double(m.batch) * double(shape.hidden) * 2.0;
    a.exchangeUs = double(shape.layers) * 2.0 *
                   (s.linkLatencyUs + rowBytes / s.linkBytesPerSecond * 1e6);
    a.tpotUs = a.attentionUs + a.ffnUs + a.exchangeUs;
    a.tokensPerSecondPerUser = 1e6 / a.tpotUs;
    a.tokensPerSecond = a.tokensPerSecondPerUser * double(m.batch);
    a.gpuMemory = gpu::memoryPerGpu(d, shape, m.batch, m.context,
                                    gpu::Blocks::Attention);
    a.allLpxTpotUs = m.tpotUs();
    gpu::GpuDeployment whole = d;
    if (gpu::fits(whole, gpu::memoryPerGpu(whole, shape, m.batch, m.context)))
      a.allGpuTpotUs =
          gpu::stepTime(whole, shape, gpu::Step{m.batch, 1, m.context})
              .totalUs();
    c.afd = std::move(a);
  }
  return c;
}

void lpx::deploy::addComparisonsJson(llvm::json::Object &report,
                                     const Comparisons &c,
                                     const DecodeMetrics &m) {
  if (c.gpu) // under the LPX report's keys; `gpu`/`gpus` for `chip`/`chips`
    report["compare"] = gpuJson(*c.gpu, m);
  if (c.afd) {
    const AfdSide &a = *c.afd;
    report["afd"] = llvm::json::Object{
        {"model_kind", "attention analytic, FFN simulated"},
        {"gpu", a.gpu},
        {"gpus", a.gpus},
        {"chip", a.chipName},
        {"chips", a.chips},
        {"tpot_us", a.tpotUs},
        {"tpot_split_us",
         llvm::json::Object{{"gpu_attention", a.attentionUs},
                            {"lpx_ffn", a.ffnUs},
                            {"exchange", a.exchangeUs}}},
        {"tokens_per_second_per_user", a.tokensPerSecondPerUser},
        {"tokens_per_second", a.tokensPerSecond},
        {"hbm_bytes_per_gpu",
         llvm::json::Object{{"weights", a.gpuMemory.weights},
                            {"kv_cache", a.gpuMemory.kvCache}}},
        {"all_lpx_tpot_us", a.allLpxTpotUs},
        {"all_gpu_tpot_us", a.allGpuTpotUs > 0
                                ? llvm::json::Value(a.allGpuTpotUs)
                                : llvm::json::Value(nullptr)}};
  }
}

void lpx::deploy::printComparisons(const Comparisons &c, const DecodeMetrics &m,
                                   llvm::raw_ostream &os) {
  if (c.gpu) {
    const GpuSide &g = *c.gpu;
    os << formatv("beside it, {0} x {1}{2} (analytic model, docs/compare.md; "
                  "weights {3}, KV cache {4}):\n",
                  g.gpus, g.gpu,
                  g.tpChosen ? " (the fewest of 1, 2, 4, 8 that hold it)" : "",
                  gpu::formatName(g.weights), gpu::formatName(g.kvCache));
    os << formatv("  {0,-28} {1,14} {2,14}\n", "", "LPX (simulated)",
                  "GPU (analytic)");
    auto row = [&](const char *what, double lpx, double gpu, const char *f) {
      os << formatv("  {0,-28} {1,14} {2,14}\n", what, formatv(f, lpx).str(),
                    formatv(f, gpu).str());
    };
    if (m.hasPrefill)
      row("time to first token (us)", m.ttftUs(), g.d.ttftUs, "{0:f1}");
    row("time per output token (us)", m.tpotUs(), g.d.tpotUs, "{0:f1}");
    row("tokens/s per user", m.tokensPerSecondPerUser,
        g.d.tokensPerSecondPerUser, "{0:f1}");
    row("tokens/s (aggregate)", m.tokensPerSecond, g.d.tokensPerSecond,
        "{0:f1}");
    row("chips or GPUs", m.chips, g.gpus, "{0:f0}");
    os << formatv("  GPU step bound by {0}; {1:f1} GB weights + {2:f1} GB KV "
                  "cache per GPU\n",
                  g.d.step.bound(), g.d.memory.weights / 1e9,
                  g.d.memory.kvCache / 1e9);
  }
  if (c.afd) {
    const AfdSide &a = *c.afd;
    os << formatv("attention-FFN disaggregation: attention on {0} x {1} "
                  "(analytic), FFN on {2} {3} chip(s) (an FFN-only program, "
                  "compiled and simulated):\n",
                  a.gpus, a.gpu, a.chips, a.chipName);
    os << formatv("  time per output token: {0:f1} us = GPU attention {1:f1} "
                  "+ LPX FFN {2:f1} + exchange {3:f1}; {4:f1} tokens/s per "
                  "user, {5:f1} in all\n",
                  a.tpotUs, a.attentionUs, a.ffnUs, a.exchangeUs,
                  a.tokensPerSecondPerUser, a.tokensPerSecond);
    os << formatv("  beside all-LPX {0:f1} us (simulated, {1} chips) and "
                  "all-GPU {2} (analytic, {3} x {4})\n",
                  a.allLpxTpotUs, m.chips,
                  a.allGpuTpotUs > 0 ? formatv("{0:f1} us", a.allGpuTpotUs).str()
                                     : std::string("does not fit"),
                  a.gpus, a.gpu);
  }
}
