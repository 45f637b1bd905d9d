//===- LoadSweep.h - The same workload at several loads ---------*- C++ -*-===//
//
// `--load-sweep 1,5,10,20,50`: the workload run at each load (users for a
// closed loop, the rate for poisson and agent workloads), each run from the
// same seed, and the curve of P50/P99 TTFT, TPOT and tokens/s against load,
// with the highest load at which the SLO holds.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_SERVE_LOADSWEEP_H
#define LPX_SERVE_LOADSWEEP_H

#include "lpx/serve/Engine.h"
#include "lpx/serve/Metrics.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <vector>

namespace lpx::serve {

struct SweepPoint {
  double load = 0;
  Results results;
};

struct SweepCurve {
  std::vector<SweepPoint> points;
  /// The highest load whose run met the SLO (none without an SLO or if no
  /// load met it).
  std::optional<double> highestHolding;
};

/// `1,5,10`: positive numbers; whole numbers for a closed loop's users.
llvm::Expected<std::vector<double>> parseLoads(llvm::StringRef text,
                                               WorkloadKind kind);

/// Errors: a trace workload (its load is the trace's), a run's error.
llvm::Expected<SweepCurve> sweepLoad(const ServiceModel &model,
                                     const WorkloadSpec &spec,
                                     const std::vector<double> &loads,
                                     const EngineConfig &config,
                                     const std::optional<Slo> &slo);

/// load,ttft_p50_us,ttft_p99_us,tpot_p50_us,tpot_p99_us,tokens_per_second,
/// completed,rejected,slo_holds,goodput (the last two empty without an SLO)
void writeSweepCsv(const SweepCurve &curve, llvm::raw_ostream &os);

/// {"loads": [{"load", "ttft_us", "tpot_us" (p50, p99), "tokens_per_second",
/// "completed", "rejected", "slo_holds", "goodput"}, ...],
/// "highest_load_within_slo": the load or null, "load_of": "users"|"rate"}
llvm::json::Value sweepJson(const SweepCurve &curve, WorkloadKind kind);

} // namespace lpx::serve

#endif // LPX_SERVE_LOADSWEEP_H
