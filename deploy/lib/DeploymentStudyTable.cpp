//===- DeploymentStudyTable.cpp - A deployment study as CSV and chart -----===//
#include "lpx/deploy/DeploymentStudyTable.h"
#include "lpx/deploy/DeployError.h"
#include "lpx/deploy/ServeStudy.h"
#include "lpx/deploy/StudyReport.h"
#include "lpx/isa/AtomicFile.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <fmt/format.h>

using namespace lpx;
using namespace lpx::deploy;

namespace {

size_t columnIndex(llvm::ArrayRef<const char *> columns, llvm::StringRef name) {
  return size_t(llvm::find(columns, name) - columns.begin());
}
size_t columnIndex(llvm::StringRef name) {
  return columnIndex(kStudyColumns, name);
}
constexpr size_t kColumns = std::size(kStudyColumns);

std::string fixed(double v, int digits) {
  return fmt::format("{:.{}f}", v, digits);
}

/// A field as a number, when the row has one there.
std::optional<double> numberAt(const std::vector<std::string> &row,
                               size_t axes, llvm::StringRef column,
                               llvm::ArrayRef<const char *> columns =
                                   kStudyColumns) {
  double v;
  llvm::StringRef text(row[axes + columnIndex(columns, column)]);
  if (text.empty() || text.getAsDouble(v))
    return std::nullopt;
  return v;
}

} // namespace

const StudyKind &lpx::deploy::decodeStudyKind() {
  static const char *const text[] = {"status", "bottleneck", "pareto",
                                     "message"};
  static const StudyKind kind{"deployment", kStudyColumns, text, "tpot_us",
                              true};
  return kind;
}

const StudyKind *lpx::deploy::studyKindNamed(llvm::StringRef name) {
  for (const StudyKind *k : {&decodeStudyKind(), &serveStudyKind()})
    if (name == k->name)
      return k;
  return nullptr;
}

size_t lpx::deploy::studyShardRun(const Grid &grid, size_t shards) {
  if (grid.axes().empty())
    return 1;
  const size_t run = grid.axes().back().values.size();
  return grid.size() / run >= shards ? run : 1;
}

bool lpx::deploy::isStudyMetric(const StudyKind &kind, llvm::StringRef column) {
  return llvm::is_contained(kind.columns, column) &&
         !llvm::is_contained(kind.textColumns, column);
}

std::string lpx::deploy::studyKeyHeading(const StudyKind &kind,
                                         const std::string &key) {
  // A swept key that is also a column (chips, tp, pp) is named apart, so
  // the header has no name twice.
  return llvm::is_contained(kind.columns, key) ? key + "_swept" : key;
}

std::string lpx::deploy::studyCsvHeader(const StudyKind &kind,
                                        const Grid &grid) {
  std::vector<std::string> names;
  for (const Axis &a : grid.axes())
    names.push_back(studyKeyHeading(kind, a.key));
  names.insert(names.end(), kind.columns.begin(), kind.columns.end());
  return studyCsvRows({names});
}

std::vector<std::string> lpx::deploy::studyAxisValues(const Grid &grid,
                                                      size_t index) {
  std::vector<std::string> row;
  std::vector<size_t> at = grid.coords(index);
  for (size_t i = 0; i < grid.axes().size(); ++i)
    row.push_back(grid.axes()[i].values[at[i]]);
  return row;
}

std::vector<std::string>
lpx::deploy::studyRowFields(const Grid &grid, size_t index,
                            const DeploymentPoint &point) {
  std::vector<std::string> row = studyAxisValues(grid, index);
  std::vector<std::string> cols(kColumns);
  cols[columnIndex("status")] = point.status;
  cols[columnIndex("message")] = point.message;
  if (point.ok()) {
    const DecodeMetrics &m = point.metrics;
    uint64_t fullest = 0;
    for (const ChipSram &s : m.sram)
      fullest = std::max(fullest, s.used());
    auto set = [&](const char *name, std::string v) {
      cols[columnIndex(name)] = std::move(v);
    };
    set("chips", std::to_string(m.chips));
    if (m.tp) { // a mesh; one chip has none
      set("tp", std::to_string(m.tp));
      set("pp", std::to_string(m.pp));
    }
    set("ttft_us", m.hasPrefill ? fixed(m.ttftUs(), 3) : "");
    set("tpot_us", fixed(m.tpotUs(), 3));
    set("tokens_per_s_per_user", fixed(m.tokensPerSecondPerUser, 2));
    set("tokens_per_s", fixed(m.tokensPerSecond, 2));
    set("tokens_per_s_per_chip",
        fixed(m.chips ? m.tokensPerSecond / m.chips : 0, 3));
    set("sram_fullest_bytes", std::to_string(fullest));
    set("ttft_latency_bound_us", m.hasPrefill ? fixed(m.ttftLatencyBoundUs, 3) : "");
    set("tpot_latency_bound_us", fixed(m.tpotLatencyBoundUs, 3));
    set("physical_bound_us", fixed(m.physicalBoundUs, 3));
    set("ttft_latency_efficiency",
        m.hasPrefill ? fixed(m.ttftLatencyEfficiency, 4) : "");
    set("tpot_latency_efficiency", fixed(m.tpotLatencyEfficiency, 4));
    set("efficiency", fixed(m.efficiency, 4));
    set("bottleneck", m.bottleneck);
  }
  row.insert(row.end(), cols.begin(), cols.end());
  return row;
}

void lpx::deploy::markPareto(const Grid &grid,
                             std::vector<std::vector<std::string>> &rows) {
  const size_t axes = grid.axes().size();
  const size_t at = axes + columnIndex("pareto");
  auto figures = [&](const std::vector<std::string> &r)
      -> std::optional<std::pair<double, double>> {
    if (r[axes + columnIndex("status")] != "ok")
      return std::nullopt;
    auto chips = numberAt(r, axes, "chips");
    auto speed = numberAt(r, axes, "tokens_per_s_per_user");
    if (!chips || !speed)
      return std::nullopt;
    return std::pair{*chips, *speed};
  };
  for (std::vector<std::string> &r : rows) {
    auto mine = figures(r);
    bool beaten = !mine;
    for (const std::vector<std::string> &other : rows) {
      if (beaten)
        break;
      auto theirs = figures(other);
      beaten = theirs && theirs->first <= mine->first &&
               theirs->second >= mine->second &&
               (theirs->first < mine->first || theirs->second > mine->second);
    }
    r[at] = beaten ? "" : "frontier";
  }
}

llvm::Expected<std::vector<std::vector<std::string>>>
lpx::deploy::studyRowsFromCsv(const StudyKind &kind, const Grid &grid,
                              llvm::StringRef text) {
  std::vector<std::vector<std::string>> rows;
  const size_t width = grid.axes().size() + kind.columns.size();
  for (CsvRecord &r : splitCsv(text)) {
    if (r.fields.size() != width)
      return error("a row has " + llvm::Twine(r.fields.size()) +
                   " fields; a row of this study has " + llvm::Twine(width));
    rows.push_back(std::move(r.fields));
  }
  return rows;
}

std::string lpx::deploy::decodeStudyNotes(
    const Grid &grid, const std::vector<std::vector<std::string>> &rows,
    const std::vector<DeploymentPoint> &points) {
  std::string out;
  size_t searched = 0, hinted = 0, compiles = 0, again = 0;
  for (const DeploymentPoint &p : points)
    again += p.ok() && p.resimulated;
  if (again)
    out += fmt::format("  re-simulated: {} point(s) from the programs of {} "
                       "planned (they differ only in keys the compiler does "
                       "not read)\n",
                       again, points.size() - again);
  for (const DeploymentPoint &p : points)
    if (p.ok() && p.metrics.searched) {
      ++searched;
      hinted += p.metrics.hintConfirmed;
      compiles += p.metrics.searchCompiles;
    }
  if (searched)
    out += fmt::format("  chip search: {} compile(s) for {} point(s){}\n",
                       compiles, searched,
                       hinted ? fmt::format("; {} started from the count of "
                                            "the point before them in the "
                                            "last key and were confirmed in 2",
                                            hinted)
                              : "");
  const size_t axes = grid.axes().size();
  auto col = [&](const std::vector<std::string> &r, const char *name) {
    return r[axes + columnIndex(name)];
  };
  for (const std::vector<std::string> &r : rows) {
    if (col(r, "pareto").empty())
      continue;
    std::string at;
    for (size_t i = 0; i < axes; ++i)
      at += (i ? ", " : "") + grid.axes()[i].key + "=" + r[i];
    out += fmt::format("  frontier: {}: {} chip(s), TPOT {} us, {} tokens/s "
                       "per user\n",
                       at, col(r, "chips"), col(r, "tpot_us"),
                       col(r, "tokens_per_s_per_user"));
  }
  return out;
}

std::string
lpx::deploy::studyCsvRows(const std::vector<std::vector<std::string>> &rows) {
  std::string out;
  for (const std::vector<std::string> &r : rows) {
    for (size_t i = 0; i < r.size(); ++i)
      out += (i ? "," : "") + csvField(r[i]);
    out += "\n";
  }
  return out;
}

llvm::Error lpx::deploy::writeStudyFiles(
    const StudyKind &kind, const Grid &grid, llvm::ArrayRef<size_t> points,
    llvm::StringRef head, const std::vector<std::vector<std::string>> &rows,
    const StudyFiles &files) {
  const std::string text = studyCsvRows(rows);
  std::string svg, page;
  if (!files.plot.empty() || !files.report.empty()) {
    const size_t axes = grid.axes().size();
    std::vector<CsvRecord> records = splitCsv(text);
    auto plot = plotRows(
        grid, points, records, files.metric, files.metric, files.title,
        [&](const CsvRecord &r) -> llvm::Expected<std::optional<double>> {
          return numberAt(r.fields, axes, files.metric, kind.columns);
        });
    if (!plot)
      return plot.takeError();
    svg = report::renderSvg(*plot);
  }
  if (!files.report.empty())
    page = renderStudyReport(
        {&kind, &grid, &rows, files.title, files.baseLine, files.metric, svg});
  if (auto e = isa::writeFileAtomically(files.csv, (head + text).str()))
    return e;
  if (!files.plot.empty())
    if (auto e = isa::writeFileAtomically(files.plot, svg))
      return e;
  if (!files.report.empty())
    return isa::writeFileAtomically(files.report, page);
  return llvm::Error::success();
}
