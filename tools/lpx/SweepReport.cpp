//===- SweepReport.cpp - Sweep results as CSV and as a chart --------------===//
#include "SweepReport.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>

using namespace lpx::cli;
using llvm::StringRef;

namespace {

/// RFC 4180: quote a field holding a comma, a quote or a line break.
std::string csvField(StringRef s) {
  if (s.find_first_of(",\"\n\r") == StringRef::npos)
    return s.str();
  std::string out = "\"";
  for (char c : s)
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string number(double v, const char *fmt) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format(fmt, v);
  return os.str();
}

/// The axis plotted along x: the first that varies.
size_t xAxisOf(const Grid &grid) {
  for (size_t i = 0; i < grid.axes().size(); ++i)
    if (grid.axes()[i].values.size() > 1)
      return i;
  return 0;
}

} // namespace

std::optional<double> lpx::cli::metricOf(const PointResult &r,
                                         StringRef metric) {
  if (!r.timed())
    return std::nullopt;
  if (metric == "cycles")
    return double(r.cycles);
  if (metric == "seconds")
    return r.seconds;
  if (metric == "efficiency")
    return r.efficiency;
  if (metric == "tokens_per_s" && r.seconds > 0)
    return 1.0 / r.seconds;
  return std::nullopt;
}

std::string lpx::cli::renderCsv(const Grid &grid,
                                llvm::ArrayRef<PointResult> results) {
  // Chip parameters first, in command-line order, then the node count.
  std::vector<size_t> order;
  size_t nodesAxis = 0;
  for (size_t i = 0; i < grid.axes().size(); ++i)
    if (grid.axes()[i].key == kNodesKey)
      nodesAxis = i;
    else
      order.push_back(i);
  order.push_back(nodesAxis);

  std::string out;
  for (size_t i : order)
    out += csvField(grid.axes()[i].key) + ",";
  out += "status,cycles,seconds,tokens_per_s,lower_bound,efficiency,"
         "bottleneck,message\n";
  for (size_t p = 0; p < results.size(); ++p) {
    std::vector<size_t> at = grid.coords(p);
    for (size_t i : order)
      out += csvField(grid.axes()[i].values[at[i]]) + ",";
    const PointResult &r = results[p];
    out += r.status + ",";
    if (r.timed())
      out += std::to_string(r.cycles) + "," + number(r.seconds, "%.9g") + "," +
             number(1.0 / r.seconds, "%.9g") + "," +
             std::to_string(r.lowerBound) + "," +
             number(r.efficiency, "%.4f") + "," + csvField(r.bottleneck) + ",";
    else
      out += ",,,,,,";
    out += csvField(r.message) + "\n";
  }
  return out;
}

PlotSpec lpx::cli::buildPlot(const Grid &grid,
                             llvm::ArrayRef<PointResult> results,
                             StringRef metric, StringRef title) {
  PlotSpec plot;
  size_t xa = xAxisOf(grid);
  const Axis &xAxis = grid.axes()[xa];
  plot.title = title.str();
  plot.xLabel = xAxis.key;
  plot.yLabel = metric == "tokens_per_s" ? "tokens per second (1 / seconds)"
                                         : metric.str();

  // Numbers where every value is one (units allowed), categories otherwise.
  std::vector<double> xs;
  for (const std::string &v : xAxis.values) {
    std::optional<double> n = numericValue(v);
    if (!n) {
      xs.clear();
      break;
    }
    xs.push_back(*n);
  }
  if (xs.empty()) {
    plot.xCategories = xAxis.values;
    for (size_t i = 0; i < xAxis.values.size(); ++i)
      xs.push_back(double(i));
  }

  // One series per combination of the other varying axes, in grid order.
  std::map<std::string, size_t> seriesOf;
  for (size_t p = 0; p < results.size(); ++p) {
    std::vector<size_t> at = grid.coords(p);
    std::string label;
    for (size_t i = 0; i < grid.axes().size(); ++i)
      if (i != xa && grid.axes()[i].values.size() > 1)
        label += (label.empty() ? "" : ", ") + grid.axes()[i].key + "=" +
                 grid.axes()[i].values[at[i]];
    auto [it, added] = seriesOf.try_emplace(label, plot.series.size());
    if (added)
      plot.series.push_back({label.empty() ? metric.str() : label, {}});
    if (std::optional<double> y = metricOf(results[p], metric))
      plot.series[it->second].points.push_back({xs[at[xa]], *y});
  }
  for (PlotSeries &s : plot.series)
    std::stable_sort(s.points.begin(), s.points.end(),
                     [](auto a, auto b) { return a.first < b.first; });
  return plot;
}
