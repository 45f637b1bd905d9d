//===- ServeReport.h - `lpx serve`'s HTML page and curve plot ---*- C++ -*-===//
//
// `--report serve.html`: one self-contained page (styles, SVG and a little
// script inline; no other address): the summary with the deployment, where
// its table came from and the interpolation used between its simulated
// points; the CDFs of TTFT, TPOT and E2E; the load curve when swept; the
// batch size and queue length over time; every simulated point of the table.
// `--curve-svg`: the curve of P50/P99 TTFT, TPOT and tokens/s against load.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_SERVEREPORT_H
#define LPX_DEPLOY_SERVEREPORT_H

#include "lpx/deploy/ServeRun.h"

#include <string>

namespace lpx::deploy {

/// Three plots stacked in one SVG document: TTFT P50/P99, TPOT P50/P99 and
/// tokens/s against load.
std::string renderCurveSvg(const serve::SweepCurve &curve,
                           const ServeSetup &setup);

std::string renderServeReport(const ServeOutcome &out, const ServeSetup &setup,
                              const CachedTable &table);

} // namespace lpx::deploy

#endif
