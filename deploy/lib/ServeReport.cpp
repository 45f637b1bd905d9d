//===- ServeReport.cpp - `lpx serve`'s HTML page and curve plot -----------===//
#include "lpx/deploy/ServeReport.h"

#include "lpx/report/HtmlPage.h"
#include "lpx/report/Markup.h"
#include "lpx/report/SvgPlot.h"
#include "fmt/format.h"
#include "llvm/Support/FormatVariadic.h"

using namespace lpx;
using namespace lpx::deploy;
using report::escapeMarkup;
using report::PlotSeries;

namespace {

constexpr int kPlotHeight = 500, kPlotWidth = 860; // SvgPlot's size

std::string plot(const std::string &title, const std::string &x,
                 const std::string &y, std::vector<PlotSeries> series) {
  report::PlotSpec p;
  p.title = title;
  p.xLabel = x;
  p.yLabel = y;
  p.series = std::move(series);
  return report::renderSvg(p);
}

/// Several SvgPlot documents one above the other in one document.
std::string stacked(const std::vector<std::string> &plots) {
  std::string out = llvm::formatv(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\">\n",
      kPlotWidth, kPlotHeight * int(plots.size()));
  for (size_t i = 0; i < plots.size(); ++i) {
    std::string p = plots[i];
    p.replace(0, 4, llvm::formatv("<svg y=\"{0}\"", kPlotHeight * int(i)).str());
    out += p;
  }
  return out + "</svg>\n";
}

PlotSeries curveOf(const serve::SweepCurve &c, const std::string &label,
                   double (*value)(const serve::Results &)) {
  PlotSeries s{label, {}};
  for (const serve::SweepPoint &p : c.points)
    s.points.push_back({p.load, value(p.results)});
  return s;
}

std::vector<std::string> curvePlots(const serve::SweepCurve &c,
                                    const ServeSetup &setup) {
  const std::string load = setup.workload.kind == serve::WorkloadKind::Closed
                               ? "users"
                               : "arrival rate (per second)";
  using R = const serve::Results &;
  return {
      plot("TTFT against load", load, "TTFT (us)",
           {curveOf(c, "P50", [](R r) { return r.ttft.p50; }),
            curveOf(c, "P99", [](R r) { return r.ttft.p99; })}),
      plot("TPOT against load", load, "TPOT (us)",
           {curveOf(c, "P50", [](R r) { return r.tpot.p50; }),
            curveOf(c, "P99", [](R r) { return r.tpot.p99; })}),
      plot("Tokens/s served against load", load, "tokens/s",
           {curveOf(c, "tokens/s", [](R r) { return r.tokensPerSecond; })})};
}

/// The CDF of one latency: (the q-th percentile, q%) for q = 1..100.
std::string cdf(const std::string &name, const serve::Summary &s) {
  PlotSeries series{name, {}};
  for (size_t q = 0; q < s.percentiles.size(); ++q)
    series.points.push_back({s.percentiles[q], double(q + 1)});
  if (series.points.empty())
    return "<p>no completed request has a " + escapeMarkup(name) + ".</p>\n";
  return plot("CDF of " + name + (s.exact ? "" : " (sketch, within 0.5%)"),
              name + " (us)", "requests at or below (%)", {std::move(series)});
}

void summaryRow(std::string &h, const char *name, const serve::Summary &s) {
  h += llvm::formatv("<tr><td>{0}</td><td class='n'>{1}</td><td class='n'>"
                     "{2:f1}</td><td class='n'>{3:f1}</td><td class='n'>{4:f1}"
                     "</td><td class='n'>{5:f1}</td><td class='n'>{6:f1}</td>"
                     "<td class='n'>{7:f1}</td></tr>\n",
                     name, s.count, s.mean, s.p50, s.p90, s.p95, s.p99, s.max);
}

std::string summary(const ServeOutcome &out, const ServeSetup &s,
                    const CachedTable &c) {
  const serve::Results &r = out.results;
  const serve::ServiceTable &t = c.table;
  std::string h = llvm::formatv(
      "<p>{0}; max batch {1}, {2} stage(s), max sequences {3} (the KV caches "
      "the free SRAM holds), policy {4}, network {5}.</p>\n<p>Workload <code>"
      "{6}</code>, seed {7}. Service table: {8} decode and {9} prefill "
      "points, {10} ({11}, <code>{12}</code>). Between its points the model "
      "interpolates: <b id='interpolation'>{13}</b>.</p>\n",
      escapeMarkup(t.deployment), s.engine.maxBatch, t.stages, t.maxSequences,
      serve::policyName(s.engine.policy), escapeMarkup(s.engine.network.text),
      escapeMarkup(s.workloadText), s.engine.seed, t.decode.size(),
      t.prefill.size(),
      t.source == "simulated" ? "each compiled and simulated" : "synthetic",
      c.fromCache ? "read from cache" : "built", escapeMarkup(c.path),
      escapeMarkup(serve::kInterpolation));
  h += llvm::formatv("<p>Requests {0}: completed {1}, rejected {2} ({3} too "
                     "long), retries {4}; sessions {5}. Tokens/s served {6:f1}."
                     "</p>\n",
                     r.requests, r.completed, r.rejected, r.rejectedTooLong,
                     r.retries, r.sessions, r.tokensPerSecond);
  h += "<table id='latency-table'><thead><tr><th>latency (us)</th><th>count"
       "</th><th>mean</th><th>p50</th><th>p90</th><th>p95</th><th>p99</th>"
       "<th>max</th></tr></thead><tbody>\n";
  for (auto [name, latency] : namedLatencies(r))
    summaryRow(h, name, *latency);
  h += "</tbody></table>\n";
  for (auto [name, p] : namedSplits(r))
    h += llvm::formatv("<p>Mean {0} = queue {1:f1} + network {2:f1} + "
                       "backoff {3:f1} + host I/O {4:f1} + compute {5:f1} "
                       "us.</p>\n",
                       name, p->queue, p->network, p->backoff, p->hostIo,
                       p->compute);
  if (r.slo)
    h += llvm::formatv("<p>SLO <code>{0}</code>: {1}; goodput {2:f1}% of "
                       "requests.</p>\n",
                       escapeMarkup(s.slo->text),
                       r.slo->holds ? "holds" : "does not hold",
                       100 * r.slo->goodput);
  return h;
}

std::string curveSection(const serve::SweepCurve &c, const ServeSetup &s) {
  std::string h = "<table id='curve-table'><thead><tr><th>load</th><th>TTFT "
                  "p50</th><th>TTFT p99</th><th>TPOT p50</th><th>TPOT p99</th>"
                  "<th>tokens/s</th><th>goodput</th><th>SLO</th></tr></thead>"
                  "<tbody>\n";
  for (const serve::SweepPoint &p : c.points) {
    const serve::Results &r = p.results;
    h += llvm::formatv(
        "<tr><td class='n'>{0}</td><td class='n'>{1:f1}</td><td class='n'>"
        "{2:f1}</td><td class='n'>{3:f1}</td><td class='n'>{4:f1}</td><td "
        "class='n'>{5:f1}</td><td class='n'>{6}</td><td>{7}</td></tr>\n",
        fmt::format("{}", p.load), r.ttft.p50, r.ttft.p99, r.tpot.p50, r.tpot.p99,
        r.tokensPerSecond,
        r.slo ? llvm::formatv("{0:f1}%", 100 * r.slo->goodput).str() : "-",
        r.slo ? (r.slo->holds ? "holds" : "fails") : "-");
  }
  h += "</tbody></table>\n";
  if (s.slo)
    h += c.highestHolding
             ? fmt::format("<p>Highest load within the SLO: <b>{}</b>.</p>\n",
                           *c.highestHolding)
             : std::string("<p>No load of the sweep holds the SLO.</p>\n");
  for (const std::string &svg : curvePlots(c, s))
    h += "<div class='plot'>" + svg + "</div>\n";
  return h;
}

std::string timelineSection(const serve::TimelineSink &t) {
  PlotSeries batch{"sequences stepped per iteration (mean)", {}};
  PlotSeries queue{"longest admission queue", {}};
  const double width = serve::toSeconds(t.bucketWidth());
  const auto &b = t.buckets();
  for (size_t i = 0; i < b.size(); ++i) {
    const double mid = (double(i) + 0.5) * width;
    batch.points.push_back(
        {mid, b[i].iterations ? double(b[i].decoding) / double(b[i].iterations)
                              : 0.0});
    queue.points.push_back({mid, double(b[i].maxWaiting)});
  }
  if (b.empty())
    return "<p>No iteration ran.</p>\n";
  return llvm::formatv("<p>{0} buckets of {1:f6} s of simulated time.</p>\n",
                       b.size(), width)
             .str() +
         "<div class='plot'>" +
         plot("Batch size over time", "simulated time (s)", "sequences",
              {std::move(batch)}) +
         "</div>\n<div class='plot'>" +
         plot("Queue length over time", "simulated time (s)", "requests",
              {std::move(queue)}) +
         "</div>\n";
}

std::string tableSection(const serve::ServiceTable &t) {
  std::string h = "<table id='decode-points'><thead><tr><th>batch</th><th>"
                  "context</th><th>decode step (us)</th></tr></thead><tbody>\n";
  for (const serve::DecodePoint &p : t.decode)
    h += llvm::formatv("<tr><td class='n'>{0}</td><td class='n'>{1}</td><td "
                       "class='n'>{2:f3}</td></tr>\n",
                       p.batch, p.context, p.us);
  h += "</tbody></table>\n<table id='prefill-points'><thead><tr><th>prompt"
       "</th><th>batch</th><th>chunk</th><th>prefill (us)</th></tr></thead>"
       "<tbody>\n";
  for (const serve::PrefillPoint &p : t.prefill)
    h += llvm::formatv("<tr><td class='n'>{0}</td><td class='n'>{1}</td><td "
                       "class='n'>{2}</td><td class='n'>{3:f3}</td></tr>\n",
                       p.prompt, p.batch, p.chunk, p.us);
  h += llvm::formatv("</tbody></table>\n<p>Host I/O {0:f3} us per request's "
                     "prefill, {1:f3} us per sequence's step.</p>\n",
                     t.prefillHostIoUs, t.stepHostIoUs);
  return h;
}

const char *kStyle =
    "body{font-family:sans-serif;margin:2em;max-width:1000px}"
    "table{border-collapse:collapse;margin:1em 0}"
    "td,th{border:1px solid #ccc;padding:2px 8px}td.n{text-align:right}"
    "code{background:#f4f4f4}.plot{margin:1em 0}";

} // namespace

std::string lpx::deploy::renderCurveSvg(const serve::SweepCurve &curve,
                                        const ServeSetup &setup) {
  return stacked(curvePlots(curve, setup));
}

std::string lpx::deploy::renderServeReport(const ServeOutcome &out,
                                           const ServeSetup &s,
                                           const CachedTable &c) {
  const std::string title = "lpx serve: " + c.table.deployment;
  std::string h = report::htmlPageStart(title, kStyle) + "<h1>" +
                  escapeMarkup(title) + "</h1>\n";
  auto section = [&](const char *id, const char *heading,
                     const std::string &body) {
    h += report::htmlSection(id, heading, body);
  };
  section("summary", "Summary", summary(out, s, c));
  section("cdf", "Latency distributions",
          "<div class='plot' id='cdf-ttft'>" + cdf("TTFT", out.results.ttft) +
              "</div>\n<div class='plot' id='cdf-tpot'>" +
              cdf("TPOT", out.results.tpot) +
              "</div>\n<div class='plot' id='cdf-e2e'>" +
              cdf("E2E", out.results.e2e) + "</div>\n");
  if (out.curve)
    section("load-curve", "Against load", curveSection(*out.curve, s));
  section("over-time", "Batch size and queue length over time",
          timelineSection(out.timeline));
  section("service-table", "The service table's simulated points",
          tableSection(c.table));
  h += report::htmlPageEnd("document.body.setAttribute('data-ready', "
                           "document.querySelectorAll('svg').length > 0 ? "
                           "'1' : '0');");
  return h;
}
