//===- DecodeSweep.cpp - Decode figures against context or prompt length -===//
#include "lpx/deploy/DecodeSweep.h"
#include "lpx/report/SvgPlot.h"

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

std::string lpx::deploy::decodeSweepSvg(const std::vector<DecodeMetrics> &points) {
  PlotSpec plot;
  const DecodeMetrics &first = points.front();
  plot.title = fmt::format("Time per output token of {} on {}, batch {}",
                           first.model, first.chipName, first.batch);
  plot.xLabel = "context length (positions)";
  plot.yLabel = "microseconds";
  PlotSeries tpot{"TPOT, simulated step", {}}, bound{"physical bound", {}};
  for (const DecodeMetrics &m : points) {
    tpot.points.push_back({double(m.context), m.tpotComputeUs});
    bound.points.push_back({double(m.context), m.physicalBoundUs});
  }
  plot.series = {std::move(tpot), std::move(bound)};
  return renderSvg(plot);
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
  PlotSpec plot;
  const DecodeMetrics &first = points.front();
  plot.title = fmt::format("Time to first token of {} on {}, batch {}",
                           first.model, first.chipName, first.batch);
  plot.xLabel = "prompt length (tokens)";
  plot.yLabel = "microseconds";
  PlotSeries ttft{"TTFT, simulated prefill + host I/O", {}},
      bound{"latency bound", {}};
  for (const DecodeMetrics &m : points) {
    ttft.points.push_back({double(m.prompt), m.ttftUs()});
    bound.points.push_back({double(m.prompt), m.ttftLatencyBoundUs});
  }
  plot.series = {std::move(ttft), std::move(bound)};
  return renderSvg(plot);
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
