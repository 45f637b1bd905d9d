//===- EndpointCommand.cpp - lpx endpoint ---------------------------------===//
//
// Checks the options, gets the deployment's service table as `lpx serve`
// does (cached, else compiled and simulated) and serves it over HTTP until
// SIGTERM or SIGINT (endpoint/, docs/endpoint.md).
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "Progress.h"

#include "lpx/endpoint/EndpointSetup.h"
#include "llvm/Support/raw_ostream.h"

using namespace lpx;
using namespace lpx::cli;

int lpx::cli::runEndpoint(const EndpointArgs &a) {
  constexpr const char *kCmd = "endpoint";
  DeploymentNumbers n;
  deploy::DecodeTarget t;
  endpoint::EndpointSetup setup;
  if (auto e = parseDeployment(a, n))
    return reportError(kCmd, std::move(e));
  if (auto e = endpoint::parseEndpointWords(a, setup))
    return reportError(kCmd, std::move(e));
  if (auto e = loadTarget(a, n, t))
    return reportError(kCmd, std::move(e));
  std::optional<StageProgress> bar;
  auto table = deploy::serveTable(t, unsigned(n.chips), n.context, setup.serve,
                                  a.cacheDir, compileProgress(bar, kCmd));
  bar.reset();
  if (!table)
    return reportError(kCmd, table.takeError());
  deploy::DecodeRunOptions run;
  run.model = a.model;
  run.chip = a.chip;
  run.sets = a.sets;
  run.chips = n.chips ? unsigned(n.chips) : 1;
  run.tp = unsigned(n.tp);
  run.pp = unsigned(n.pp);
  if (auto e = endpoint::serveDeployment(table->table, setup, run, llvm::outs()))
    return reportError(kCmd, std::move(e));
  return kOk;
}
