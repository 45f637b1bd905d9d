//===- SvgPlot.cpp - A dependency-free SVG line chart ---------------------===//
#include "lpx/report/SvgPlot.h"
#include "lpx/report/Markup.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <set>

using namespace lpx::report;

namespace {

constexpr double kWidth = 860, kHeight = 500;
constexpr double kLeft = 90, kRight = 250, kTop = 50, kBottom = 70;
constexpr double kPlotW = kWidth - kLeft - kRight;
constexpr double kPlotH = kHeight - kTop - kBottom;

// Colour-blind-safe categorical palette (Okabe-Ito, then Tableau extras).
const char *const kColors[] = {"#0072B2", "#E69F00", "#009E73", "#D55E00",
                               "#CC79A7", "#56B4E9", "#F0E442", "#000000",
                               "#8C564B", "#7F7F7F"};

} // namespace

std::string lpx::report::tickLabel(double v) {
  static const std::pair<double, const char *> prefixes[] = {
      {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1, ""},
      {1e-3, "m"}, {1e-6, "\u00b5"}, {1e-9, "n"}};
  std::string s;
  llvm::raw_string_ostream os(s);
  double a = std::fabs(v);
  if (a == 0 || (a >= 1e-2 && a < 1e6)) {
    os << llvm::format("%.6g", v);
    return os.str();
  }
  for (auto [scale, prefix] : prefixes)
    if (a >= scale * (1 - 1e-9) || scale == 1e-9) {
      os << llvm::format("%.4g", v / scale) << prefix;
      return os.str();
    }
  return os.str();
}

std::string lpx::report::svgOpen(double width, double height,
                                 double titleX, llvm::StringRef title) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width
     << "\" height=\"" << height << "\" viewBox=\"0 0 " << width << " "
     << height << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
     << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
     << "<text x=\"" << titleX << "\" y=\"28\" "
     << "text-anchor=\"middle\" font-size=\"15\">" << escapeMarkup(title)
     << "</text>\n";
  return os.str();
}

std::vector<double> lpx::report::niceTicks(double lo, double hi, int count) {
  double span = hi - lo;
  if (!(span > 0))
    return {lo};
  double raw = span / count;
  double mag = std::pow(10, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  // Round outwards so the data lies between the first and the last tick.
  std::vector<double> ticks;
  double first = std::floor(lo / step + 1e-9) * step;
  double last = std::ceil(hi / step - 1e-9) * step;
  for (double t = first; t <= last + step * 1e-9; t += step)
    ticks.push_back(std::fabs(t) < step * 1e-9 ? 0 : t);
  return ticks;
}

namespace {

struct Scale {
  double lo = 0, hi = 1;
  bool log = false;
  double operator()(double v) const {
    if (log)
      return (std::log10(v) - std::log10(lo)) /
             (std::log10(hi) - std::log10(lo));
    return (v - lo) / (hi - lo);
  }
};

} // namespace

std::string lpx::report::renderSvg(const PlotSpec &plot) {
  std::set<double> xs;
  double ymin = INFINITY, ymax = -INFINITY;
  for (const PlotSeries &s : plot.series)
    for (auto [x, y] : s.points) {
      xs.insert(x);
      ymin = std::min(ymin, y);
      ymax = std::max(ymax, y);
    }

  Scale sx, sy;
  if (!xs.empty()) {
    sx.lo = *xs.begin();
    sx.hi = *xs.rbegin();
    sx.log = plot.xCategories.empty() && sx.lo > 0 && sx.hi / sx.lo > 100;
  }
  if (sx.hi == sx.lo) { // one x value: centre it
    sx.lo -= sx.log ? sx.lo / 2 : 1;
    sx.hi += sx.log ? sx.hi : 1;
  }
  if (!sx.log && plot.xCategories.empty()) { // a little air at both ends
    double pad = (sx.hi - sx.lo) * 0.04;
    sx.lo -= pad;
    sx.hi += pad;
  } else if (!plot.xCategories.empty()) {
    sx.lo -= 0.5;
    sx.hi += 0.5;
  }
  if (ymin > ymax) { // nothing to plot
    ymin = 0;
    ymax = 1;
  }
  // Start the y axis at zero unless that would flatten the differences.
  if (ymin >= 0 && ymin < 0.6 * ymax)
    ymin = 0;
  if (ymax == ymin)
    ymax = ymin == 0 ? 1 : ymin * 1.1;
  std::vector<double> yticks = niceTicks(ymin, ymax, 5);
  sy.lo = std::min(ymin, yticks.front());
  sy.hi = std::max(ymax, yticks.back());

  auto px = [&](double x) { return kLeft + sx(x) * kPlotW; };
  auto py = [&](double y) { return kTop + (1 - sy(y)) * kPlotH; };

  std::string out;
  llvm::raw_string_ostream os(out);
  os << svgOpen(kWidth, kHeight, kLeft + kPlotW / 2, plot.title);

  // Grid lines and tick labels.
  for (double t : yticks) {
    double y = py(t);
    os << llvm::format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                       "stroke=\"#e0e0e0\"/>\n",
                       kLeft, y, kLeft + kPlotW, y)
       << llvm::format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
                       kLeft - 6, y + 4)
       << escapeMarkup(tickLabel(t)) << "</text>\n";
  }
  std::vector<std::pair<double, std::string>> xticks;
  if (!plot.xCategories.empty()) {
    for (size_t i = 0; i < plot.xCategories.size(); ++i)
      xticks.push_back({double(i), plot.xCategories[i]});
  } else if (xs.size() <= 12) { // few values: tick exactly at each
    for (double x : xs)
      xticks.push_back({x, tickLabel(x)});
  } else if (sx.log) {
    for (double d = std::pow(10, std::ceil(std::log10(sx.lo)));
         d <= sx.hi * (1 + 1e-9); d *= 10)
      xticks.push_back({d, tickLabel(d)});
  } else {
    for (double t : niceTicks(sx.lo, sx.hi, 8))
      if (t >= sx.lo && t <= sx.hi)
        xticks.push_back({t, tickLabel(t)});
  }
  for (const auto &[t, text] : xticks) {
    double x = px(t);
    os << llvm::format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                       "stroke=\"#e0e0e0\"/>\n",
                       x, kTop, x, kTop + kPlotH)
       << llvm::format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
                       x, kTop + kPlotH + 18)
       << escapeMarkup(text) << "</text>\n";
  }
  os << llvm::format("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                     "height=\"%.1f\" fill=\"none\" stroke=\"#333\"/>\n",
                     kLeft, kTop, kPlotW, kPlotH);
  os << "<text x=\"" << kLeft + kPlotW / 2 << "\" y=\"" << kHeight - 22
     << "\" text-anchor=\"middle\">" << escapeMarkup(plot.xLabel)
     << (sx.log ? " (log scale)" : "") << "</text>\n";
  os << "<text transform=\"translate(20," << kTop + kPlotH / 2
     << ") rotate(-90)\" text-anchor=\"middle\">" << escapeMarkup(plot.yLabel)
     << "</text>\n";

  // Series, then the legend beside the plot.
  for (size_t i = 0; i < plot.series.size(); ++i) {
    const PlotSeries &s = plot.series[i];
    const char *color = kColors[i % std::size(kColors)];
    if (s.joined && s.points.size() > 1) {
      os << "<polyline fill=\"none\" stroke-width=\"2\" stroke=\"" << color
         << "\" points=\"";
      for (auto [x, y] : s.points)
        os << llvm::format("%.1f,%.1f ", px(x), py(y));
      os << "\"/>\n";
    }
    for (size_t p = 0; p < s.points.size(); ++p) {
      auto [x, y] = s.points[p];
      std::string name = s.label;
      if (p < s.pointLabels.size())
        name += (name.empty() ? "" : ": ") + s.pointLabels[p];
      os << llvm::format("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" ", px(x),
                         py(y))
         << "fill=\"" << color << "\"><title>" << escapeMarkup(name)
         << (name.empty() ? "" : ": ") << escapeMarkup(tickLabel(y))
         << "</title></circle>\n";
    }
    double ly = kTop + 10 + 20 * double(i);
    os << llvm::format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                       "stroke-width=\"2\" ",
                       kLeft + kPlotW + 16, ly, kLeft + kPlotW + 40, ly)
       << "stroke=\"" << color << "\"/>\n"
       << llvm::format("<text x=\"%.1f\" y=\"%.1f\">", kLeft + kPlotW + 46,
                       ly + 4)
       << escapeMarkup(s.label) << "</text>\n";
  }
  os << "</svg>\n";
  return os.str();
}
