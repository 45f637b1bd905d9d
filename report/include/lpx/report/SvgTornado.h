//===- SvgTornado.h - A tornado chart of sensitivities -*- C++ -*-===//
//
// Which assumptions move a figure most: one horizontal bar per parameter,
// from the figure with the parameter at the low end of its range to the
// figure at its high end, around a vertical line at the base figure; the
// widest bar on top (the caller's order). Standalone SVG, no scripts.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_REPORT_SVGTORNADO_H
#define LPX_REPORT_SVGTORNADO_H

#include <optional>
#include <string>
#include <vector>

namespace lpx::report {

struct TornadoBar {
  std::string label;         // the parameter: "mxm.latency"
  std::string lowValue;      // the parameter at its low end: "2"
  std::string highValue;     // at its high end: "16"
  std::optional<double> low; // the figure there (nullopt: no figure)
  std::optional<double> high;
};

struct TornadoSpec {
  std::string title;
  std::string xLabel; // the figure: "seconds"
  double base = 0;    // the figure with every parameter at its base value
  std::vector<TornadoBar> bars; // drawn top to bottom
};

/// A complete standalone SVG document.
std::string renderTornadoSvg(const TornadoSpec &chart);

} // namespace lpx::report

#endif
