//===- DecodeSensitivity.cpp - A deployment's figures over the assumptions -===//
#include "lpx/deploy/DecodeSensitivity.h"
#include "lpx/deploy/Evaluate.h"
#include "lpx/deploy/PointPool.h"
#include "lpx/deploy/Sensitivity.h"
#include "lpx/deploy/SweepReport.h"

#include "llvm/Support/Path.h"

#include <algorithm>
#include <fmt/format.h>

using namespace lpx;
using namespace lpx::deploy;

llvm::ArrayRef<DecodeFigure> lpx::deploy::decodeFigures() {
  static const DecodeFigure figures[] = {
      {"tpot_us", "TPOT", "us", 3, [](const DecodeMetrics &m) { return m.tpotUs(); }},
      {"ttft_us", "TTFT", "us", 3, [](const DecodeMetrics &m) { return m.ttftUs(); }},
      {"tokens_per_s_per_user", "tokens/s per user", "", 1,
       [](const DecodeMetrics &m) { return m.tokensPerSecondPerUser; }},
      {"tokens_per_s", "tokens/s", "", 1,
       [](const DecodeMetrics &m) { return m.tokensPerSecond; }},
      {"chips", "chips", "", 0, [](const DecodeMetrics &m) { return double(m.chips); }}};
  return figures;
}

const DecodeFigure *lpx::deploy::decodeFigureNamed(llvm::StringRef name) {
  for (const DecodeFigure &f : decodeFigures())
    if (name == f.name)
      return &f;
  return nullptr;
}

std::optional<double>
DecodeSensitivityRow::swing(const DecodeFigure &f) const {
  if (!low.ok() || !high.ok())
    return std::nullopt;
  return std::abs(f.of(high.metrics) - f.of(low.metrics));
}

DecodeSensitivity lpx::deploy::runDecodeSensitivity(
    const DecodeWords &words, const isa::ChipSpec &base,
    llvm::ArrayRef<isa::AssumptionRange> ranges, unsigned jobs,
    llvm::StringRef scratchDir,
    const std::function<void(size_t, size_t)> &progress) {
  auto dirOf = [&](size_t k) {
    llvm::SmallString<256> dir(scratchDir);
    llvm::sys::path::append(dir, "end-" + std::to_string(k));
    return dir;
  };
  DecodeSensitivity s;
  s.base = planDeployment(words, dirOf(0), 0, /*keepPlan=*/true);
  s.ran = 1;
  if (progress)
    progress(1, !s.base.ok());
  // Every end that is not the base's own value, planned from its chips.
  struct End {
    size_t row;
    bool high;
    DecodeWords words;
    bool compiled; // the key is one the compiler reads
  };
  std::vector<End> ends;
  for (const isa::AssumptionRange &r : ranges)
    s.rows.push_back({r, s.base, s.base});
  for (const RangeEnd &e : rangeEnds(base, ranges)) {
    DecodeWords w = words;
    w.sets.push_back(e.key + "=" + e.value);
    ends.push_back({e.row, e.high, std::move(w), compilerReadsKey(e.key)});
  }
  s.reused = 2 * ranges.size() - ends.size();
  const unsigned hint = s.base.ok() ? s.base.metrics.chips : 0;
  std::vector<DeploymentPoint> planned(ends.size());
  runOnThreads(
      ends.size(), jobs,
      [&](size_t k) {
        // A key the compiler does not read: the base's programs again.
        const DecodePlan *from =
            ends[k].compiled ? nullptr : s.base.plan.get();
        planned[k] = planDeployment(ends[k].words, dirOf(k + 1), hint, false,
                                    from);
        return planned[k].ok();
      },
      [&](size_t done, size_t failed) {
        if (progress)
          progress(1 + done, !s.base.ok() + failed);
      });
  s.base.plan.reset(); // the programs are large; the figures are kept
  for (DecodeSensitivityRow &r : s.rows)
    r.low.plan = r.high.plan = nullptr;
  for (size_t k = 0; k < ends.size(); ++k) {
    s.resimulated += planned[k].resimulated;
    (ends[k].high ? s.rows[ends[k].row].high : s.rows[ends[k].row].low) =
        std::move(planned[k]);
  }
  s.ran += ends.size();
  const DecodeFigure &tpot = decodeFigures().front();
  std::stable_sort(s.rows.begin(), s.rows.end(),
                   [&](const DecodeSensitivityRow &a,
                       const DecodeSensitivityRow &b) {
                     std::optional<double> x = a.swing(tpot), y = b.swing(tpot);
                     if (bool(x) != bool(y))
                       return bool(x); // failed ends last
                     return x && *x > *y;
                   });
  return s;
}

/// "base: 24 chip(s), TTFT 1813.540 us, TPOT 212.723 us"
static std::string baseLine(const DecodeSensitivity &s) {
  const DecodeMetrics &m = s.base.metrics;
  return fmt::format("base: {} chip(s), TTFT {:.3f} us, TPOT {:.3f} us",
                     m.chips, m.ttftUs(), m.tpotUs());
}

std::string lpx::deploy::decodeSensitivitySummary(const DecodeSensitivity &s) {
  std::string out;
  if (!s.base.ok())
    return out;
  for (const DecodeFigure &f : decodeFigures()) {
    double base = f.of(s.base.metrics), lo = base, hi = base;
    for (const DecodeSensitivityRow &r : s.rows)
      for (const DeploymentPoint *p : {&r.low, &r.high})
        if (p->ok()) {
          lo = std::min(lo, f.of(p->metrics));
          hi = std::max(hi, f.of(p->metrics));
        }
    const int digits = f.digits;
    out += fmt::format("{}{} {:.{}f}{}{} (band {:.{}f}-{:.{}f}{}{} over {} "
                       "assumptions)",
                       out.empty() ? "" : "; ", f.label, base, digits,
                       *f.unit ? " " : "", f.unit, lo, digits, hi, digits,
                       *f.unit ? " " : "", f.unit, s.rows.size());
  }
  return out;
}

std::string lpx::deploy::decodeSensitivityCsv(const DecodeSensitivity &s) {
  std::string out = "key,low,high";
  for (const char *end : {"low", "high"}) {
    out += std::string(",") + end + "_status";
    for (const DecodeFigure &f : decodeFigures())
      out += std::string(",") + end + "_" + f.name;
  }
  out += ",tpot_swing_us,message,reason\n";
  for (const DecodeSensitivityRow &r : s.rows) {
    out += csvField(r.range.key) + "," + csvField(r.range.low) + "," +
           csvField(r.range.high);
    std::string message;
    for (const DeploymentPoint *p : {&r.low, &r.high}) {
      out += "," + p->status;
      for (const DecodeFigure &f : decodeFigures())
        out += "," + (p->ok() ? fmt::format("{:.{}f}", f.of(p->metrics),
                                            f.digits)
                              : std::string());
      if (!p->ok() && message.empty())
        message = p->message;
    }
    std::optional<double> swing = r.swing(decodeFigures().front());
    out += "," + (swing ? fmt::format("{:.3f}", *swing) : std::string()) + "," +
           csvField(message) + "," + csvField(r.range.reason) + "\n";
  }
  return out;
}

void lpx::deploy::printDecodeSensitivity(const DecodeSensitivity &s,
                                         const DecodeFigure &f,
                                         llvm::StringRef model,
                                         llvm::StringRef chip, double seconds,
                                         unsigned jobs, llvm::raw_ostream &os) {
  os << fmt::format("sensitivity of {} on {}: {} deployment(s) planned{}, {} "
                    "end(s) at the base's value in {:.1f} s on {} "
                    "thread(s)\n",
                    model.str(), chip.str(), s.ran,
                    s.resimulated ? fmt::format(" ({} of them the base's "
                                                "programs re-simulated)",
                                                s.resimulated)
                                  : std::string(),
                    s.reused, seconds, jobs);
  os << baseLine(s) << "\n";
  size_t width = 0;
  for (const DecodeSensitivityRow &r : s.rows)
    width = std::max(width, r.range.key.size());
  auto at = [&](const DeploymentPoint &p) {
    return p.ok() ? fmt::format("{:.{}f}", f.of(p.metrics), f.digits)
                  : p.status;
  };
  for (const DecodeSensitivityRow &r : s.rows) {
    std::optional<double> swing = r.swing(f);
    os << fmt::format("  {:<{}}  {:<14}{} {:<12} .. {:<12}{}\n", r.range.key,
                      width, r.range.low + ".." + r.range.high, f.label,
                      at(r.low), at(r.high),
                      swing ? fmt::format("  swing {:.{}f}", *swing, f.digits)
                            : std::string());
  }
  os << decodeSensitivitySummary(s);
}

report::TornadoSpec lpx::deploy::decodeTornado(const DecodeSensitivity &s,
                                               const DecodeFigure &f,
                                               llvm::StringRef title) {
  report::TornadoSpec t;
  t.title = title.str();
  t.xLabel = std::string(f.label) + (*f.unit ? std::string(" (") + f.unit + ")" : "");
  t.base = s.base.ok() ? f.of(s.base.metrics) : 0;
  for (const DecodeSensitivityRow &r : s.rows) {
    report::TornadoBar bar{r.range.key, r.range.low, r.range.high, {}, {}};
    if (r.low.ok())
      bar.low = f.of(r.low.metrics);
    if (r.high.ok())
      bar.high = f.of(r.high.metrics);
    t.bars.push_back(std::move(bar));
  }
  return t;
}

SensitivityPage lpx::deploy::decodeSensitivityPage(const DecodeSensitivity &s,
                                                   const DecodeFigure &f,
                                                   llvm::StringRef model,
                                                   llvm::StringRef chip) {
  SensitivityPage page;
  page.title = fmt::format("{} of {} on {} over its assumptions", f.label,
                           model.str(), chip.str());
  page.question = fmt::format(
      "The deployment of {} planned on {} as described (the base), then "
      "once with each of its {} ranged assumptions at the low and once at "
      "the high end of its range, the others at their base values: {} "
      "deployment(s) planned, {} end(s) at the base's own value.",
      model.str(), chip.str(), s.rows.size(), s.ran, s.reused);
  page.base = baseLine(s);
  page.band = decodeSensitivitySummary(s);
  page.tornado = decodeTornado(s, f, page.title);
  page.csv = decodeSensitivityCsv(s);
  return page;
}
