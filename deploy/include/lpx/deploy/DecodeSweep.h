//===- DecodeSweep.h - Decode figures against context or prompt length -*- C++ -*-===//
#ifndef LPX_DEPLOY_DECODESWEEP_H
#define LPX_DEPLOY_DECODESWEEP_H

#include "lpx/deploy/DecodeMetrics.h"

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

} // namespace lpx::deploy

#endif
