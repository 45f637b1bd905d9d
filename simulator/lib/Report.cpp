//===- Report.cpp - Printing a simulation result --------------------------===//
//
// Two views of one SimResult: a text summary for people and JSON for tools.
// Both are pure functions of the result and the program, so identical runs
// print identical bytes.
//
//===----------------------------------------------------------------------===//
#include "lpx/sim/Simulator.h"
#include "lpx/isa/Timing.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace lpx;
using namespace lpx::sim;

static double utilisation(const QueueStats &q, const SimResult &r) {
  return r.totalCycles == 0 ? 0.0
                            : double(q.busyCycles) / double(r.totalCycles);
}

static llvm::StringRef boundName(const std::string &what) {
  return what.empty() ? llvm::StringRef("none") : llvm::StringRef(what);
}

static llvm::json::Object boundJson(const Bound &b) {
  return llvm::json::Object{{"cycles", b.cycles}, {"what", b.what}};
}

llvm::json::Object lpx::sim::physicalJson(const PhysicalBound &b,
                                          double clockMHz) {
  return llvm::json::Object{
      {"cycles", b.cycles},         {"us", double(b.cycles) / clockMHz},
      {"work_cycles", b.workCycles},
      {"limit", b.limit},           {"macs", b.macs},
      {"compute_cycles", b.computeCycles}, {"sram_bytes", b.sramBytes},
      {"sram_cycles", b.sramCycles}, {"link_bytes", b.linkBytes},
      {"link_hops", b.linkHops},    {"link_cycles", b.linkCycles},
      {"deskew", b.deskew},         {"chips", b.chips},
  };
}

llvm::json::Object lpx::sim::latencyJson(const LatencyBound &b,
                                         double clockMHz) {
  llvm::json::Array stages;
  for (const StageLatency &s : b.stages)
    stages.push_back(llvm::json::Object{{"first_node", s.firstNode},
                                        {"nodes", s.nodes},
                                        {"mxm_cycles", s.mxmCycles},
                                        {"sram_cycles", s.sramCycles},
                                        {"work_cycles", s.workCycles},
                                        {"pass_cycles", s.passCycles}});
  return llvm::json::Object{{"cycles", b.cycles},
                            {"us", double(b.cycles) / clockMHz},
                            {"busiest_stage", b.busiestStage},
                            {"hop_cycles", b.hopCycles},
                            {"deskew", b.deskew},
                            {"stages", std::move(stages)}};
}

static double microseconds(const SimResult &r, const isa::ChipSpec &chip) {
  return double(r.totalCycles) / chip.clockMHz;
}

/// The physical bound, its terms and the gap's shares, first among the
/// efficiencies: it says how far the program is from what the chip can do.
static void printPhysical(const SimResult &r, const isa::ChipSpec &chip,
                          llvm::raw_ostream &os) {
  const PhysicalBound &b = r.physical;
  os << llvm::formatv("  efficiency: {0:f2} of the physical bound, {1} "
                      "cycles ({2:f3} us, limit: {3})\n",
                      r.physicalEfficiency, b.cycles,
                      double(b.cycles) / chip.clockMHz, b.limit);
  os << llvm::formatv("    work: {0} MACs -> {1:f0} cycles at the MXM peaks "
                      "(MACs, operand entry); "
                      "{2} bytes of SRAM -> {3:f0} cycles; {4} bytes over "
                      "links, {5} hop(s) -> {6:f0} cycles (this placement's); "
                      "{7} chip(s)\n",
                      b.macs, b.computeCycles, b.sramBytes, b.sramCycles,
                      b.linkBytes, b.linkHops, b.linkCycles, b.chips);
  const uint64_t gap = r.gap.serialLatency + r.gap.linkTime + r.gap.idleUnits;
  auto share = [&](uint64_t x) {
    return gap == 0 ? 0.0 : 100.0 * double(x) / double(gap);
  };
  os << llvm::formatv("    gap: {0} cycles: serial latency {1} ({2:f0}%), "
                      "link time {3} ({4:f0}%), idle units {5} ({6:f0}%)\n",
                      gap, r.gap.serialLatency, share(r.gap.serialLatency),
                      r.gap.linkTime, share(r.gap.linkTime), r.gap.idleUnits,
                      share(r.gap.idleUnits));
}

void lpx::sim::printReport(const SimResult &r, const isa::VerifiedProgram &prog,
                           llvm::raw_ostream &os) {
  const isa::pb::Program &p = prog.program();
  const std::string &model =
      p.source_model().empty() ? std::string("program") : p.source_model();
  os << llvm::formatv("simulation of {0} on chip '{1}', {2} node(s)\n", model,
                      prog.chip().name, p.num_nodes());
  os << llvm::formatv("  total cycles:     {0}\n", r.totalCycles);
  os << llvm::formatv("  time:             {0:f3} us at ",
                      microseconds(r, prog.chip()))
     << llvm::format("%g", prog.chip().clockMHz) << " MHz\n";
  os << llvm::formatv("  instructions:     {0}\n", r.instructions);
  os << llvm::formatv("  bytes over links: {0}\n", r.bytesOverLinks);
  printPhysical(r, prog.chip(), os);
  const LatencyBound &l = r.latency;
  os << llvm::formatv("  latency efficiency: {0:f2} of the bound one request "
                      "meets along {1} stage(s), {2} cycles ({3:f3} us: stage "
                      "{4} does all its work, the others their weights once, "
                      "{5} cycles of hops)\n",
                      r.latencyEfficiency, l.stages.size(), l.cycles,
                      double(l.cycles) / prog.chip().clockMHz, l.busiestStage,
                      l.hopCycles);
  os << llvm::formatv("  lower bound: {0} cycles (bottleneck: {1})\n",
                      r.lowerBound, boundName(r.bottleneck));
  os << llvm::formatv("  schedule efficiency: {0:f2}\n", r.efficiency);
  os << llvm::formatv("  MXM utilisation: {0:f2}% ({1} useful MACs / ({2} "
                      "per cycle x {3} node(s) x {4} cycles))\n",
                      100.0 * r.mxmUtilisation, r.macs,
                      isa::mxmPeakMacsPerCycle(prog.chip()), p.num_nodes(),
                      r.totalCycles);
  const LowerBounds &b = r.bounds;
  // Each name says what kind of bound it is ("mxm on node 0", "SRAM
  // bandwidth of node 0", "dependency chain ending at ...").
  os << llvm::formatv("  bounds: {0}: {1}, {2}: {3}, {4}: {5} (deskew of {6} "
                      "included)\n",
                      boundName(b.resource.what), b.resource.cycles,
                      boundName(b.sramBandwidth.what), b.sramBandwidth.cycles,
                      boundName(b.criticalPath.what), b.criticalPath.cycles,
                      b.deskew);
  os << llvm::formatv("  host I/O: {0:f3} us in, {1:f3} us out (not in the "
                      "cycle count)\n",
                      r.hostInputUs, r.hostOutputUs);

  os << "queues:\n";
  os << llvm::formatv("  {0,-5} {1,-7} {2,12} {3,12} {4,8}\n", "node", "queue",
                      "busy", "instrs", "util");
  for (const QueueStats &q : r.queues)
    os << llvm::formatv("  {0,-5} {1,-7} {2,12} {3,12} {4,7:f2}%\n", q.node,
                        q.queue, q.busyCycles, q.instructions,
                        100.0 * utilisation(q, r));

  if (r.hazardCount == 0) {
    os << "hazards: none\n";
    return;
  }
  os << llvm::formatv("hazards: {0}\n", r.hazardCount);
  for (const Hazard &h : r.hazards)
    os << llvm::formatv("  cycle {0} node {1} instruction {2} {3}: {4}\n",
                        h.cycle, h.node, h.instruction, h.kind, h.message);
  if (r.hazardCount > r.hazards.size())
    os << llvm::formatv("  ... {0} more not listed\n",
                        r.hazardCount - r.hazards.size());
}

void lpx::sim::printJson(const SimResult &r, const isa::VerifiedProgram &prog,
                         llvm::raw_ostream &os) {
  const isa::pb::Program &p = prog.program();
  llvm::json::Array queues;
  for (const QueueStats &q : r.queues)
    queues.push_back(llvm::json::Object{
        {"node", q.node},
        {"queue", q.queue},
        {"busy_cycles", q.busyCycles},
        {"instructions", q.instructions},
        {"utilisation", utilisation(q, r)},
    });
  llvm::json::Array hazards;
  for (const Hazard &h : r.hazards)
    hazards.push_back(llvm::json::Object{
        {"node", h.node},
        {"instruction", h.instruction},
        {"cycle", h.cycle},
        {"kind", h.kind},
        {"message", h.message},
    });
  // llvm::json prints object keys in sorted order, which makes the text
  // independent of insertion order.
  llvm::json::Value root = llvm::json::Object{
      {"source_model", p.source_model()},      {"chip", prog.chip().name},
      {"clock_mhz", prog.chip().clockMHz},       {"nodes", p.num_nodes()},
      {"total_cycles", r.totalCycles},         {"seconds", r.seconds},
      {"time_us", microseconds(r, prog.chip())}, {"instructions", r.instructions},
      {"bytes_over_links", r.bytesOverLinks},  {"queues", std::move(queues)},
      {"hazard_count", r.hazardCount},         {"hazards", std::move(hazards)},
      {"lower_bound", r.lowerBound},           {"bottleneck", r.bottleneck},
      {"efficiency", r.efficiency},
      {"macs", r.macs},                        {"mxm_utilisation", r.mxmUtilisation},
      {"bounds",
       llvm::json::Object{
           {"deskew", r.bounds.deskew},
           {"resource", boundJson(r.bounds.resource)},
           {"sram_bandwidth", boundJson(r.bounds.sramBandwidth)},
           {"critical_path", boundJson(r.bounds.criticalPath)},
       }},
      {"physical_efficiency", r.physicalEfficiency},
      {"physical_bound", physicalJson(r.physical, prog.chip().clockMHz)},
      {"latency_efficiency", r.latencyEfficiency},
      {"latency_bound", latencyJson(r.latency, prog.chip().clockMHz)},
      {"gap",
       llvm::json::Object{{"serial_latency_cycles", r.gap.serialLatency},
                          {"link_cycles", r.gap.linkTime},
                          {"idle_cycles", r.gap.idleUnits}}},
      {"host_input_bytes", r.hostInputBytes},
      {"host_output_bytes", r.hostOutputBytes},
      {"host_input_us", r.hostInputUs},
      {"host_output_us", r.hostOutputUs},
  };
  os << llvm::formatv("{0:2}", root) << "\n";
}
