//===- LayerReport.h - Where the cycles and MACs of a run went --*- C++ -*-===//
//
// `lpx simulate --per-layer`: the instructions of a simulated program grouped
// by their origin (the ONNX node they were lowered from), with the cycles the
// simulator spent on them and the matrix unit's utilisation. Built from the
// ExecutionTrace the simulator filled, never from the cost model again.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_SIM_LAYERREPORT_H
#define LPX_SIM_LAYERREPORT_H

#include "lpx/isa/Program.h"
#include "lpx/sim/ExecutionTrace.h"
#include "lpx/sim/Simulator.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <string>
#include <vector>

namespace lpx::sim {

struct LayerStats {
  std::string origin;     // the ONNX node; "(no origin)" when unnamed
  uint64_t instructions = 0;
  uint64_t firstIssue = 0;
  uint64_t lastDone = 0;  // its last result complete (send: arrived)
  uint64_t busyCycles = 0; // summed over its instructions, every unit
  uint64_t mxmBusyCycles = 0;
  uint64_t macs = 0;      // useful multiply-accumulates
  /// macs / (MXM peak x mxmBusyCycles): how well the layer fills the array
  /// while it holds it; 0 without MXM work.
  double mxmUtilisation = 0;
};

/// One entry per origin, in the order of their first issue (ties: program
/// order).
std::vector<LayerStats> layerStats(const lpx::isa::VerifiedProgram &prog,
                                   const ExecutionTrace &trace);

/// A table, one line per origin, and the run's MXM utilisation.
void printLayerReport(const std::vector<LayerStats> &layers,
                      const SimResult &result,
                      const lpx::isa::VerifiedProgram &prog,
                      llvm::raw_ostream &os);

/// The same, for the JSON report's "layers" key.
llvm::json::Array layerJson(const std::vector<LayerStats> &layers);

} // namespace lpx::sim

#endif
