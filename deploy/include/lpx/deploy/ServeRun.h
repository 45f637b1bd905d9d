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
#include "lpx/serve/Metrics.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace lpx::deploy {

struct ServeSetup {
  serve::WorkloadSpec workload;
  serve::EngineConfig engine;
  std::optional<serve::Slo> slo;
  std::string csvPath; // empty: no per-request CSV
};

/// The serving options as the command line gives them (docs/serving.md).
struct ServeWords {
  std::string workload, maxBatch = "8", policy = "chunked", queue, retry,
      network = "0", duration, requests, seed = "1", slo, output, cacheDir;
  bool json = false, keepSessionCache = false;
};
/// Parsed and checked: one error naming the option. Without --duration or
/// --requests a generated workload runs for 10 s of simulated time.
llvm::Error parseServeSetup(const ServeWords &words, ServeSetup &setup);

struct ServeOutcome {
  serve::Results results;
  serve::RunStats stats;
};

/// Runs the workload; the CSV (if asked) appears only if the run succeeds.
llvm::Expected<ServeOutcome> runServe(const serve::ServiceModel &model,
                                      const ServeSetup &setup);

/// Latencies (mean/p50/p90/p95/p99/max), counts, tokens/s, the SLO and the
/// deployment with its table (where it came from, the interpolation).
void printServeText(const ServeOutcome &out, const ServeSetup &setup,
                    const CachedTable &table, llvm::raw_ostream &os);

} // namespace lpx::deploy

#endif
