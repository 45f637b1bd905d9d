//===- SweepReport.cpp - Sweep results as CSV and as a chart --------------===//
#include "lpx/deploy/SweepReport.h"
#include "lpx/deploy/DeployError.h"
#include "lpx/isa/AtomicFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>

using namespace lpx::deploy;
using namespace lpx::report;
using llvm::StringRef;

std::string lpx::deploy::csvField(StringRef s) {
  if (s.find_first_of(",\"\n\r") == StringRef::npos)
    return s.str();
  std::string out = "\"";
  for (char c : s)
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

namespace {

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

std::optional<double> lpx::deploy::metricOf(const PointResult &r,
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

namespace {

/// Chip parameters first, in command-line order, then the node count.
std::vector<size_t> csvAxisOrder(const Grid &grid) {
  std::vector<size_t> order;
  size_t nodesAxis = 0;
  for (size_t i = 0; i < grid.axes().size(); ++i)
    if (grid.axes()[i].key == kNodesKey)
      nodesAxis = i;
    else
      order.push_back(i);
  order.push_back(nodesAxis);
  return order;
}

} // namespace

std::string lpx::deploy::csvHeader(const Grid &grid) {
  std::string out;
  for (size_t i : csvAxisOrder(grid))
    out += csvField(grid.axes()[i].key) + ",";
  return out + "status,cycles,seconds,tokens_per_s,lower_bound,efficiency,"
               "bottleneck,message\n";
}

std::vector<std::string> lpx::deploy::csvAxisValues(const Grid &grid,
                                                 size_t point) {
  std::vector<size_t> at = grid.coords(point);
  std::vector<std::string> out;
  for (size_t i : csvAxisOrder(grid))
    out.push_back(grid.axes()[i].values[at[i]]);
  return out;
}

std::string lpx::deploy::csvRows(const Grid &grid, llvm::ArrayRef<size_t> points,
                              llvm::ArrayRef<PointResult> results) {
  std::string out;
  for (size_t k = 0; k < points.size(); ++k) {
    for (const std::string &v : csvAxisValues(grid, points[k]))
      out += csvField(v) + ",";
    const PointResult &r = results[k];
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

std::vector<CsvRecord> lpx::deploy::splitCsv(StringRef text) {
  std::vector<CsvRecord> out;
  CsvRecord rec;
  std::string field;
  bool quoted = false, any = false;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    any = true;
    if (quoted) {
      if (c != '"')
        field += c;
      else if (i + 1 < text.size() && text[i + 1] == '"')
        field += text[++i];
      else
        quoted = false;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      rec.fields.push_back(std::move(field));
      field.clear();
    } else if (c == '\n') {
      rec.fields.push_back(std::move(field));
      field.clear();
      rec.text = text.slice(start, i + 1).str();
      out.push_back(std::move(rec));
      rec = CsvRecord();
      start = i + 1;
      any = false;
    } else if (c != '\r') {
      field += c;
    }
  }
  if (any) { // a last record without a line break
    rec.fields.push_back(std::move(field));
    rec.text = text.substr(start).str() + "\n";
    out.push_back(std::move(rec));
  }
  return out;
}

llvm::Expected<PointResult> lpx::deploy::resultFromRow(const Grid &grid,
                                                    const CsvRecord &row) {
  const size_t axes = grid.axes().size();
  // status, cycles, seconds, tokens_per_s, lower_bound, efficiency,
  // bottleneck, message
  if (row.fields.size() != axes + 8)
    return error("a row has " + llvm::Twine(row.fields.size()) +
                 " fields where " + llvm::Twine(axes + 8) + " were expected");
  const std::string *f = row.fields.data() + axes;
  PointResult r;
  r.status = f[0];
  r.bottleneck = f[6];
  r.message = f[7];
  if (!r.timed())
    return r;
  if (StringRef(f[1]).getAsInteger(10, r.cycles) ||
      StringRef(f[2]).getAsDouble(r.seconds) ||
      StringRef(f[4]).getAsInteger(10, r.lowerBound) ||
      StringRef(f[5]).getAsDouble(r.efficiency))
    return error("a row with status " + r.status + " has no numbers: " +
                 StringRef(row.text).rtrim());
  return r;
}

llvm::Expected<PlotSpec> lpx::deploy::buildPlot(const Grid &grid,
                                             llvm::ArrayRef<size_t> points,
                                             llvm::ArrayRef<CsvRecord> rows,
                                             StringRef metric,
                                             StringRef title) {
  return plotRows(
      grid, points, rows,
      metric == "tokens_per_s" ? "tokens per second (1 / seconds)" : metric,
      metric, title,
      [&](const CsvRecord &row) -> llvm::Expected<std::optional<double>> {
        auto result = resultFromRow(grid, row);
        if (!result)
          return result.takeError();
        return metricOf(*result, metric);
      });
}

llvm::Expected<PlotSpec> lpx::deploy::plotRows(
    const Grid &grid, llvm::ArrayRef<size_t> points,
    llvm::ArrayRef<CsvRecord> rows, StringRef yLabel, StringRef seriesName,
    StringRef title, const RowValueFn &value) {
  PlotSpec plot;
  size_t xa = xAxisOf(grid);
  const Axis &xAxis = grid.axes()[xa];
  plot.title = title.str();
  plot.xLabel = xAxis.key;
  plot.yLabel = yLabel.str();
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
  for (size_t p = 0; p < points.size(); ++p) {
    std::vector<size_t> at = grid.coords(points[p]);
    std::string label;
    for (size_t i = 0; i < grid.axes().size(); ++i)
      if (i != xa && grid.axes()[i].values.size() > 1)
        label += (label.empty() ? "" : ", ") + grid.axes()[i].key + "=" +
                 grid.axes()[i].values[at[i]];
    auto [it, added] = seriesOf.try_emplace(label, plot.series.size());
    if (added)
      plot.series.push_back({label.empty() ? seriesName.str() : label, {}});
    auto y = value(rows[p]);
    if (!y)
      return y.takeError();
    if (*y)
      plot.series[it->second].points.push_back({xs[at[xa]], **y});
  }
  for (PlotSeries &s : plot.series)
    std::stable_sort(s.points.begin(), s.points.end(),
                     [](auto a, auto b) { return a.first < b.first; });
  return plot;
}

std::string lpx::deploy::plotTitle(StringRef metric, StringRef modelFile,
                                StringRef chip) {
  return (metric + " of " + llvm::sys::path::filename(modelFile) + " on " +
          chip)
      .str();
}

llvm::Error lpx::deploy::writeSweepFiles(const Grid &grid,
                                      llvm::ArrayRef<size_t> points,
                                      StringRef head, StringRef rows,
                                      StringRef csvPath, StringRef plotPath,
                                      StringRef metric, StringRef title) {
  std::string svg;
  if (!plotPath.empty()) {
    auto plot = buildPlot(grid, points, splitCsv(rows), metric, title);
    if (!plot)
      return plot.takeError();
    svg = renderSvg(*plot);
  }
  if (auto e = lpx::isa::writeFileAtomically(csvPath, (head + rows).str()))
    return e;
  if (!plotPath.empty())
    return lpx::isa::writeFileAtomically(plotPath, svg);
  return llvm::Error::success();
}

llvm::Error lpx::deploy::checkSweepMetric(StringRef metric) {
  if (llvm::is_contained(kMetrics, metric))
    return llvm::Error::success();
  return error("unknown metric '" + metric +
               "' (cycles, seconds, efficiency, tokens_per_s)");
}

std::string lpx::deploy::sweepSummaryLine(
    llvm::ArrayRef<PointResult> results, StringRef modelFile, StringRef chip,
    const Shard *shard, size_t gridSize, double seconds, unsigned jobs,
    StringRef csvPath, StringRef plotPath) {
  size_t ok = 0, hazards = 0, total = results.size();
  for (const PointResult &r : results) {
    ok += r.status == "ok";
    hazards += r.status == "hazards";
  }
  std::string line;
  llvm::raw_string_ostream os(line);
  os << "swept " << total << " point(s) of "
     << llvm::sys::path::filename(modelFile);
  if (shard)
    os << " (part " << shard->index + 1 << "/" << shard->count << " of "
       << gridSize << ")";
  os << " on " << chip << ": " << ok << " ok";
  if (hazards)
    os << ", " << hazards << " with hazards";
  if (total - ok - hazards)
    os << ", " << (total - ok - hazards) << " failed";
  os << llvm::format(" in %.1f s on %u thread(s) -> ", seconds, jobs)
     << csvPath << (plotPath.empty() ? "" : ", ") << plotPath;
  return line;
}
