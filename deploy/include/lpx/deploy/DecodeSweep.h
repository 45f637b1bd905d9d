//===- DecodeSweep.h - Decode figures against context or prompt length -*- C++ -*-===//
#ifndef LPX_DEPLOY_DECODESWEEP_H
#define LPX_DEPLOY_DECODESWEEP_H

#include "lpx/deploy/DecodeMetrics.h"
#include "lpx/deploy/DecodeWords.h"
#include <functional>
#include <utility>

namespace lpx::deploy {

/// One CSV row per point: context, chips, tpot_us, tpot_compute_us,
/// tpot_host_io_us, physical_bound_us, efficiency, tokens_per_second,
/// bottleneck.
std::string decodeSweepCsv(const std::vector<DecodeMetrics> &points);

/// TPOT (simulated compute) and the physical bound against context.
std::string decodeSweepSvg(const std::vector<DecodeMetrics> &points);

/// One CSV row per prompt length (--prompt-sweep): prompt, chips, chunk,
/// ttft_us, ttft_compute_us, ttft_host_io_us, latency_bound_us, efficiency
/// (the latency bound over TTFT, host I/O in both).
std::string promptSweepCsv(const std::vector<DecodeMetrics> &points);

/// TTFT and its latency bound against prompt length.
std::string promptSweepSvg(const std::vector<DecodeMetrics> &points);

/// What a sweep varies: the decode step's context or the prefill's prompt.
enum class SweepAxis { Context, Prompt };

/// The line printed as each point is done: "prompt 512: 24 chip(s), TTFT
/// ... us, latency bound ... us" (or TPOT and the physical bound per context).
std::string sweepPointLine(const DecodeMetrics &m, SweepAxis axis);

/// The CSV and the SVG of a sweep along `axis`.
std::pair<std::string, std::string>
sweepFiles(const std::vector<DecodeMetrics> &points, SweepAxis axis);

/// Plans and measures each point of the sweep `o` asks for (its contexts;
/// or its prompts, each prefilled with the step at o.context) in order,
/// telling `done` of each; an error names the point ("context 512: ...").
llvm::Expected<std::vector<DecodeMetrics>>
runDecodeSweep(const DecodeTarget &t, const DecodeSweepNumbers &o,
               const PlanProgress &progress,
               const std::function<void(const DecodeMetrics &)> &done);

/// Writes sweepFiles' CSV to `csvPath` and SVG to `svgPath`.
llvm::Error writeDecodeSweep(const std::vector<DecodeMetrics> &points,
                             SweepAxis axis, llvm::StringRef csvPath,
                             llvm::StringRef svgPath);

} // namespace lpx::deploy

#endif
