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

size_t
lpx::deploy::sensitivityPoints(const isa::ChipSpec &base,
                               llvm::ArrayRef<isa::AssumptionRange> ranges) {
  size_t n = 1;
  for (const isa::AssumptionRange &r : ranges)
    n += !isa::isChipValue(base, r.key, r.low) +
         !isa::isChipValue(base, r.key, r.high);
  return n;
}

Sensitivity lpx::deploy::runSensitivity(
    const Sweep &sweep, unsigned nodes,
    llvm::ArrayRef<isa::AssumptionRange> ranges, unsigned jobs,
    const std::function<void(size_t done, size_t failed)> &progress) {
  // Point 0 is the base; end e of range i is point 1 + 2i + e, run only
  // when its value differs from the base's.
  std::vector<std::pair<std::string, std::string>> settings(1 +
                                                            2 * ranges.size());
  std::vector<size_t> toRun = {0};
  for (size_t i = 0; i < ranges.size(); ++i)
    for (int e = 0; e < 2; ++e) {
      const std::string &v = e ? ranges[i].high : ranges[i].low;
      settings[1 + 2 * i + e] = {ranges[i].key, v};
      if (!isa::isChipValue(sweep.base, ranges[i].key, v))
        toRun.push_back(1 + 2 * i + e);
    }
  std::vector<PointResult> ran(toRun.size());
  runOnThreads(
      toRun.size(), jobs,
      [&](size_t j) {
        size_t p = toRun[j];
        try {
          ran[j] = p == 0 ? runChipPoint(sweep, {}, nodes)
                          : runChipPoint(sweep, {settings[p]}, nodes);
        } catch (const std::exception &e) { // e.g. out of memory
          ran[j].message = e.what();
        }
        return ran[j].timed();
      },
      progress);

  Sensitivity s;
  s.ran = toRun.size();
  s.reused = settings.size() - toRun.size();
  std::vector<PointResult> all(settings.size());
  for (size_t j = 0; j < toRun.size(); ++j)
    all[toRun[j]] = std::move(ran[j]);
  s.base = all[0];
  for (size_t p = 1; p < all.size(); ++p)
    if (!llvm::is_contained(toRun, p))
      all[p] = s.base;
  for (size_t i = 0; i < ranges.size(); ++i)
    s.rows.push_back({ranges[i], all[1 + 2 * i], all[2 + 2 * i]});
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

llvm::Error lpx::deploy::writeSensitivityFiles(const Sensitivity &s,
                                               StringRef csvPath,
                                               StringRef plotPath,
                                               StringRef title) {
  SensitivityPage page;
  page.tornado = tornadoOf(s, title);
  if (!csvPath.empty())
    page.csv = sensitivityCsv(s);
  return writeSensitivityPage(page, csvPath.str(), plotPath.str(), "");
}

/// "3501 cycles, 3.890 us" or the status of a point without a figure.
static std::string figureOf(const PointResult &r) {
  if (!r.timed())
    return r.status;
  return fmt::format("{} cycles, {:.3f} us", r.cycles, r.seconds * 1e6);
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
