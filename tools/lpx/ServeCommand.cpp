//===- ServeCommand.cpp - lpx serve ---------------------------------------===//
//
// Checks the options, gets the deployment's service table (cached, else
// compiled and simulated: ServiceTableBuild.h), runs the workload on it
// (ServeRun.h) and prints.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "Progress.h"

#include "lpx/deploy/DeploymentTarget.h"
#include "lpx/deploy/ServeRun.h"
#include "lpx/serve/Report.h"
#include "llvm/Support/raw_ostream.h"

using namespace lpx;
using namespace lpx::cli;
using namespace lpx::deploy;

namespace {

constexpr const char *kCmd = "serve";

} // namespace

int lpx::cli::runServe(const ServeArgs &a) {
  DeploymentNumbers n;
  DecodeTarget t;
  ServeSetup setup;
  if (auto e = parseDeployment(a, n))
    return reportError(kCmd, std::move(e));
  if (auto e = loadTarget(a, n, t))
    return reportError(kCmd, std::move(e));
  if (auto e = parseServeSetup(a, setup))
    return reportError(kCmd, std::move(e));
  if (!a.output.empty())
    if (auto e = checkOutputPath(a.output))
      return reportError(kCmd, std::move(e));
  if (!t.preset)
    return reportError(kCmd, "--model must be a preset: the table exports "
                             "its steps at several shapes");
  int64_t prompt = 0; // the prefill of a whole context must compile too
  decodeDefaults(t, n.context, prompt, false);
  if (auto e = checkDecodeShapes(t, n.context, n.context,
                                 setup.engine.maxBatch, {}))
    return reportError(kCmd, std::move(e));

  ScratchDir scratch;
  if (auto e = scratch.create("lpx-serve"))
    return reportError(kCmd, std::move(e));
  t.scratchDir = scratch.path.str().str();
  std::optional<StageProgress> bar;
  auto cached = cachedServiceTable(
      t, unsigned(n.chips), n.context,
      serveGrid(setup.engine.maxBatch, n.context),
      a.cacheDir.empty() ? defaultCacheDir() : a.cacheDir,
      compileProgress(bar, kCmd));
  bar.reset();
  if (!cached)
    return reportError(kCmd, cached.takeError());
  auto model = serve::ServiceModel::create(cached->table);
  if (!model)
    return reportError(kCmd, model.takeError());
  auto out = deploy::runServe(*model, setup);
  if (!out)
    return reportError(kCmd, out.takeError());
  if (a.json)
    llvm::outs() << serve::reportJsonText(out->results, out->stats,
                                          setup.engine, cached->table);
  else
    printServeText(*out, setup, *cached, llvm::outs());
  if (!a.json && !a.output.empty())
    llvm::outs() << "wrote " << a.output << "\n";
  return kOk;
}
