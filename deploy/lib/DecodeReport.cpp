//===- DecodeReport.cpp - One planned deployment as a self-contained page -===//
#include "lpx/deploy/DecodeReport.h"

#include "lpx/report/HtmlPage.h"
#include "lpx/report/Markup.h"
#include "lpx/report/SvgPlot.h"
#include "fmt/format.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace lpx;
using namespace lpx::deploy;
using llvm::formatv;
using report::escapeMarkup;

namespace {

constexpr double kLabelW = 170, kPlotW = 900, kRowH = 16, kQueueH = 11,
                 kAxisH = 22;
constexpr int kShades = 6; // busy levels drawn; fewer rects per row

const char *kStyle = R"(
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222;max-width:1120px}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;font-size:.9em;margin:.5em 0}
td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}td.n,th.n{text-align:right}
tr.chosen td{background:#eef6ff}nav a{margin-right:1em}
svg{display:block;margin:.5em 0}svg text{font-size:11px}.note{color:#666;font-size:.9em}
.w{fill:#999}.k{fill:#CC79A7}.a{fill:#009E73}.c0{fill:#E69F00}.c1{fill:#D55E00}
.serial{fill:#E69F00}.link{fill:#CC79A7}.idle{fill:#bbb}
)";

/// Exact enough to compare: the shortest text that reads back as `v`.
std::string exact(double v) { return fmt::format("{}", v); }

std::string mb(uint64_t bytes) {
  return formatv("{0:f2} MB", double(bytes) / 1e6).str();
}

std::string pct(double share) { return formatv("{0:f1}%", 100 * share).str(); }

/// A cell of a headline figure: shown rounded, kept exact in data-value.
std::string figureCell(const char *id, double v, const char *format) {
  return formatv("<td class='n' id='{0}' data-value='{1}'>{2}</td>", id,
                 exact(v), formatv(format, v).str())
      .str();
}

class Writer {
public:
  Writer(const DecodeMetrics &m, llvm::raw_ostream &os) : m(m), os(os) {}
  void figures();
  void path();
  void sram();
  void bounds();
  void placements();

private:
  double us(uint64_t cycles) const { return double(cycles) / m.clockMHz; }
  void phase(const char *id, const char *what, const PhaseTimeline &t);
  void axis(CycleSpan window, double y);
  void detail(const char *id, const PhaseTimeline &t);
  void shades(const std::vector<float> &bins, double scale, double y,
              double h, const char *fill);
  void gapBar(const sim::GapAttribution &g, double mhz);
  void stageTerms();

  const DecodeMetrics &m;
  llvm::raw_ostream &os;
};

void Writer::figures() {
  os << "<table id='figures'><thead><tr><th>figure</th><th class='n'>value"
        "</th><th class='n'>bound</th><th class='n'>efficiency</th><th>what "
        "it is</th></tr></thead><tbody>\n";
  auto row = [&](const char *name, const std::string &cell,
                 const std::string &bound, const std::string &eff,
                 const std::string &what) {
    os << "<tr><th>" << name << "</th>" << cell << "<td class='n'>" << bound
       << "</td><td class='n'>" << eff << "</td><td>" << what
       << "</td></tr>\n";
  };
  if (m.hasPrefill)
    row("TTFT (us)", figureCell("fig-ttft", m.ttftUs(), "{0:f3}"),
        formatv("{0:f3}", m.ttftLatencyBoundUs), pct(m.ttftLatencyEfficiency),
        formatv("prefill {0:f3} us ({1} chunk(s) of {2} token(s)) + host I/O "
                "{3:f3} us; bound: the latency bound of one prompt along the "
                "stages, plus the same host I/O",
                m.ttftComputeUs, m.prefillChunks, m.prefillChunk, m.ttftHostUs));
  else
    row("TTFT (us)", "<td class='n' id='fig-ttft'>-</td>", "-", "-",
        "not simulated: an ONNX file is one step; a preset has a prefill");
  row("TPOT (us)", figureCell("fig-tpot", m.tpotUs(), "{0:f3}"),
      formatv("{0:f3}", m.tpotLatencyBoundUs), pct(m.tpotLatencyEfficiency),
      formatv("decode step {0:f3} us + host I/O {1:f3} us; bound: the latency "
              "bound of one token along the stages, plus the same host I/O",
              m.tpotComputeUs, m.tpotHostUs));
  const double userBound =
      m.tpotLatencyBoundUs > 0 ? 1e6 / m.tpotLatencyBoundUs : 0;
  row("tokens/s per user",
      figureCell("fig-tps-user", m.tokensPerSecondPerUser, "{0:f1}"),
      formatv("{0:f1}", userBound), pct(m.tpotLatencyEfficiency),
      "1 / TPOT; bound: 1 / the TPOT latency bound");
  // Each group of `batch` sequences does the step's whole work, so no
  // number of groups in flight serves more than batch tokens per the
  // step's MXM and SRAM work at every chip's peaks. The physical bound's
  // link term is left out: its hops are latency one token pays, which
  // groups in flight overlap.
  const double workUs = us(m.physical.workCycles);
  const double aggBound = workUs > 0 ? double(m.batch) * 1e6 / workUs : 0;
  row("tokens/s in aggregate",
      figureCell("fig-tps", m.tokensPerSecond, "{0:f1}"),
      formatv("{0:f1}", aggBound),
      pct(aggBound > 0 ? m.tokensPerSecond / aggBound : 1),
      formatv("{0} group(s) of {1} sequence(s) in flight through {2} stage(s) "
              "(the busiest chip, {3}, is occupied {4:f3} us per step{5}); "
              "bound: batch {1} per the step's MXM and SRAM work at the "
              "peaks of all chips ({6:f3} us, the physical bound without its "
              "link term)",
              m.inFlight, m.batch, m.stages, m.stageChip, m.stageUs,
              m.kvLimit ? formatv("; SRAM holds the caches of {0} group(s)",
                                  m.kvLimit)
                              .str()
                        : std::string(),
              workUs));
  row("chips",
      formatv("<td class='n' id='fig-chips' data-value='{0}'>{0}</td>",
              m.chips),
      "-", "-",
      m.searched ? (m.chips == 1 ? std::string("one chip holds it")
                                 : formatv("{0} group(s) of {1}: the fewest "
                                           "whole groups for which both "
                                           "phases compile",
                                           m.chips / m.group, m.group)
                                       .str())
                 : std::string("as given"));
  row("placement",
      m.tp ? formatv("<td class='n' id='fig-placement'>tp {0} x pp {1}</td>",
                     m.tp, m.pp)
                 .str()
           : std::string("<td class='n' id='fig-placement'>-</td>"),
      "-", "-",
      m.tp ? (m.placementAsked ? std::string("asked for")
              : m.trials.size() > 1
                  ? std::string("the fastest decode step of those tried")
                  : std::string("the compiler's choice"))
           : std::string("no tensor-parallel mesh"));
  os << "</tbody></table>\n";
  auto format = [](const std::string &f, bool fromChip) {
    return f.empty() ? std::string("the model's own")
                     : f + (fromChip ? " (the chip's)" : "");
  };
  os << "<p>Context " << m.context << ", prompt " << m.prompt << ", batch "
     << m.batch << "; weights " << escapeMarkup(format(m.weights,
                                                       m.weightsFromChip))
     << ", activations "
     << escapeMarkup(format(m.activations, m.activationsFromChip))
     << ". Bottleneck of the step: " << escapeMarkup(m.bottleneck) << ".";
  if (!m.defaults.empty())
    os << " Defaults used: " << escapeMarkup(llvm::join(m.defaults, ", "))
       << ".";
  os << " Compute times are simulated cycles (the chip is deterministic: P50 "
        "= P99); host I/O is the chip's host model.</p>\n";
}

/// A time axis in microseconds (from the phase's start) of `window` along
/// the bottom of a chart, at `y`.
void Writer::axis(CycleSpan window, double y) {
  const double lo = us(window.from), hi = std::max(us(window.to), lo + 1e-9);
  for (double t : report::niceTicks(lo, hi, 6)) {
    if (t < lo - 1e-9 * hi || t > hi * (1 + 1e-9))
      continue;
    const double x = kLabelW + (t - lo) * kPlotW / (hi - lo);
    os << formatv("<line x1='{0:f1}' x2='{0:f1}' y1='0' y2='{1:f1}' "
                  "stroke='#eee'/><text x='{0:f1}' y='{2:f1}' "
                  "text-anchor='middle'>{3}</text>\n",
                  x, y, y + 14, fmt::format("{:g}", t));
  }
  os << formatv("<text x='{0:f1}' y='{1:f1}' text-anchor='end'>us</text>\n",
                kLabelW - 8, y + 14);
}

/// Busy bins as shaded runs: `scale` maps a bin to 0..1, drawn in
/// kShades levels, equal neighbours merged into one rect.
void Writer::shades(const std::vector<float> &bins, double scale, double y,
                    double h, const char *fill) {
  const double w = kPlotW / double(std::max<size_t>(bins.size(), 1));
  os << "<g fill='" << fill << "'>";
  for (size_t k = 0; k < bins.size();) {
    const int level =
        int(std::ceil(std::min(1.0, double(bins[k]) * scale) * kShades - 1e-6));
    size_t end = k + 1;
    while (end < bins.size() &&
           int(std::ceil(std::min(1.0, double(bins[end]) * scale) * kShades -
                         1e-6)) == level)
      ++end;
    if (level > 0)
      os << formatv("<rect x='{0:f1}' y='{1:f1}' width='{2:f1}' "
                    "height='{3:f1}' fill-opacity='{4:f2}'/>",
                    kLabelW + double(k) * w, y, double(end - k) * w, h,
                    double(level) / kShades);
    k = end;
  }
  os << "</g>\n";
}

void Writer::phase(const char *id, const char *what, const PhaseTimeline &t) {
  const double total = double(std::max<uint64_t>(t.cycles, 1));
  auto x = [&](uint64_t c) { return kLabelW + double(c) * kPlotW / total; };
  float busiest = 0;
  for (const StageTiming &s : t.stages)
    for (float b : s.busy)
      busiest = std::max(busiest, b);
  const double h = double(t.stages.size()) * kRowH;
  os << formatv("<h3>{0}: {1:f3} us</h3>\n<svg id='{2}' xmlns='http://www.w3."
                "org/2000/svg' width='{3}' height='{4}'>\n",
                what, us(t.cycles), id, kLabelW + kPlotW + 10, h + kAxisH);
  axis({0, t.cycles}, h);
  for (size_t s = 0; s < t.stages.size(); ++s) {
    const StageTiming &st = t.stages[s];
    const double y = double(s) * kRowH;
    os << formatv("<g class='stage-row' data-stage='{0}'><title>stage {0}: "
                  "chips {1}-{2}; its busiest chip, {3}, occupied {4:f3} us"
                  "</title><text x='4' y='{5:f1}'{6}>stage {0} (chips {1}-{2})"
                  "</text>\n",
                  s, st.firstChip, st.firstChip + st.chips - 1, st.busiestChip,
                  us(st.busiestOccupied), y + kRowH - 4,
                  s == t.busiestStage ? " font-weight='bold'" : "");
    shades(st.busy, busiest > 0 ? 1.0 / busiest : 0, y + 1, kRowH - 7,
           "#0072B2");
    // One lane per chunk in the row's last 5 pixels, so chunks that
    // overlap on a stage stay apart.
    const double lane = 5.0 / double(std::max<size_t>(st.chunks.size(), 1));
    for (size_t k = 0; k < st.chunks.size(); ++k) {
      const CycleSpan &c = st.chunks[k];
      if (c.empty())
        continue;
      os << formatv("<rect class='chunk c{0}' x='{1:f1}' y='{2:f2}' "
                    "width='{3:f1}' height='{4:f2}'><title>chunk {5}: "
                    "{6:f3}-{7:f3} us</title></rect>",
                    k % 2, x(c.from), y + kRowH - 6 + double(k) * lane,
                    std::max(x(c.to) - x(c.from), 0.5), std::max(lane, 0.6),
                    k, us(c.from), us(c.to));
    }
    os << "</g>\n";
  }
  os << "</svg>\n";
  detail((std::string(id) + "-chips").c_str(), t);
}

/// The busiest stage's busiest chips, every queue a row, over the stage's
/// window.
void Writer::detail(const char *id, const PhaseTimeline &t) {
  size_t rows = 0;
  for (const ChipTiming &c : t.detail)
    rows += 1 + c.queues.size();
  const double h = double(rows) * kQueueH;
  os << formatv("<p class='note'>Stage {0} in full, {1:f3}-{2:f3} us: its "
                "busiest chip(s), each queue's busy share.</p>\n<svg id='{3}' "
                "xmlns='http://www.w3.org/2000/svg' width='{4}' height='{5}'>"
                "\n",
                t.busiestStage, us(t.detailWindow.from), us(t.detailWindow.to),
                id, kLabelW + kPlotW + 10, h + kAxisH);
  axis(t.detailWindow, h);
  double y = 0;
  for (const ChipTiming &c : t.detail) {
    os << formatv("<text class='chip-detail' x='4' y='{0:f1}' font-weight="
                  "'bold'>chip {1}: occupied {2:f3} us</text>\n",
                  y + kQueueH - 2, c.chip, us(c.occupied));
    y += kQueueH;
    for (const QueueTiming &q : c.queues) {
      os << formatv("<g class='queue-row'><title>chip {0} {1}: busy {2:f3} "
                    "us in the phase ({3})</title><text x='20' y='{4:f1}' "
                    "font-size='9'>{1}</text>",
                    c.chip, escapeMarkup(q.name), us(q.busyCycles),
                    pct(double(q.busyCycles) / double(std::max<uint64_t>(
                                                   t.cycles, 1))),
                    y + kQueueH - 2);
      shades(q.busy, 1.0, y + 1, kQueueH - 2, report::unitColor(q.unit));
      os << "</g>\n";
      y += kQueueH;
    }
  }
  os << "</svg>\n";
}

void Writer::path() {
  os << "<p class='note'>One row per pipeline stage (its chips folded into "
        "one): the shade is how busy the stage's queues are (busy queues "
        "per chip, darkest at the phase's busiest), the bar below it each "
        "chunk of the tokens from its first instruction on the stage to its "
        "last completion (hover for the times). The bold stage holds the "
        "chip occupied longest; below, the queues of its busiest chips in "
        "full, zoomed to the stage's window (";
  for (isa::Unit u : {isa::Unit::MEM, isa::Unit::MXM, isa::Unit::SXM,
                      isa::Unit::VXM, isa::Unit::C2C})
    os << "<span style='color:" << report::unitColor(u) << "'>"
       << (u == isa::Unit::C2C ? std::string("links")
                               : std::string(isa::unitName(u)))
       << "</span> ";
  os << "), each shaded by its busy share.</p>\n";
  if (m.prefillTimeline)
    phase("path-prefill",
          m.prefillChunks > 1 ? "Prefill, chunk by chunk" : "Prefill",
          *m.prefillTimeline);
  phase("path-step", "One decode step", m.stepTimeline);
}

void Writer::sram() {
  const size_t n = m.sram.size();
  const double w = kPlotW / double(std::max<size_t>(n, 1)), h = 90;
  uint64_t capacity = 1;
  for (const ChipSram &c : m.sram)
    capacity = std::max({capacity, c.capacity, c.used()});
  const ChipSram &full = m.sram[m.sramChip];
  os << formatv("<p>Per chip, the larger of the prefill's and the step's "
                "SRAM: <span style='color:#999'>weights</span>, <span "
                "style='color:#CC79A7'>KV cache</span>, <span style='color:"
                "#009E73'>activations</span>, up to the chip's capacity ({0}) "
                "at the top. The fullest chip, {1}, holds {2} ({3}).</p>\n",
                mb(capacity), m.sramChip, mb(full.used()),
                pct(double(full.used()) / double(capacity)));
  os << formatv("<svg id='sram-strip' xmlns='http://www.w3.org/2000/svg' "
                "width='{0}' height='{1}'>\n<rect x='{2}' y='0' width='{3}' "
                "height='{4}' fill='#f6f6f6'/>\n",
                kLabelW + kPlotW + 10, h + kAxisH, kLabelW, kPlotW, h);
  os << formatv("<text x='4' y='12'>{0}</text><text x='4' y='{1}'>0</text>\n",
                mb(capacity), h);
  const double gap = w > 3 ? 1 : 0;
  for (size_t i = 0; i < n; ++i) {
    const ChipSram &c = m.sram[i];
    const double x0 = kLabelW + double(i) * w;
    os << formatv("<g class='sram-chip' data-chip='{0}' data-bytes='{6} {7} "
                  "{8}'><title>chip {0}: weights {1}, KV cache {2}, "
                  "activations {3}: {4} of {5}</title>",
                  i, mb(c.weights), mb(c.kvCache), mb(c.activations),
                  mb(c.used()), mb(c.capacity), c.weights, c.kvCache,
                  c.activations);
    double y = h;
    for (auto [cls, bytes] : {std::pair{"w", c.weights}, {"k", c.kvCache},
                              {"a", c.activations}}) {
      const double bh = h * double(bytes) / double(capacity);
      y -= bh;
      if (bh > 0)
        os << formatv("<rect class='{0}' x='{1:f2}' y='{2:f2}' width='{3:f2}'"
                      " height='{4:f2}'/>",
                      cls, x0, y, std::max(w - gap, 0.3), bh);
    }
    os << "</g>\n";
  }
  // Stage boundaries under the strip, labelled when there is room.
  const auto &stages = m.stepTimeline.stages;
  const size_t every = std::max<size_t>(1, stages.size() / 12);
  for (size_t s = 0; s < stages.size(); ++s) {
    const double x0 = kLabelW + double(stages[s].firstChip) * w;
    os << formatv("<line x1='{0:f1}' x2='{0:f1}' y1='{1}' y2='{2}' "
                  "stroke='#333'/>",
                  x0, h, h + 5);
    if (s % every == 0)
      os << formatv("<text x='{0:f1}' y='{1}'>s{2}</text>", x0 + 2, h + 16, s);
  }
  os << formatv("\n<text x='4' y='{0}'>chips by stage</text>\n</svg>\n",
                h + 16);
}

/// The cycles beyond a bound as one bar of serial latency, link time and
/// idle units, with the cycles of each.
void Writer::gapBar(const sim::GapAttribution &g, double mhz) {
  const uint64_t gap = g.serialLatency + g.linkTime + g.idleUnits;
  if (gap == 0) {
    os << "<td>none: the figure meets its bound</td>";
    return;
  }
  os << "<td><svg class='gap' xmlns='http://www.w3.org/2000/svg' width='200' "
        "height='12' style='display:inline-block;margin:0'>";
  double x = 0;
  for (auto [cls, what, cycles] :
       {std::tuple{"serial", "serial latency", g.serialLatency},
        {"link", "link time", g.linkTime}, {"idle", "idle units", g.idleUnits}}) {
    const double w = 200.0 * double(cycles) / double(gap);
    if (w > 0)
      os << formatv("<rect class='{0}' x='{1:f1}' y='0' width='{2:f1}' "
                    "height='12'><title>{3}: {4} cycles ({5:f3} us)</title>"
                    "</rect>",
                    cls, x, w, what, cycles, double(cycles) / mhz);
    x += w;
  }
  auto share = [&](uint64_t c) { return pct(double(c) / double(gap)); };
  os << formatv("</svg> serial latency {0}, link time {1}, idle units {2}"
                "</td>",
                share(g.serialLatency), share(g.linkTime), share(g.idleUnits));
}

/// Each stage's latency-bound terms (LatencyBound.h) in the step and the
/// prefill.
void Writer::stageTerms() {
  const auto &step = m.tpotLatency.stages;
  const sim::LatencyBound *pre = m.hasPrefill ? &m.ttftLatency : nullptr;
  os << "<table id='stage-terms'><thead><tr><th>stage</th><th>chips</th>";
  if (pre)
    os << "<th class='n'>prefill work W (us)</th><th class='n'>prefill pass "
          "E (us)</th>";
  os << "<th class='n'>step work W (us)</th><th class='n'>step pass E (us)"
        "</th></tr></thead><tbody>\n";
  for (size_t s = 0; s < step.size(); ++s) {
    const sim::StageLatency &l = step[s];
    const bool bold = s == m.tpotLatency.busiestStage;
    os << formatv("<tr{0}><td>{1}</td><td>{2}-{3}</td>",
                  bold ? " class='chosen'" : "", s, l.firstNode,
                  l.firstNode + l.nodes - 1);
    if (pre) {
      if (s < pre->stages.size())
        os << formatv("<td class='n'>{0:f3}</td><td class='n'>{1:f3}</td>",
                      pre->stages[s].workCycles / m.clockMHz,
                      pre->stages[s].passCycles / m.clockMHz);
      else
        os << "<td></td><td></td>";
    }
    os << formatv("<td class='n'>{0:f3}</td><td class='n'>{1:f3}</td></tr>\n",
                  l.workCycles / m.clockMHz, l.passCycles / m.clockMHz);
  }
  os << "</tbody></table>\n";
}

void Writer::bounds() {
  os << "<p>Each simulated figure beside the floor it cannot beat, and where "
        "the time beyond that floor goes: <b>serial latency</b> (waiting on "
        "the longest dependency chain), <b>link time</b> (the busiest link "
        "beyond its share of the bound), <b>idle units</b> (the rest).</p>\n"
        "<table id='bound-table'><thead><tr><th>figure</th><th class='n'>"
        "simulated (us)</th><th class='n'>bound (us)</th><th class='n'>"
        "efficiency</th><th>beyond the bound</th></tr></thead><tbody>\n";
  auto row = [&](const std::string &what, double figure, double bound,
                 double eff, const sim::GapAttribution &g) {
    os << formatv("<tr><td>{0}</td><td class='n'>{1:f3}</td><td class='n'>"
                  "{2:f3}</td><td class='n'>{3}</td>",
                  what, figure, bound, pct(eff));
    gapBar(g, m.clockMHz);
    os << "</tr>\n";
  };
  if (m.hasPrefill)
    row(formatv("TTFT against its latency bound (one prompt along {0} "
                "stage(s), {1:f3} us of hops)",
                m.ttftLatency.stages.size(), us(m.ttftLatency.hopCycles)),
        m.ttftUs(), m.ttftLatencyBoundUs, m.ttftLatencyEfficiency,
        m.ttftLatencyGap);
  row(formatv("TPOT against its latency bound (one token along {0} stage(s), "
              "{1:f3} us of hops)",
              m.tpotLatency.stages.size(), us(m.tpotLatency.hopCycles)),
      m.tpotUs(), m.tpotLatencyBoundUs, m.tpotLatencyEfficiency,
      m.tpotLatencyGap);
  row(formatv("decode step against its physical bound (limit: {0})",
              escapeMarkup(m.physical.limit)),
      m.tpotComputeUs, m.physicalBoundUs, m.efficiency, m.gap);
  os << "</tbody></table>\n";
  os << formatv("<p>Physical bound of the step: {0} MACs, {1} bytes through "
                "SRAM, {2} bytes over links in {3} hop(s) on {4} chip(s); "
                "{5:f3} us without this placement's links. Schedule "
                "efficiency {6:f2} (the bound of its own instructions: {7})."
                "</p>\n",
                m.physical.macs, m.physical.sramBytes, m.physical.linkBytes,
                m.physical.linkHops, m.physical.chips,
                us(m.physical.workCycles), m.scheduleEfficiency,
                escapeMarkup(m.scheduleBottleneck));
  os << "<p class='note'>Per stage, the latency bound's terms: W, the "
        "stage's whole work on its busiest chip; E, its weights entering "
        "the MXM once (the least any pass through it costs). The highlighted "
        "stage sets the step's bound.</p>\n";
  stageTerms();
}

void Writer::placements() {
  if (m.trials.empty()) {
    os << "<p id='placements-none'>"
       << (m.placementAsked ? "The placement was asked for (--tp/--pp): no "
                              "other was tried."
                            : "Only the compiler's placement: no narrower "
                              "tensor-parallel width to try.")
       << "</p>\n";
    return;
  }
  os << "<p>The compiler's placement first, then each narrower "
        "tensor-parallel width on the same chips; the plan keeps the fastest "
        "decode step whose both phases compile (highlighted).</p>\n<table "
        "id='placement-table'><thead><tr><th>tp</th><th>pp</th><th class='n'>"
        "decode step (us)</th><th>outcome</th></tr></thead><tbody>\n";
  for (const PlacementTrial &p : m.trials) {
    const bool chosen = p.compiled && p.tp == m.tp && p.pp == m.pp;
    os << formatv("<tr{0}><td>{1}</td><td>{2}</td><td class='n'>{3}</td><td>"
                  "{4}</td></tr>\n",
                  chosen ? " class='chosen'" : "", p.tp, p.pp,
                  p.compiled ? formatv("{0:f3}", p.stepUs).str() : "-",
                  chosen       ? std::string("chosen")
                  : p.compiled ? std::string("compiled, slower")
                  : p.doesNotFit ? "does not fit: " + escapeMarkup(p.failure)
                                 : "does not compile: " +
                                       escapeMarkup(p.failure));
  }
  os << "</tbody></table>\n";
}

// Marks the page ready for a headless browser once every part is drawn.
const char *kScript =
    "document.body.setAttribute('data-ready', document.querySelectorAll("
    "'#path-step .stage-row').length > 0 && document.getElementById("
    "'sram-strip') ? '1' : '0');";

} // namespace

std::string lpx::deploy::renderDecodeReport(const DecodeMetrics &m) {
  const std::string title =
      formatv("lpx decode: {0} on {1} chip(s) of {2}", m.model, m.chips,
              m.chipName)
          .str();
  std::string out = report::htmlPageStart(title, kStyle);
  llvm::raw_string_ostream os(out);
  os << "<h1>" << escapeMarkup(title) << "</h1>\n<nav><a href='#figures-"
        "section'>figures</a><a href='#path'>the tokens' path</a><a href="
        "'#sram'>SRAM</a><a href='#bounds'>bounds</a><a href='#placements'>"
        "placements tried</a></nav>\n";
  auto section = [&](const char *id, const char *heading, void (Writer::*f)()) {
    std::string body;
    llvm::raw_string_ostream b(body);
    Writer part(m, b);
    (part.*f)();
    os << report::htmlSection(id, heading, body);
  };
  section("figures-section", "Headline figures", &Writer::figures);
  section("path", "The tokens' path through the pipeline stages",
          &Writer::path);
  section("sram", "SRAM of every chip", &Writer::sram);
  section("bounds", "Bounds and the gap", &Writer::bounds);
  section("placements", "Placements tried", &Writer::placements);
  os << report::htmlPageEnd(kScript);
  return out;
}
