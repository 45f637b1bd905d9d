//===- DecodeSweep.cpp - Decode figures against context or prompt length -===//
#include "lpx/deploy/DecodeSweep.h"
#include "lpx/report/SvgPlot.h"
#include "lpx/isa/AtomicFile.h"

#include <fmt/format.h>

using namespace lpx::deploy;
using namespace lpx::report;

std::string lpx::deploy::decodeSweepCsv(const std::vector<DecodeMetrics> &points) {
  std::string out = "context,chips,tpot_us,tpot_compute_us,tpot_host_io_us,"
                    "physical_bound_us,efficiency,tokens_per_second,"
                    "bottleneck\n";
  for (const DecodeMetrics &m : points) {
    std::string why = m.bottleneck;
    for (char &c : why)
      if (c == '"')
        c = '\'';
    out += fmt::format("{},{},{:.3f},{:.3f},{:.3f},{:.3f},{:.4f},{:.1f},\"{}\"\n",
                       m.context, m.chips, m.tpotUs(), m.tpotComputeUs,
                       m.tpotHostUs, m.physicalBoundUs, m.efficiency,
                       m.tokensPerSecond, why);
  }
  return out;
}

/// A simulated figure and its bound against the swept length, one line each.
static std::string plotAgainst(
    const std::vector<DecodeMetrics> &points, const std::string &what,
    const char *xLabel, const char *figure, const char *boundName,
    double (*x)(const DecodeMetrics &), double (*y)(const DecodeMetrics &),
    double (*bound)(const DecodeMetrics &)) {
  PlotSpec plot;
  const DecodeMetrics &first = points.front();
  plot.title = fmt::format("{} of {} on {}, batch {}", what, first.model,
                           first.chipName, first.batch);
  plot.xLabel = xLabel;
  plot.yLabel = "microseconds";
  PlotSeries value{figure, {}}, floor{boundName, {}};
  for (const DecodeMetrics &m : points) {
    value.points.push_back({x(m), y(m)});
    floor.points.push_back({x(m), bound(m)});
  }
  plot.series = {std::move(value), std::move(floor)};
  return renderSvg(plot);
}

std::string lpx::deploy::decodeSweepSvg(const std::vector<DecodeMetrics> &points) {
  return plotAgainst(
      points, "Time per output token", "context length (positions)",
      "TPOT, simulated step", "physical bound",
      [](const DecodeMetrics &m) { return double(m.context); },
      [](const DecodeMetrics &m) { return m.tpotComputeUs; },
      [](const DecodeMetrics &m) { return m.physicalBoundUs; });
}

std::string lpx::deploy::promptSweepCsv(const std::vector<DecodeMetrics> &points) {
  std::string out = "prompt,chips,chunk,ttft_us,ttft_compute_us,"
                    "ttft_host_io_us,latency_bound_us,efficiency\n";
  for (const DecodeMetrics &m : points)
    out += fmt::format("{},{},{},{:.3f},{:.3f},{:.3f},{:.3f},{:.4f}\n",
                       m.prompt, m.chips, m.prefillChunk, m.ttftUs(),
                       m.ttftComputeUs, m.ttftHostUs, m.ttftLatencyBoundUs,
                       m.ttftLatencyEfficiency);
  return out;
}

std::string lpx::deploy::promptSweepSvg(const std::vector<DecodeMetrics> &points) {
  return plotAgainst(
      points, "Time to first token", "prompt length (tokens)",
      "TTFT, simulated prefill + host I/O", "latency bound",
      [](const DecodeMetrics &m) { return double(m.prompt); },
      [](const DecodeMetrics &m) { return m.ttftUs(); },
      [](const DecodeMetrics &m) { return m.ttftLatencyBoundUs; });
}

std::string lpx::deploy::sweepPointLine(const DecodeMetrics &m, SweepAxis axis) {
  if (axis == SweepAxis::Prompt)
    return fmt::format("prompt {}: {} chip(s), TTFT {:.3f} us, latency bound "
                       "{:.3f} us",
                       m.prompt, m.chips, m.ttftUs(), m.ttftLatencyBoundUs);
  return fmt::format("context {}: {} chip(s), TPOT {:.3f} us, physical bound "
                     "{:.3f} us",
                     m.context, m.chips, m.tpotUs(), m.physicalBoundUs);
}

std::pair<std::string, std::string>
lpx::deploy::sweepFiles(const std::vector<DecodeMetrics> &points,
                        SweepAxis axis) {
  if (axis == SweepAxis::Prompt)
    return {promptSweepCsv(points), promptSweepSvg(points)};
  return {decodeSweepCsv(points), decodeSweepSvg(points)};
}

llvm::Expected<std::vector<DecodeMetrics>> lpx::deploy::runDecodeSweep(
    const DecodeTarget &t, const DecodeSweepNumbers &o,
    const PlanProgress &progress,
    const std::function<void(const DecodeMetrics &)> &done) {
  const bool prompts = !o.prompts.empty();
  std::vector<DecodeMetrics> points;
  for (int64_t x : prompts ? o.prompts : o.sweep) {
    auto failed = [&](llvm::Error e) {
      return llvm::createStringError((prompts ? "prompt " : "context ") +
                                     std::to_string(x) + ": " +
                                     llvm::toString(std::move(e)));
    };
    auto req =
        decodeRequest(t, o, prompts ? o.context : x, prompts ? x : 0);
    if (!req)
      return failed(req.takeError());
    auto plan = planDecode(t, *req, progress);
    if (!plan)
      return failed(plan.takeError());
    points.push_back(measureDecode(t, *req, *plan));
    done(points.back());
  }
  return points;
}

llvm::Error lpx::deploy::writeDecodeSweep(
    const std::vector<DecodeMetrics> &points, SweepAxis axis,
    llvm::StringRef csvPath, llvm::StringRef svgPath) {
  const auto [csv, svg] = sweepFiles(points, axis);
  if (auto e = isa::writeFileAtomically(csvPath, csv))
    return e;
  return isa::writeFileAtomically(svgPath, svg);
}
