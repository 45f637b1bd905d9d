//===- DecodeReport.h - One planned deployment as a self-contained page -*- C++ -*-===//
//
// `lpx decode --report decode.html`: one HTML file with no other address
// (styles, SVG and a little script inline) of the deployment `lpx decode`
// planned: the headline figures (TTFT, TPOT, tokens/s per user and in
// aggregate, chips, placement), each beside its bound and efficiency; the
// tokens' path through the pipeline stages on one time axis, for the
// prefill (each chunk) and for a decode step (PhaseTimeline.h: one row per
// stage, then the queues of the busiest chips of the busiest stage in
// full); the SRAM of every chip as a strip of weights, KV cache and
// activations; the bounds and where the time beyond them goes; the
// placements tried. Stages fold the chips, so the page stays readable and
// small at hundreds of chips. Everything drawn is in the DecodeMetrics
// `lpx decode --json` prints from.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_DECODEREPORT_H
#define LPX_DEPLOY_DECODEREPORT_H

#include "lpx/deploy/DecodeMetrics.h"

#include <string>

namespace lpx::deploy {

std::string renderDecodeReport(const DecodeMetrics &m);

} // namespace lpx::deploy

#endif
