//===- SvgPlot.h - A dependency-free SVG line chart -------------*- C++ -*-===//
//
// Enough of a plotting library for sweep results: one polyline per series,
// markers at the data points, axis ticks and labels, a legend, and a log x
// axis when the x values span more than two decades.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_REPORT_SVGPLOT_H
#define LPX_REPORT_SVGPLOT_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <utility>
#include <vector>

namespace lpx::report {

struct PlotSeries {
  std::string label;
  std::vector<std::pair<double, double>> points; // (x, y), in x order
  bool joined = true; // false: markers only (a scatter)
  /// Non-empty: one name per point, in its marker's tooltip.
  std::vector<std::string> pointLabels;
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

/// About `count` round tick values (1, 2 or 5 times a power of ten) from at
/// or below `lo` to at or above `hi`.
std::vector<double> niceTicks(double lo, double hi, int count);

/// A complete standalone SVG document.
std::string renderSvg(const PlotSpec &plot);

/// Tick text: SI prefixes for very large or small values ("7.5\u00b5",
/// "230.7M"), which read better on an axis than exponents.
std::string tickLabel(double v);

/// The start of a standalone SVG document of that size: white background,
/// `title` centred on `titleX` at the top. The caller closes it (</svg>).
std::string svgOpen(double width, double height, double titleX,
                    llvm::StringRef title);

} // namespace lpx::report

#endif
