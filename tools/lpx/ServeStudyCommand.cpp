//===- ServeStudyCommand.cpp - lpx serve --sweep --------------------------===//
//
// A study of deployments under load (ServeStudy.h): the grid checked
// against the chip, then the study driver (StudyDriver.h) serves every
// point and writes the CSV and chart. The per-request CSV, the curve's
// files, the report and the trace belong to one run and go without it.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "lpx/deploy/ServeStudy.h"

#include "lpx/isa/ChipOverrides.h"
#include "llvm/Support/Path.h"

using namespace lpx;
using namespace lpx::cli;
using namespace lpx::deploy;

int lpx::cli::runServeStudy(const ServeArgs &a) {
  constexpr const char *kCmd = "serve";
  if (auto e = checkStudyOutputs(a))
    return reportError(kCmd, std::move(e));
  auto chip = isa::loadChipWithOverrides(
      a.chip.empty() ? isa::presetNames().front() : a.chip, a.sets);
  if (!chip)
    return reportError(kCmd, chip.takeError());
  auto grid = buildStudyGrid(a.sweeps, *chip, kServeStudyKeys);
  if (!grid)
    return reportError(kCmd, grid.takeError());
  if (auto twice = servedTwice(a, a, *grid))
    return reportError(kCmd, *twice);
  auto serving = studyServeWords(a);
  if (!serving)
    return reportError(kCmd, serving.takeError());
  StudySpec spec = makeStudySpec(serveStudyKind(), a.model, chip->name,
                                 a, a.output, a.plot, a.report);
  spec.baseLine = serveStudyBaseLine(a, a, chip->name);
  const DeploymentArgs &deployment = a;
  spec.run = [&](const std::vector<size_t> &points, unsigned jobs,
                 const std::function<void(size_t, size_t)> &progress) {
    return serveStudyRows(deployment, *serving, *grid, points, jobs, progress);
  };
  return runStudyCommand(kCmd, spec, *grid);
}
