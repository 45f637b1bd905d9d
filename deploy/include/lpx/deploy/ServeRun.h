//===- ServeRun.h - One `lpx serve` run on a service table ------*- C++ -*-===//
//
// The serving simulation (lpx_serve's engine) on a table of simulated
// times, its per-request CSV written whole, and the text summary.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_SERVERUN_H
#define LPX_DEPLOY_SERVERUN_H

#include "lpx/deploy/ServiceTableBuild.h"
#include "lpx/serve/Engine.h"
#include "lpx/serve/LoadSweep.h"
#include "lpx/serve/Metrics.h"
#include "lpx/serve/Timeline.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace lpx::deploy {

struct ServeSetup {
  serve::WorkloadSpec workload;
  std::string workloadText; // as given
  serve::EngineConfig engine;
  std::optional<serve::Slo> slo;
  std::string csvPath; // empty: no per-request CSV
  std::vector<double> loads; // --load-sweep; empty: none
  std::string curveCsv, curveSvg, reportPath, tracePath; // empty: none
  int64_t prefillChunk = 0; // --prefill-chunk; 0: chosen (serveGrid)
};

/// The serving options as the command line gives them (docs/serving.md).
struct ServeWords {
  std::string workload, maxBatch = "8", policy = "chunked", queue, retry,
      network = "0", duration, requests, seed = "1", slo, output, cacheDir,
      loadSweep, curveCsv, curveSvg, report, trace, prefillChunk;
  bool json = false, keepSessionCache = false;
};
/// Parsed and checked: one error naming the option. Without --duration or
/// --requests a generated workload runs for 10 s of simulated time. The
/// curve's files need --load-sweep.
llvm::Error parseServeSetup(const ServeWords &words, ServeSetup &setup);
/// Each file a run writes (-o, the curve's CSV and SVG, --report,
/// --trace) checked as an output path before any work.
llvm::Error checkServeOutputs(const ServeWords &words);

/// The table `lpx serve` runs on: the deployment's defaults (a preset's
/// context up to 4,096), its shapes checked, then cachedServiceTable in
/// `cacheDir` (empty: defaultCacheDir()) with exports in a scratch folder.
/// An ONNX file is refused in one line naming what it lacks.
llvm::Expected<CachedTable> serveTable(DecodeTarget target, unsigned chips,
                                       int64_t context, const ServeSetup &setup,
                                       llvm::StringRef cacheDir,
                                       const PlanProgress &progress);

struct ServeOutcome {
  serve::Results results;
  serve::RunStats stats;
  serve::TimelineSink timeline;        // batch size and queue over time
  std::optional<serve::SweepCurve> curve; // with --load-sweep
};

/// Runs the workload (and the sweep). The CSV and trace (if asked) appear
/// only if the run succeeds.
llvm::Expected<ServeOutcome> runServe(const serve::ServiceModel &model,
                                      const ServeSetup &setup);

/// Runs, writes the files asked for (each whole, none if a run fails) and
/// prints the summary (text, or JSON with `load_sweep` when swept) to `os`.
llvm::Error serveAndReport(const CachedTable &table, const ServeSetup &setup,
                           bool json, llvm::raw_ostream &os);

/// The latencies a summary lists, named: TTFT, TPOT, E2E, queue wait and,
/// with sessions, session E2E.
std::vector<std::pair<const char *, const serve::Summary *>>
namedLatencies(const serve::Results &r);
/// The mean latencies a summary splits, named: TTFT, TPOT and E2E.
std::vector<std::pair<const char *, const serve::Results::Split *>>
namedSplits(const serve::Results &r);

/// Latencies (mean/p50/p90/p95/p99/max), counts, tokens/s, the SLO and the
/// deployment with its table (where it came from, the interpolation).
void printServeText(const ServeOutcome &out, const ServeSetup &setup,
                    const CachedTable &table, llvm::raw_ostream &os);
/// The curve: one row per load, then the highest load within the SLO.
void printSweepText(const serve::SweepCurve &curve, const ServeSetup &setup,
                    llvm::raw_ostream &os);

} // namespace lpx::deploy

#endif
