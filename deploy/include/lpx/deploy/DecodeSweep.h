//===- DecodeSweep.h - TPOT against context length, as CSV and SVG -*- C++ -*-===//
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

} // namespace lpx::deploy

#endif
