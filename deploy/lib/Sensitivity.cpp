//===- Sensitivity.cpp - How far a figure moves over the assumptions ------===//
#include "lpx/deploy/Sensitivity.h"

#include <fmt/format.h>
#include "lpx/deploy/PointPool.h"
#include "lpx/deploy/SensitivityReport.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <exception>

using namespace lpx;
using namespace lpx::deploy;
using llvm::StringRef;

namespace {

std::string formatted(const char *fmt, double v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format(fmt, v);
  return os.str();
}

/// Seconds in the unit that suits `scale`: (factor, "us").
std::pair<double, const char *> timeUnit(double scale) {
  if (scale < 1e-3)
    return {1e6, "us"};
  if (scale < 1)
    return {1e3, "ms"};
  return {1, "s"};
}

std::string csvFigures(const PointResult &r) {
  std::string out = r.status + ",";
  if (r.timed())
    return out + std::to_string(r.cycles) + "," + formatted("%.9g", r.seconds) +
           ",";
  return out + ",,";
}

} // namespace

std::optional<double> SensitivityRow::swingSeconds() const {
  if (!low.timed() || !high.timed())
    return std::nullopt;
  return std::fabs(high.seconds - low.seconds);
}

std::vector<RangeEnd>
lpx::deploy::rangeEnds(const isa::ChipSpec &base,
                       llvm::ArrayRef<isa::AssumptionRange> ranges) {
  std::vector<RangeEnd> ends;
  for (size_t i = 0; i < ranges.size(); ++i)
    for (bool high : {false, true}) {
      const std::string &v = high ? ranges[i].high : ranges[i].low;
      if (!isa::isChipValue(base, ranges[i].key, v))
        ends.push_back({i, high, ranges[i].key, v});
    }
  return ends;
}

size_t
lpx::deploy::sensitivityPoints(const isa::ChipSpec &base,
                               llvm::ArrayRef<isa::AssumptionRange> ranges) {
  return 1 + rangeEnds(base, ranges).size();
}

Sensitivity lpx::deploy::runSensitivityOf(
    const isa::ChipSpec &base, llvm::ArrayRef<isa::AssumptionRange> ranges,
    unsigned jobs, const SensitivityPointFn &point,
    const std::function<void(size_t done, size_t failed)> &progress) {
  // Point 0 is the base, point 1 + k the k-th end that differs from it.
  const std::vector<RangeEnd> ends = rangeEnds(base, ranges);
  std::vector<PointResult> ran(1 + ends.size());
  runOnThreads(
      ran.size(), jobs,
      [&](size_t j) {
        try {
          ran[j] = j == 0 ? point({})
                          : point({{ends[j - 1].key, ends[j - 1].value}});
        } catch (const std::exception &e) { // e.g. out of memory
          ran[j].message = e.what();
        }
        return ran[j].timed();
      },
      progress);

  Sensitivity s;
  s.ran = ran.size();
  s.reused = 2 * ranges.size() - ends.size();
  s.base = ran[0];
  for (const isa::AssumptionRange &r : ranges)
    s.rows.push_back({r, s.base, s.base});
  for (size_t k = 0; k < ends.size(); ++k)
    (ends[k].high ? s.rows[ends[k].row].high : s.rows[ends[k].row].low) =
        std::move(ran[k + 1]);
  // Widest first; rows without a swing (a failed end) last; ties keep the
  // description's order.
  std::stable_sort(s.rows.begin(), s.rows.end(),
                   [](const SensitivityRow &a, const SensitivityRow &b) {
                     std::optional<double> x = a.swingSeconds(),
                                           y = b.swingSeconds();
                     if (x && y)
                       return *x > *y;
                     return x.has_value() && !y.has_value();
                   });
  return s;
}

Sensitivity lpx::deploy::runSensitivity(
    const Sweep &sweep, unsigned nodes,
    llvm::ArrayRef<isa::AssumptionRange> ranges, unsigned jobs,
    const std::function<void(size_t done, size_t failed)> &progress) {
  return runSensitivityOf(
      sweep.base, ranges, jobs,
      [&](llvm::ArrayRef<std::pair<std::string, std::string>> settings) {
        return runChipPoint(sweep, settings, nodes);
      },
      progress);
}

SensitivityBand lpx::deploy::bandOf(const Sensitivity &s) {
  SensitivityBand b;
  b.assumptions = s.rows.size();
  b.lowSeconds = b.highSeconds = s.base.seconds;
  b.lowCycles = b.highCycles = s.base.cycles;
  for (const SensitivityRow &row : s.rows)
    for (const PointResult *r : {&row.low, &row.high}) {
      if (!r->timed()) {
        ++b.failed;
        continue;
      }
      b.lowSeconds = std::min(b.lowSeconds, r->seconds);
      b.highSeconds = std::max(b.highSeconds, r->seconds);
      b.lowCycles = std::min(b.lowCycles, r->cycles);
      b.highCycles = std::max(b.highCycles, r->cycles);
    }
  return b;
}

std::string lpx::deploy::sensitivitySummary(const Sensitivity &s) {
  SensitivityBand b = bandOf(s);
  auto [factor, unit] = timeUnit(s.base.seconds);
  std::string out =
      "seconds " + formatted("%.3f", s.base.seconds * factor) + " " + unit +
      " (band " + formatted("%.3f", b.lowSeconds * factor) + "-" +
      formatted("%.3f", b.highSeconds * factor) + " " + unit + " over " +
      std::to_string(b.assumptions) + " assumptions); cycles " +
      std::to_string(s.base.cycles) + " (band " + std::to_string(b.lowCycles) +
      "-" + std::to_string(b.highCycles) + ")";
  if (b.failed)
    out += "; " + std::to_string(b.failed) + " end(s) without a figure";
  return out;
}

std::string lpx::deploy::sensitivityCsv(const Sensitivity &s) {
  std::string out =
      "key,low,high,base_status,base_cycles,base_seconds,low_status,"
      "low_cycles,low_seconds,high_status,high_cycles,high_seconds,"
      "swing_seconds,message,reason\n";
  for (const SensitivityRow &row : s.rows) {
    out += csvField(row.range.key) + "," + csvField(row.range.low) + "," +
           csvField(row.range.high) + "," + csvFigures(s.base) +
           csvFigures(row.low) + csvFigures(row.high);
    std::optional<double> swing = row.swingSeconds();
    out += (swing ? formatted("%.9g", *swing) : std::string()) + ",";
    std::string message =
        !row.low.message.empty() ? row.low.message : row.high.message;
    out += csvField(message) + "," + csvField(row.range.reason) + "\n";
  }
  return out;
}

report::TornadoSpec lpx::deploy::tornadoOf(const Sensitivity &s,
                                           StringRef title) {
  report::TornadoSpec t;
  t.title = title.str();
  t.xLabel = "seconds";
  t.base = s.base.seconds;
  for (const SensitivityRow &row : s.rows) {
    report::TornadoBar bar{row.range.key, row.range.low, row.range.high,
                           std::nullopt, std::nullopt};
    if (row.low.timed())
      bar.low = row.low.seconds;
    if (row.high.timed())
      bar.high = row.high.seconds;
    t.bars.push_back(std::move(bar));
  }
  return t;
}

/// "3501 cycles, 3.890 us" or the status of a point without a figure.
static std::string figureOf(const PointResult &r) {
  if (!r.timed())
    return r.status;
  return fmt::format("{} cycles, {:.3f} us", r.cycles, r.seconds * 1e6);
}

llvm::Error lpx::deploy::writeSensitivityFiles(const Sensitivity &s,
                                               StringRef csvPath,
                                               StringRef plotPath,
                                               StringRef reportPath,
                                               StringRef title) {
  SensitivityPage page;
  page.title = title.str();
  page.question = "The model compiled and simulated on the chip as "
                  "described (the base), then once with each ranged "
                  "assumption at the low and once at the high end of its "
                  "range, the others at their base values.";
  page.base = "base: " + figureOf(s.base);
  page.band = sensitivitySummary(s);
  page.tornado = tornadoOf(s, title);
  page.csv = sensitivityCsv(s);
  return writeSensitivityPage(page, csvPath.str(), plotPath.str(),
                              reportPath.str());
}

void lpx::deploy::printSensitivity(const Sensitivity &s, llvm::StringRef model,
                                   llvm::StringRef chip, unsigned nodes,
                                   double seconds, unsigned jobs,
                                   llvm::raw_ostream &os) {
  os << fmt::format("sensitivity of {} on {} ({} node(s)): {} point(s) run, "
                    "{} end(s) at the base's value in {:.1f} s on {} "
                    "thread(s)\n",
                    model.str(), chip.str(), nodes, s.ran, s.reused, seconds,
                    jobs);
  os << "base: " << figureOf(s.base) << "\n";
  size_t width = 0;
  for (const SensitivityRow &row : s.rows)
    width = std::max(width, row.range.key.size());
  for (const SensitivityRow &row : s.rows) {
    std::optional<double> swing = row.swingSeconds();
    os << fmt::format("  {:<{}}  {:<12}{:<26} .. {:<26}{}\n", row.range.key,
                      width, row.range.low + ".." + row.range.high,
                      figureOf(row.low), figureOf(row.high),
                      swing ? fmt::format("  swing {:.3f} us", *swing * 1e6)
                            : std::string());
  }
  os << sensitivitySummary(s);
}
