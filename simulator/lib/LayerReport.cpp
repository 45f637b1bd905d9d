//===- LayerReport.cpp - Cycles and MACs per ONNX node --------------------===//
#include "lpx/sim/LayerReport.h"
#include "lpx/isa/Timing.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>

using namespace lpx;
using namespace lpx::sim;

std::vector<LayerStats> lpx::sim::layerStats(const isa::VerifiedProgram &prog,
                                             const ExecutionTrace &trace) {
  const isa::pb::Program &p = prog.program();
  std::vector<LayerStats> layers;
  std::map<std::string, size_t> index; // origin -> position in `layers`
  for (const InstructionEvent &e : trace.instructions) {
    const std::string &name = p.instructions(int(e.instruction)).origin();
    auto [it, fresh] =
        index.try_emplace(name.empty() ? "(no origin)" : name, layers.size());
    if (fresh) {
      layers.push_back(LayerStats{});
      layers.back().origin = it->first;
      layers.back().firstIssue = e.issue;
    }
    LayerStats &l = layers[it->second];
    ++l.instructions;
    l.firstIssue = std::min(l.firstIssue, e.issue);
    l.lastDone = std::max(l.lastDone, e.done);
    l.busyCycles += e.busyEnd - e.issue;
    if (e.unit == isa::Unit::MXM)
      l.mxmBusyCycles += e.busyEnd - e.issue;
    l.macs += e.macs;
  }
  const double peak = double(isa::mxmPeakMacsPerCycle(prog.chip()));
  for (LayerStats &l : layers)
    l.mxmUtilisation = l.mxmBusyCycles == 0 || peak == 0
                           ? 0.0
                           : double(l.macs) / (peak * double(l.mxmBusyCycles));
  std::stable_sort(layers.begin(), layers.end(),
                   [](const LayerStats &a, const LayerStats &b) {
                     return a.firstIssue < b.firstIssue;
                   });
  return layers;
}

void lpx::sim::printLayerReport(const std::vector<LayerStats> &layers,
                                const SimResult &r,
                                const isa::VerifiedProgram &prog,
                                llvm::raw_ostream &os) {
  size_t width = 6;
  for (const LayerStats &l : layers)
    width = std::max(width, l.origin.size());
  os << llvm::formatv("per layer (MXM util = useful MACs / ({0} MACs per cycle "
                      "x the layer's MXM busy cycles)):\n",
                      isa::mxmPeakMacsPerCycle(prog.chip()));
  os << "  " << llvm::left_justify("origin", unsigned(width))
     << llvm::formatv(" {0,6} {1,10} {2,10} {3,10} {4,10} {5,14} {6,8}\n",
                      "instrs", "issue", "done", "busy", "mxm busy", "MACs",
                      "mxm util");
  for (const LayerStats &l : layers) {
    os << "  " << llvm::left_justify(l.origin, unsigned(width));
    os << llvm::formatv(" {0,6} {1,10} {2,10} {3,10} {4,10} {5,14} ",
                        l.instructions, l.firstIssue, l.lastDone, l.busyCycles,
                        l.mxmBusyCycles, l.macs);
    if (l.mxmBusyCycles == 0)
      os << llvm::formatv("{0,8}\n", "-");
    else
      os << llvm::formatv("{0,7:f1}%\n", 100.0 * l.mxmUtilisation);
  }
  os << llvm::formatv("  run: {0} useful MACs in {1} cycles on {2} node(s): "
                      "MXM utilisation {3:f1}%\n",
                      r.macs, r.totalCycles, prog.program().num_nodes(),
                      100.0 * r.mxmUtilisation);
}

llvm::json::Array lpx::sim::layerJson(const std::vector<LayerStats> &layers) {
  llvm::json::Array out;
  for (const LayerStats &l : layers)
    out.push_back(llvm::json::Object{
        {"origin", l.origin},
        {"instructions", l.instructions},
        {"first_issue", l.firstIssue},
        {"last_done", l.lastDone},
        {"busy_cycles", l.busyCycles},
        {"mxm_busy_cycles", l.mxmBusyCycles},
        {"macs", l.macs},
        {"mxm_utilisation", l.mxmUtilisation},
    });
  return out;
}
