//===- ServeCommand.cpp - lpx serve ---------------------------------------===//
//
// Checks the options, gets the deployment's service table (cached, else
// compiled and simulated: ServiceTableBuild.h), runs the workload on it and
// reports (ServeRun.h).
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "Progress.h"

#include "lpx/deploy/GpuServe.h"
#include "llvm/Support/raw_ostream.h"

using namespace lpx;
using namespace lpx::cli;
using namespace lpx::deploy;

int lpx::cli::runServe(const ServeArgs &a) {
  constexpr const char *kCmd = "serve";
  if (!a.sweeps.empty())
    return runServeStudy(a);
  if (!a.plot.empty() || !a.metric.empty() || !a.shard.empty())
    return reportError(kCmd, "--plot, --metric and --shard go with --sweep");
  DeploymentNumbers n;
  DecodeTarget t;
  ServeSetup setup;
  if (auto e = parseDeployment(a, n))
    return reportError(kCmd, std::move(e));
  if (auto e = loadTarget(a, n, t))
    return reportError(kCmd, std::move(e));
  if (auto e = parseServeSetup(a, setup))
    return reportError(kCmd, std::move(e));
  if (auto e = checkServeOutputs(a))
    return reportError(kCmd, std::move(e));
  if (auto e = checkCompareWords({a.compare, ""}, a.model))
    return reportError(kCmd, std::move(e));
  std::optional<StageProgress> bar;
  auto table = serveTable(t, unsigned(n.chips), n.context, setup, a.cacheDir,
                          compileProgress(bar, kCmd));
  bar.reset();
  if (!table)
    return reportError(kCmd, table.takeError());
  if (auto e = a.compare.empty()
                   ? serveAndReport(*table, setup, a.json, llvm::outs())
                   : serveWithComparison(*table, a, a.compare, n.context,
                                         setup, a.json, llvm::outs()))
    return reportError(kCmd, std::move(e));
  return kOk;
}
