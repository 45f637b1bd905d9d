//===- SweepReport.h - Sweep results as CSV and as a chart ------*- C++ -*-===//
#ifndef LPX_TOOLS_SWEEPREPORT_H
#define LPX_TOOLS_SWEEPREPORT_H

#include "SvgPlot.h"
#include "SweepGrid.h"
#include "llvm/ADT/ArrayRef.h"
#include <cstdint>
#include <optional>
#include <string>

namespace lpx::cli {

/// The outcome of compiling and simulating one point.
struct PointResult {
  /// ok | hazards | invalid-chip | compile-error | invalid-program |
  /// sim-error | error
  std::string status = "error";
  uint64_t cycles = 0;
  double seconds = 0;
  uint64_t lowerBound = 0;
  double efficiency = 0;
  std::string bottleneck;
  std::string message; // why a point failed, or its first hazard
  bool timed() const { return status == "ok" || status == "hazards"; }
};

/// The metrics a sweep can plot.
inline constexpr const char *kMetrics[] = {"cycles", "seconds", "efficiency",
                                           "tokens_per_s"};

/// `metric` of a timed point (tokens_per_s: one decode step is one token).
std::optional<double> metricOf(const PointResult &r, llvm::StringRef metric);

/// One header line, then one row per point in point order.
std::string renderCsv(const Grid &grid, llvm::ArrayRef<PointResult> results);

/// `metric` against the first axis with more than one value; one series per
/// combination of the other axes. Failed points are left out.
PlotSpec buildPlot(const Grid &grid, llvm::ArrayRef<PointResult> results,
                   llvm::StringRef metric, llvm::StringRef title);

} // namespace lpx::cli

#endif
