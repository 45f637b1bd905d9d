//===- HtmlReport.cpp - A simulated run as one self-contained page --------===//
#include "lpx/report/HtmlReport.h"
#include "lpx/report/HtmlPage.h"
#include "lpx/report/Markup.h"
#include "lpx/report/SvgPlot.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace lpx;
using namespace lpx::report;
using llvm::formatv;

namespace {

constexpr double kLabelW = 80, kPlotW = 1000, kRowH = 18, kAxisH = 24;

const char *kStyle = R"(
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222;max-width:1200px}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;font-size:.9em}td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}
td.n,th.n{text-align:right}tr.hazard td{background:#fdd}
.bar{display:inline-block;height:.8em;background:#0072B2}
nav a{margin-right:1em}svg{display:block;margin:.5em 0}svg text{font-size:11px}
.note{color:#666;font-size:.9em}#pager button{margin:0 .3em}
)";

const char *kindColor(int kind) {
  switch (kind) {
  case isa::pb::INPUT: return "#56B4E9";
  case isa::pb::CONSTANT: return "#999999";
  case isa::pb::OUTPUT: return "#E69F00";
  case isa::pb::STATE: return "#CC79A7";
  default: return "#009E73";
  }
}

const char *kindName(int kind) {
  switch (kind) {
  case isa::pb::INPUT: return "input";
  case isa::pb::CONSTANT: return "constant";
  case isa::pb::OUTPUT: return "output";
  case isa::pb::STATE: return "state";
  default: return "temp";
  }
}

/// Round tick positions within [0, max].
std::vector<uint64_t> ticks(uint64_t max) {
  std::vector<uint64_t> out;
  for (double t : niceTicks(0, double(std::max<uint64_t>(max, 1)), 5))
    if (t <= double(max))
      out.push_back(uint64_t(t));
  return out;
}

/// A cycle axis along the bottom of a chart `height` tall.
void cycleAxis(llvm::raw_ostream &os, uint64_t total, double height) {
  double scale = kPlotW / double(std::max<uint64_t>(total, 1));
  for (uint64_t t : ticks(total)) {
    double x = kLabelW + double(t) * scale;
    os << formatv("<line x1='{0:f1}' x2='{0:f1}' y1='0' y2='{1:f1}' "
                  "stroke='#eee'/><text x='{0:f1}' y='{2:f1}' "
                  "text-anchor='middle'>{3}</text>\n",
                  x, height, height + 14, t);
  }
  os << formatv("<text x='{0:f1}' y='{1:f1}' text-anchor='end'>cycle</text>\n",
                kLabelW - 8, height + 14);
}

std::string sizeText(uint64_t bytes) {
  if (bytes >= (1u << 20))
    return formatv("{0:f2} MiB", double(bytes) / (1 << 20)).str();
  if (bytes >= (1u << 10))
    return formatv("{0:f1} KiB", double(bytes) / (1 << 10)).str();
  return formatv("{0} B", bytes).str();
}

class Writer {
public:
  Writer(const Timeline &t, const ReportLimits &limits, llvm::raw_ostream &os)
      : t(t), r(*t.result), limits(limits), os(os),
        total(std::max<uint64_t>(r.totalCycles, 1)) {}

  void summary(llvm::StringRef title);
  void bounds();
  void physical();
  void timeline();
  void utilisation();
  void sramMaps();
  void hazards();
  void instructionTable();

private:
  double x(uint64_t cycle) const {
    return kLabelW + double(cycle) * kPlotW / double(total);
  }
  void track(const Track &track, double y);
  void densityTrack(const Track &track, double y);
  void sramMap(uint32_t node);

  const Timeline &t;
  const sim::SimResult &r;
  const ReportLimits &limits;
  llvm::raw_ostream &os;
  uint64_t total;
};

void Writer::summary(llvm::StringRef title) {
  const isa::pb::Program &p = t.prog->program();
  os << "<h1>" << escapeMarkup(title) << "</h1>\n<nav><a href='#bounds'>"
     << "bounds</a><a href='#timeline'>timeline</a><a href='#utilisation'>"
     << "utilisation</a><a href='#sram'>SRAM</a><a href='#hazards'>hazards"
     << "</a><a href='#instructions'>instructions</a></nav>\n"
     << "<section id='summary'><h2>Summary</h2><table>\n";
  auto row = [&](llvm::StringRef k, const std::string &v) {
    os << "<tr><th>" << k << "</th><td>" << escapeMarkup(v) << "</td></tr>\n";
  };
  row("model", p.source_model());
  row("chip", t.prog->chip().name + " at " +
                  formatv("{0}", t.prog->chip().clockMHz).str() + " MHz");
  row("chips", std::to_string(p.num_nodes()));
  row("total cycles", std::to_string(r.totalCycles));
  row("time", formatv("{0:f3} us", r.seconds * 1e6).str());
  row("instructions", std::to_string(r.instructions));
  row("bytes over links", std::to_string(r.bytesOverLinks));
  row("hazards", std::to_string(r.hazardCount));
  row("host I/O (not in the cycles)",
      formatv("{0:f3} us in, {1:f3} us out", r.hostInputUs, r.hostOutputUs)
          .str());
  os << "</table></section>\n";
}

/// The physical bound first: what the chip could do with this model's work.
void Writer::physical() {
  const sim::PhysicalBound &b = r.physical;
  const uint64_t gap = r.gap.serialLatency + r.gap.linkTime + r.gap.idleUnits;
  os << formatv("The model's work needs at least <b>{0}</b> cycles on {1} "
                "chip(s) at the chip's peaks, set by <b>{2}</b> ({3} MACs, "
                "{4} bytes through SRAM, {5} bytes over links in {6} hop(s); "
                "{13} cycles without this placement's links). "
                "The run takes {7} cycles: efficiency <b>{8:f2}</b> of the "
                "physical bound; of the {9} cycles beyond it, {10} are serial "
                "latency, {11} link time and {12} idle units.</p>\n<p>",
                b.cycles, b.chips, escapeMarkup(b.limit), b.macs, b.sramBytes,
                b.linkBytes, b.linkHops, r.totalCycles, r.physicalEfficiency,
                gap, r.gap.serialLatency, r.gap.linkTime, r.gap.idleUnits,
                b.workCycles);
}

void Writer::bounds() {
  const sim::QueueStats *busiest = nullptr;
  for (const sim::QueueStats &q : r.queues)
    if (!busiest || q.busyCycles > busiest->busyCycles)
      busiest = &q;
  os << "<section id='bounds'><h2>Bounds: what limits the run</h2>\n<p>";
  if (r.instructions == 0)
    os << "An empty program.";
  else
    physical();
  if (r.instructions != 0)
    os << formatv("No schedule of these instructions can take fewer than "
                  "<b>{0}</b> cycles on this chip; the bound is set by "
                  "<b>{1}</b>. The simulated schedule takes {2} cycles: "
                  "schedule efficiency <b>{3:f2}</b>.",
                  r.lowerBound, escapeMarkup(r.bottleneck), r.totalCycles,
                  r.efficiency);
  if (busiest && busiest->busyCycles)
    os << formatv(" The busiest queue is {0} on chip {1}, busy {2:f1}% of "
                  "the run.",
                  escapeMarkup(busiest->queue), busiest->node,
                  100.0 * double(busiest->busyCycles) / double(total));
  os << "</p>\n<table><tr><th>bound</th><th>what</th><th class='n'>cycles"
        "</th></tr>\n";
  auto row = [&](const char *name, const sim::Bound &b) {
    os << "<tr><td>" << name << "</td><td>" << escapeMarkup(b.what)
       << "</td><td class='n'>" << b.cycles << "</td></tr>\n";
  };
  row("busiest queue", r.bounds.resource);
  row("SRAM bandwidth", r.bounds.sramBandwidth);
  row("dependency chain", r.bounds.criticalPath);
  os << "<tr><td>deskew (in every bound)</td><td></td><td class='n'>"
     << r.bounds.deskew << "</td></tr>\n</table></section>\n";
}

void Writer::track(const Track &tr, double y) {
  for (size_t i : tr.events) {
    const sim::InstructionEvent &e = t.trace->instructions[i];
    double w = std::max(x(e.busyEnd) - x(e.issue), 0.5);
    os << formatv("<rect x='{0:f2}' y='{1:f1}' width='{2:f2}' height='{3:f1}'"
                  " fill='{4}'{5}><title>{6}: cycles {7}-{8}, done {9}"
                  "</title></rect>\n",
                  x(e.issue), y + 2, w, kRowH - 4, unitColor(e.unit),
                  e.hazards ? " stroke='red' stroke-width='1.5'" : "",
                  escapeMarkup(t.label(i)), e.issue, e.busyEnd, e.done);
  }
}

// Too many slices to draw one by one: the fraction of each pixel column's
// cycles the queue was busy, as opacity.
void Writer::densityTrack(const Track &tr, double y) {
  const size_t bins = size_t(kPlotW / 4);
  std::vector<double> busy(bins, 0);
  const double perBin = double(total) / double(bins);
  for (size_t i : tr.events) {
    const sim::InstructionEvent &e = t.trace->instructions[i];
    double a = double(e.issue), b = double(e.busyEnd);
    for (size_t k = size_t(a / perBin); k < bins && double(k) * perBin < b;
         ++k)
      busy[k] += std::min(b, double(k + 1) * perBin) -
                 std::max(a, double(k) * perBin);
  }
  for (size_t k = 0; k < bins; ++k)
    if (busy[k] > 0)
      os << formatv("<rect x='{0:f1}' y='{1:f1}' width='4' height='{2:f1}' "
                    "fill='{3}' fill-opacity='{4:f2}'/>\n",
                    kLabelW + double(k) * 4, y + 2, kRowH - 4,
                    unitColor(t.trace->instructions[tr.events.front()].unit),
                    std::min(busy[k] / perBin, 1.0));
}

void Writer::timeline() {
  const bool density = t.trace->instructions.size() > limits.slices;
  os << "<section id='timeline'><h2>Timeline</h2>\n<p class='note'>";
  if (density)
    os << t.trace->instructions.size() << " instructions are too many to "
       << "draw one by one: each row shows how busy its queue is over time "
       << "(darker: busier). <code>--trace</code> shows every instruction.";
  else
    os << "One row per instruction queue and per link; a box is an "
          "instruction's busy cycles (hover for its name). Red outlines are "
          "hazards.";
  os << "</p>\n";
  for (uint32_t node = 0; node < t.prog->program().num_nodes(); ++node) {
    std::vector<const Track *> rows;
    for (const Track &tr : t.tracks)
      if (tr.node == node)
        rows.push_back(&tr);
    double h = double(rows.size()) * kRowH;
    os << "<h3>chip " << node << "</h3>\n"
       << formatv("<svg id='timeline-chip{0}' class='timeline' "
                  "xmlns='http://www.w3.org/2000/svg' width='{1}' "
                  "height='{2}'>\n",
                  node, kLabelW + kPlotW + 10, h + kAxisH);
    cycleAxis(os, total, h);
    for (size_t k = 0; k < rows.size(); ++k) {
      double y = double(k) * kRowH;
      os << formatv("<text x='4' y='{0:f1}'>{1}</text>\n", y + kRowH - 5,
                    escapeMarkup(rows[k]->name));
      if (rows[k]->events.empty())
        continue;
      if (density)
        densityTrack(*rows[k], y);
      else
        track(*rows[k], y);
    }
    os << "</svg>\n";
  }
  os << "</section>\n";
}

void Writer::utilisation() {
  os << "<section id='utilisation'><h2>Unit and link utilisation</h2>\n"
        "<table><tr><th>chip</th><th>queue</th><th class='n'>busy cycles</th>"
        "<th class='n'>instructions</th><th class='n'>utilisation</th><th>"
        "</th></tr>\n";
  for (const sim::QueueStats &q : r.queues) {
    double u = double(q.busyCycles) / double(total);
    os << formatv("<tr><td>{0}</td><td>{1}</td><td class='n'>{2}</td>"
                  "<td class='n'>{3}</td><td class='n'>{4:f2}%</td><td>"
                  "<span class='bar' style='width:{5:f0}px'></span></td></tr>\n",
                  q.node, escapeMarkup(q.queue), q.busyCycles, q.instructions,
                  100 * u, 200 * std::min(u, 1.0));
  }
  os << "</table></section>\n";
}

void Writer::sramMap(uint32_t node) {
  std::vector<const sim::BufferLifetime *> live;
  uint64_t top = 1;
  for (const sim::BufferLifetime &b : t.trace->buffers)
    if (b.node == node) {
      live.push_back(&b);
      top = std::max(top, b.addr + b.bytes);
    }
  const size_t perChip = std::max<size_t>(
      100, limits.buffers / std::max(t.prog->program().num_nodes(), 1u));
  size_t shown = std::min(live.size(), perChip);
  // Keep the buffers that cover the most area of the map.
  std::partial_sort(live.begin(), live.begin() + shown, live.end(),
                    [](auto *a, auto *b) {
                      return double(a->bytes) * double(a->to - a->from) >
                             double(b->bytes) * double(b->to - b->from);
                    });
  const double h = 240, inUseH = 60;
  os << formatv("<h3>chip {0}: peak {1} in use, addresses up to {2}</h3>\n",
                node, sizeText(t.sramPeak(node)), sizeText(top))
     << formatv("<svg id='sram-chip{0}' class='sram' xmlns='http://www.w3.org/"
                "2000/svg' width='{1}' height='{2}'>\n",
                node, kLabelW + kPlotW + 10, inUseH + h + kAxisH + 10);
  // SRAM in use over time, as a step line above the map.
  std::string points;
  uint64_t peak = std::max<uint64_t>(t.sramPeak(node), 1), last = 0;
  for (const SramPoint &p : t.sramInUse[node]) {
    double yPrev = inUseH - inUseH * double(last) / double(peak);
    double yNow = inUseH - inUseH * double(p.bytes) / double(peak);
    points += formatv("{0:f1},{1:f1} {0:f1},{2:f1} ", x(p.cycle), yPrev, yNow);
    last = p.bytes;
  }
  points += formatv("{0:f1},{1:f1}", x(total),
                    inUseH - inUseH * double(last) / double(peak));
  os << "<text x='4' y='14'>in use</text><polyline fill='none' "
        "stroke='#333' points='"
     << points << "'/>\n<g transform='translate(0," << inUseH + 10 << ")'>\n"
     << "<text x='4' y='14'>address</text>\n";
  cycleAxis(os, total, h);
  for (size_t i = 0; i < shown; ++i) {
    const sim::BufferLifetime &b = *live[i];
    const isa::pb::Buffer &buf = t.prog->program().buffers(int(b.buffer));
    double y0 = h * double(b.addr) / double(top);
    double bh = std::max(h * double(b.bytes) / double(top), 2.0);
    os << formatv("<rect x='{0:f2}' y='{1:f2}' width='{2:f2}' height='{3:f2}'"
                  " fill='{4}' fill-opacity='0.7'><title>{5} ({6}, {7}) at "
                  "{8}: cycles {9}-{10}</title></rect>\n",
                  x(b.from), y0, std::max(x(b.to) - x(b.from), 0.5), bh,
                  kindColor(buf.kind()), escapeMarkup(buf.name()),
                  kindName(buf.kind()), sizeText(b.bytes), b.addr, b.from,
                  b.to);
  }
  os << "</g></svg>\n";
  if (shown < live.size())
    os << "<p class='note'>" << shown << " of " << live.size()
       << " buffers drawn (those with the most bytes x cycles)</p>\n";
}

void Writer::sramMaps() {
  os << "<section id='sram'><h2>SRAM over time</h2>\n<p class='note'>Top: "
        "bytes held by buffers still needed. Below: each buffer's address "
        "range (down) while it is needed (across): <span style='color:"
     << kindColor(isa::pb::INPUT) << "'>input</span>, <span style='color:"
     << kindColor(isa::pb::CONSTANT) << "'>constant</span>, <span "
     << "style='color:" << kindColor(isa::pb::TEMP) << "'>temp</span>, <span "
     << "style='color:" << kindColor(isa::pb::OUTPUT) << "'>output</span>, "
     << "<span style='color:" << kindColor(isa::pb::STATE)
     << "'>state</span>.</p>\n";
  for (uint32_t node = 0; node < t.prog->program().num_nodes(); ++node)
    sramMap(node);
  os << "</section>\n";
}

void Writer::hazards() {
  os << "<section id='hazards'><h2>Hazards</h2>\n";
  if (r.hazardCount == 0) {
    os << "<p>None: the schedule runs as written.</p></section>\n";
    return;
  }
  os << "<p>" << r.hazardCount << " hazard(s)"
     << (r.hazards.size() < r.hazardCount
             ? formatv(", the first {0} listed", r.hazards.size()).str()
             : std::string())
     << ".</p>\n<table><tr><th>instruction</th><th>chip</th><th>cycle</th>"
        "<th>kind</th><th>what</th></tr>\n";
  for (const sim::Hazard &h : r.hazards)
    os << formatv("<tr class='hazard'><td>{0}</td><td>{1}</td><td>{2}</td>"
                  "<td>{3}</td><td>{4}</td></tr>\n",
                  h.instruction, h.node, h.cycle, escapeMarkup(h.kind),
                  escapeMarkup(h.message));
  os << "</table></section>\n";
}

void Writer::instructionTable() {
  const size_t n = t.trace->instructions.size();
  os << "<section id='instructions'><h2>Instructions</h2>\n";
  if (n > limits.tableRows)
    os << "<p class='note'>The first " << limits.tableRows << " of " << n
       << " instructions; <code>lpx inspect</code> lists them all and "
          "<code>--trace</code> shows them all on a timeline.</p>\n";
  os << "<div id='pager'></div>\n<table id='instruction-table'><thead><tr>"
        "<th class='n'>#</th><th class='n'>issue</th><th>chip</th><th>queue"
        "</th><th>op</th><th>ONNX node</th><th class='n'>busy</th><th "
        "class='n'>latency</th><th class='n'>done</th><th class='n'>bytes "
        "read</th><th class='n'>bytes written</th><th class='n'>MACs</th>"
        "<th class='n'>hazards</th></tr></thead><tbody>\n";
  for (size_t i = 0; i < std::min(n, limits.tableRows); ++i) {
    const sim::InstructionEvent &e = t.trace->instructions[i];
    os << formatv("<tr{0}><td class='n'>{1}</td><td class='n'>{2}</td><td>{3}"
                  "</td><td>{4}</td><td>{5}</td><td>{6}</td><td class='n'>{7}"
                  "</td><td class='n'>{8}</td><td class='n'>{9}</td><td "
                  "class='n'>{10}</td><td class='n'>{11}</td><td class='n'>"
                  "{12}</td><td class='n'>{13}</td></tr>\n",
                  e.hazards ? " class='hazard'" : "", e.instruction, e.issue,
                  e.node, escapeMarkup(t.tracks[t.trackOfEvent[i]].name),
                  escapeMarkup(t.op(i)),
                  escapeMarkup(t.instruction(i).origin()), e.busyEnd - e.issue,
                  e.done - e.busyEnd, e.done, e.bytesRead, e.bytesWritten,
                  e.macs, e.hazards);
  }
  os << "</tbody></table></section>\n";
}

// Pages the instruction table 100 rows at a time; marks the page ready so a
// headless browser can tell the script ran.
const char *kScript = R"(
(function () {
  var rows = document.querySelectorAll('#instruction-table tbody tr');
  var per = 100, pages = Math.max(1, Math.ceil(rows.length / per)), page = 0;
  var pager = document.getElementById('pager');
  var status = document.createElement('span');
  status.id = 'pager-status';
  function show(p) {
    page = Math.min(Math.max(p, 0), pages - 1);
    for (var i = 0; i < rows.length; ++i)
      rows[i].style.display = Math.floor(i / per) === page ? '' : 'none';
    status.textContent = 'page ' + (page + 1) + ' of ' + pages;
  }
  function button(text, to) {
    var b = document.createElement('button');
    b.textContent = text;
    b.onclick = function () { show(to()); };
    pager.appendChild(b);
  }
  button('first', function () { return 0; });
  button('previous', function () { return page - 1; });
  pager.appendChild(status);
  button('next', function () { return page + 1; });
  button('last', function () { return pages - 1; });
  show(0);
  document.body.setAttribute('data-ready', '1');
})();
)";

} // namespace

std::string lpx::report::renderHtmlReport(const Timeline &t, llvm::StringRef title,
                                       llvm::ArrayRef<ReportSection> extra,
                                       const ReportLimits &limits) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << htmlPageStart(title, kStyle);
  Writer w(t, limits, os);
  w.summary(title);
  for (const ReportSection &s : extra)
    os << htmlSection(s.id, s.title, s.html);
  w.bounds();
  w.timeline();
  w.utilisation();
  w.sramMaps();
  w.hazards();
  w.instructionTable();
  os << htmlPageEnd(kScript);
  return out;
}
