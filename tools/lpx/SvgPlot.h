//===- SvgPlot.h - A dependency-free SVG line chart -------------*- C++ -*-===//
//
// Enough of a plotting library for sweep results: one polyline per series,
// markers at the data points, axis ticks and labels, a legend, and a log x
// axis when the x values span more than two decades.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_TOOLS_SVGPLOT_H
#define LPX_TOOLS_SVGPLOT_H

#include <string>
#include <utility>
#include <vector>

namespace lpx::cli {

struct PlotSeries {
  std::string label;
  std::vector<std::pair<double, double>> points; // (x, y), in x order
};

struct PlotSpec {
  std::string title;
  std::string xLabel;
  std::string yLabel;
  std::vector<PlotSeries> series;
  /// Non-empty: x values are category positions 0, 1, ... with these names
  /// (for parameter values that are not numbers).
  std::vector<std::string> xCategories;
};

/// A complete standalone SVG document.
std::string renderSvg(const PlotSpec &plot);

} // namespace lpx::cli

#endif
