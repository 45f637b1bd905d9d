//===- SweepReport.h - Sweep results as CSV and as a chart ------*- C++ -*-===//
#ifndef LPX_DEPLOY_SWEEPREPORT_H
#define LPX_DEPLOY_SWEEPREPORT_H

#include "lpx/report/SvgPlot.h"
#include "lpx/deploy/SweepGrid.h"
#include "lpx/deploy/SweepShard.h"
#include "llvm/ADT/ArrayRef.h"
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace lpx::deploy {

/// The outcome of compiling and simulating one point.
struct PointResult {
  /// ok | hazards | invalid-chip | compile-error | sim-error | error
  /// (the compiler verifies what it emits: a program that does not verify
  /// is a compile-error)
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

/// RFC 4180: `s`, quoted when it holds a comma, a quote or a line break.
std::string csvField(llvm::StringRef s);

/// The CSV's header line (with its line break).
std::string csvHeader(const Grid &grid);

/// The axis values a row of `point` starts with, in column order.
std::vector<std::string> csvAxisValues(const Grid &grid, size_t point);

/// One row per point: `results[i]` is the result of point `points[i]`.
std::string csvRows(const Grid &grid, llvm::ArrayRef<size_t> points,
                    llvm::ArrayRef<PointResult> results);

/// One CSV record: its text (line break included) and its fields unquoted.
struct CsvRecord {
  std::string text;
  std::vector<std::string> fields;
};

/// Splits CSV text (RFC 4180: quoted fields may hold commas, quotes and line
/// breaks) into records.
std::vector<CsvRecord> splitCsv(llvm::StringRef text);

/// The result a row of csvRows shows, as far as the CSV carries it (status,
/// cycles, seconds, lower bound, efficiency, bottleneck, message). Fails on
/// a row that is not one of ours.
llvm::Expected<PointResult> resultFromRow(const Grid &grid,
                                          const CsvRecord &row);

/// `metric` against the first axis with more than one value; one series per
/// combination of the other axes. Failed points are left out. The plot is
/// drawn from the rows as the CSV prints them, so chart and table agree and
/// a merged sweep draws the very same chart.
llvm::Expected<report::PlotSpec> buildPlot(const Grid &grid,
                                   llvm::ArrayRef<size_t> points,
                                   llvm::ArrayRef<CsvRecord> rows,
                                   llvm::StringRef metric,
                                   llvm::StringRef title);

/// A row's value to plot: nullopt leaves the row out (a failed point).
using RowValueFn =
    std::function<llvm::Expected<std::optional<double>>(const CsvRecord &)>;
/// `value` of each row against the first axis with more than one value,
/// one series per combination of the other axes (named `seriesName` when
/// there are none); buildPlot with any value.
llvm::Expected<report::PlotSpec>
plotRows(const Grid &grid, llvm::ArrayRef<size_t> points,
         llvm::ArrayRef<CsvRecord> rows, llvm::StringRef yLabel,
         llvm::StringRef seriesName, llvm::StringRef title,
         const RowValueFn &value);
/// RFC 4180: a field quoted when it holds a comma, a quote or a line break.
std::string csvField(llvm::StringRef s);
/// "seconds of model.onnx on tsp-v1"
std::string plotTitle(llvm::StringRef metric, llvm::StringRef modelFile,
                      llvm::StringRef chip);

/// Writes `head` + `rows` to `csvPath` and, unless `plotPath` is empty, the
/// chart of the rows (points[i] is row i's point). Both are rendered before
/// either is written, so a failure leaves neither.
llvm::Error writeSweepFiles(const Grid &grid, llvm::ArrayRef<size_t> points,
                            llvm::StringRef head, llvm::StringRef rows,
                            llvm::StringRef csvPath, llvm::StringRef plotPath,
                            llvm::StringRef metric, llvm::StringRef title);

/// An error unless `metric` is one of kMetrics: "unknown metric 'x'
/// (cycles, seconds, efficiency, tokens_per_s)".
llvm::Error checkSweepMetric(llvm::StringRef metric);

/// What `lpx sweep` prints at its end: "swept N point(s) of MODEL[ (part
/// I/N of G)] on CHIP: K ok[, H with hazards][, F failed] in T s on J
/// thread(s) -> CSV[, SVG]"; `shard` is null for the whole grid.
std::string sweepSummaryLine(llvm::ArrayRef<PointResult> results,
                             llvm::StringRef modelFile, llvm::StringRef chip,
                             const Shard *shard, size_t gridSize,
                             double seconds, unsigned jobs,
                             llvm::StringRef csvPath, llvm::StringRef plotPath);

} // namespace lpx::deploy

#endif
