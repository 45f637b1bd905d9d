//===- SvgTornado.cpp - A tornado chart of one-at-a-time sensitivities ----===//
#include "lpx/report/SvgTornado.h"
#include "lpx/report/Markup.h"
#include "lpx/report/SvgPlot.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace lpx::report;

namespace {

constexpr double kWidth = 900, kLeft = 280, kRight = 90;
constexpr double kTop = 84, kRow = 22, kBar = 14, kBottom = 56;
constexpr double kPlotW = kWidth - kLeft - kRight;
// The palette of SvgPlot's first two series: blue low end, orange high end.
constexpr const char *kLowColor = "#0072B2", *kHighColor = "#E69F00";

struct Axis {
  double lo = 0, hi = 1;
  double operator()(double v) const {
    return kLeft + (v - lo) / (hi - lo) * kPlotW;
  }
};

Axis axisOf(const TornadoSpec &chart, std::vector<double> &ticks) {
  double lo = chart.base, hi = chart.base;
  for (const TornadoBar &b : chart.bars)
    for (const std::optional<double> &v : {b.low, b.high})
      if (v) {
        lo = std::min(lo, *v);
        hi = std::max(hi, *v);
      }
  if (hi == lo) { // nothing moves: a little room around the base
    double pad = lo == 0 ? 1 : std::fabs(lo) * 0.05;
    lo -= pad;
    hi += pad;
  }
  double pad = (hi - lo) * 0.04;
  ticks = niceTicks(lo - pad, hi + pad, 6);
  return Axis{std::min(lo - pad, ticks.front()),
              std::max(hi + pad, ticks.back())};
}

/// One end's part of a bar: from the base to `value`, with the parameter's
/// value written beyond its outer end.
void drawEnd(llvm::raw_ostream &os, const Axis &x, double base, double y,
             const TornadoBar &bar, bool high, const std::string &xLabel) {
  const std::optional<double> &v = high ? bar.high : bar.low;
  const std::string &setting = high ? bar.highValue : bar.lowValue;
  if (!v)
    return;
  double a = x(std::min(base, *v)), b = x(std::max(base, *v));
  os << llvm::format("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                     "height=\"%.1f\" fill=\"%s\" fill-opacity=\"0.85\">",
                     a, y, std::max(b - a, 1.0), kBar,
                     high ? kHighColor : kLowColor)
     << "<title>"
     << escapeMarkup(bar.label + " = " + setting + ": " + tickLabel(*v) + " " +
                     xLabel)
     << "</title></rect>\n";
  // An end at the base writes its value on the side away from the other
  // end, so the two labels do not overlap.
  const std::optional<double> &other = high ? bar.low : bar.high;
  bool right = *v > base || (*v == base && other && *other < base);
  os << llvm::format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" "
                     "font-size=\"11\" fill=\"#333\">",
                     right ? b + 4 : a - 4, y + kBar - 3,
                     right ? "start" : "end")
     << escapeMarkup(setting) << "</text>\n";
}

} // namespace

std::string lpx::report::renderTornadoSvg(const TornadoSpec &chart) {
  std::vector<double> ticks;
  Axis x = axisOf(chart, ticks);
  double plotH = kRow * double(std::max<size_t>(chart.bars.size(), 1));
  double height = kTop + plotH + kBottom;

  std::string out;
  llvm::raw_string_ostream os(out);
  os << svgOpen(kWidth, height, kWidth / 2, chart.title);
  // The legend under the title.
  const std::pair<const char *, const char *> legend[] = {
      {kLowColor, "the parameter at the low end of its range"},
      {kHighColor, "at the high end"}};
  double lx = kLeft;
  for (auto [color, text] : legend) {
    os << llvm::format("<rect x=\"%.1f\" y=\"42\" width=\"14\" height=\"10\" "
                       "fill=\"%s\"/>",
                       lx, color)
       << llvm::format("<text x=\"%.1f\" y=\"51\">", lx + 18)
       << escapeMarkup(text) << "</text>\n";
    lx += 18 + 6.5 * double(llvm::StringRef(text).size()) + 16;
  }
  // Grid and ticks along x.
  for (double t : ticks) {
    if (t < x.lo || t > x.hi)
      continue;
    os << llvm::format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                       "stroke=\"#e0e0e0\"/>\n",
                       x(t), kTop - 6, x(t), kTop + plotH)
       << llvm::format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
                       x(t), kTop + plotH + 16)
       << escapeMarkup(tickLabel(t)) << "</text>\n";
  }
  os << llvm::format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
                     kLeft + kPlotW / 2, kTop + plotH + 40)
     << escapeMarkup(chart.xLabel) << "</text>\n";

  for (size_t i = 0; i < chart.bars.size(); ++i) {
    const TornadoBar &bar = chart.bars[i];
    double y = kTop + kRow * double(i) + (kRow - kBar) / 2;
    os << llvm::format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
                       kLeft - 40, y + kBar - 3)
       << escapeMarkup(bar.label) << "</text>\n";
    // The end farther from the base first, so the nearer stays visible
    // where both lie on one side.
    if (bar.low && bar.high && *bar.low == chart.base &&
        *bar.high == chart.base) {
      os << llvm::format("<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" "
                         "fill=\"#777\">",
                         x(chart.base) + 6, y + kBar - 3)
         << escapeMarkup(bar.lowValue + ".." + bar.highValue + ": no change")
         << "</text>\n";
      continue;
    }
    bool highFirst =
        bar.high && (!bar.low || std::fabs(*bar.high - chart.base) >=
                                     std::fabs(*bar.low - chart.base));
    drawEnd(os, x, chart.base, y, bar, highFirst, chart.xLabel);
    drawEnd(os, x, chart.base, y, bar, !highFirst, chart.xLabel);
    if (!bar.low || !bar.high)
      os << llvm::format("<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" "
                         "fill=\"#D55E00\">",
                         kWidth - kRight + 8, y + kBar - 3)
         << "failed</text>\n";
  }
  // The base line over the bars, labelled at the top.
  double bx = x(chart.base);
  os << llvm::format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                     "stroke=\"#000\" stroke-width=\"1.5\"/>\n",
                     bx, kTop - 12, bx, kTop + plotH)
     << llvm::format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", bx,
                     kTop - 16)
     << "base " << escapeMarkup(tickLabel(chart.base)) << "</text>\n";
  os << "</svg>\n";
  return os.str();
}
