//===- StudyReport.cpp - A deployment study as one self-contained page ----===//
#include "lpx/deploy/StudyReport.h"

#include "lpx/report/HtmlPage.h"
#include "lpx/report/Markup.h"
#include "lpx/report/SvgPlot.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace lpx;
using namespace lpx::deploy;
using report::escapeMarkup;

namespace {

class Page {
public:
  explicit Page(const StudyPage &p)
      : p(p), axes(p.grid->axes().size()), rows(*p.rows) {}
  std::string render() const;

private:
  const StudyPage &p;
  size_t axes;
  const std::vector<std::vector<std::string>> &rows;

  std::string col(const std::vector<std::string> &r,
                  llvm::StringRef name) const {
    return r[axes + size_t(llvm::find(p.kind->columns, name) -
                           p.kind->columns.begin())];
  }
  /// "sram.bytes=1MiB, link.latency=700"
  std::string pointName(const std::vector<std::string> &r) const {
    std::string at;
    for (size_t i = 0; i < axes; ++i)
      at += (i ? ", " : "") + p.grid->axes()[i].key + "=" + r[i];
    return at;
  }
  std::string question() const;
  std::string frontier() const;
  std::string table() const;
  std::string failed() const;
};

std::string Page::question() const {
  std::string h = "<table id='axes'><thead><tr><th>key</th><th>values "
                  "swept</th></tr></thead><tbody>\n";
  for (const Axis &a : p.grid->axes()) {
    std::string values;
    for (const std::string &v : a.values)
      values += (values.empty() ? "" : ", ") + v;
    h += "<tr><td><code>" + escapeMarkup(a.key) + "</code></td><td>" +
         escapeMarkup(values) + "</td></tr>\n";
  }
  h += "</tbody></table>\n<p>Every point shares <code id='base-line'>" +
       escapeMarkup(p.baseLine.empty() ? "(the defaults)" : p.baseLine) +
       "</code>.</p>\n<p>" + std::to_string(rows.size()) +
       " point(s); the chart below plots <code>" + escapeMarkup(p.metric) +
       "</code>.</p>\n";
  return h;
}

std::string Page::frontier() const {
  // Every planned point at (chips, tokens/s per user); the frontier's
  // joined in order of chips.
  report::PlotSeries others{"other points", {}, false, {}};
  report::PlotSeries best{"frontier", {}, true, {}};
  std::vector<std::tuple<double, double, std::string>> front;
  for (const std::vector<std::string> &r : rows) {
    double chips, speed;
    if (col(r, "status") != "ok" ||
        llvm::StringRef(col(r, "chips")).getAsDouble(chips) ||
        llvm::StringRef(col(r, "tokens_per_s_per_user")).getAsDouble(speed))
      continue;
    if (col(r, "pareto") == "frontier") {
      front.emplace_back(chips, speed, pointName(r));
    } else {
      others.points.push_back({chips, speed});
      others.pointLabels.push_back(pointName(r));
    }
  }
  std::stable_sort(front.begin(), front.end());
  for (auto &[x, y, name] : front) {
    best.points.push_back({x, y});
    best.pointLabels.push_back(name);
  }
  report::PlotSpec plot;
  plot.title = "tokens/s per user against chips: the frontier";
  plot.xLabel = "chips";
  plot.yLabel = "tokens/s per user";
  plot.series = {best, others};
  std::string h = "<p>A point is on the frontier when no other point has "
                  "as few or fewer chips and at least its tokens/s per user "
                  "(one of them strictly). " +
                  std::to_string(front.size()) +
                  " of the planned points are.</p>\n<div class='plot' "
                  "id='frontier-plot'>" +
                  report::renderSvg(plot) + "</div>\n<ul id='frontier-points'>\n";
  for (const std::vector<std::string> &r : rows)
    if (col(r, "pareto") == "frontier")
      h += "<li class='frontier-point'>" + escapeMarkup(pointName(r)) + ": " +
           escapeMarkup(col(r, "chips")) + " chip(s), " +
           escapeMarkup(col(r, "tokens_per_s_per_user")) +
           " tokens/s per user</li>\n";
  return h + "</ul>\n";
}

std::string Page::table() const {
  std::string h = "<div class='wide'><table id='study-table'><thead><tr>";
  for (const Axis &a : p.grid->axes())
    h += "<th>" + escapeMarkup(studyKeyHeading(*p.kind, a.key)) + "</th>";
  for (const char *c : p.kind->columns)
    h += "<th>" + escapeMarkup(c) + "</th>";
  h += "</tr></thead><tbody>\n";
  const bool pareto = p.kind->pareto;
  for (const std::vector<std::string> &r : rows) {
    const char *cls = col(r, "status") != "ok"             ? " class='failed'"
                      : pareto && col(r, "pareto") == "frontier" ? " class='frontier'"
                                                           : "";
    h += std::string("<tr") + cls + " data-point='" +
         escapeMarkup(pointName(r)) + "'>";
    for (size_t i = 0; i < r.size(); ++i) {
      bool text = i < axes || llvm::is_contained(p.kind->textColumns,
                                                 p.kind->columns[i - axes]);
      h += std::string(text ? "<td>" : "<td class='n'>") +
           escapeMarkup(r[i]) + "</td>";
    }
    h += "</tr>\n";
  }
  return h + "</tbody></table></div>\n";
}

std::string Page::failed() const {
  std::string h;
  for (const std::vector<std::string> &r : rows)
    if (col(r, "status") != "ok")
      h += "<li class='failed-point'><b>" + escapeMarkup(pointName(r)) +
           "</b> (" + escapeMarkup(col(r, "status")) + "): " +
           escapeMarkup(col(r, "message")) + "</li>\n";
  if (h.empty())
    return "<p id='no-failures'>Every point was planned.</p>\n";
  return "<ul id='failed-points'>\n" + h + "</ul>\n";
}

std::string Page::render() const {
  const std::string title = "lpx study: " + p.title;
  std::string h = report::htmlPageStart(title, studyPageStyle()) + "<h1>" +
                  escapeMarkup(title) + "</h1>\n";
  h += report::htmlSection("question", "The question", question());
  h += report::htmlSection("chart", "The chart: " + p.metric,
                           "<div class='plot' id='metric-plot'>" + p.plotSvg +
                               "</div>\n");
  if (p.kind->pareto)
    h += report::htmlSection("frontier", "The frontier", frontier());
  h += report::htmlSection("table", "Every point", table());
  h += report::htmlSection("failures", "Points that failed", failed());
  return h + report::htmlPageEnd(studyPageReady("#metric-plot svg"));
}

} // namespace

std::string lpx::deploy::studyPageReady(llvm::StringRef selector) {
  return "document.body.setAttribute('data-ready', document.querySelector('" +
         selector.str() + "') ? '1' : '0');";
}

const char *lpx::deploy::studyPageStyle() {
  return "body{font-family:sans-serif;margin:2em;max-width:1200px;color:#222}"
         "table{border-collapse:collapse;margin:1em 0;font-size:.85em}"
         "td,th{border:1px solid #ccc;padding:2px 6px;white-space:nowrap}"
         "td.n{text-align:right}.wide{overflow-x:auto}"
         "tr.frontier td{background:#fff4d6;font-weight:bold}"
         "tr.failed td{color:#a00}code{background:#f4f4f4}.plot{margin:1em 0}"
         "#sensitivity-table td{white-space:normal;vertical-align:top;"
         "max-width:40em}";
}

std::string lpx::deploy::renderStudyReport(const StudyPage &page) {
  return Page(page).render();
}
