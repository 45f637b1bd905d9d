//===- DecodeStudyCommand.cpp - lpx decode --sweep ------------------------===//
//
// A study of whole deployments (DeploymentSweep.h): the grid built from
// the --sweep axes and checked against the chip, sharded, every point
// planned on a pool of threads with a progress line, the CSV and chart
// and page written (DeploymentStudyTable.h) and the frontier printed.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "lpx/deploy/DeploymentStudyTable.h"

#include "lpx/isa/ChipOverrides.h"
#include "llvm/Support/raw_ostream.h"

using namespace lpx;
using namespace lpx::cli;
using namespace lpx::deploy;

static constexpr const char *kCmd = "decode";

int lpx::cli::runDecodeStudy(const DecodeArgs &a) {
  auto chip = isa::loadChipWithOverrides(
      a.chip.empty() ? isa::presetNames().front() : a.chip, a.sets);
  if (!chip)
    return reportError(kCmd, chip.takeError());
  auto grid = buildDeploymentGrid(a.sweeps, *chip);
  if (!grid)
    return reportError(kCmd, grid.takeError());
  if (auto twice = sweptTwice(a, *grid))
    return reportError(kCmd, *twice);
  ScratchDir scratch;
  if (auto e = scratch.create("lpx-study"))
    return reportError(kCmd, std::move(e));

  StudySpec spec = makeStudySpec(decodeStudyKind(), a.model, chip->name,
                                 a, a.output, a.plot, a.report);
  spec.baseLine = decodeWordsLine(a);
  std::vector<DeploymentPoint> results;
  spec.run = [&](const std::vector<size_t> &points, unsigned jobs,
                 const std::function<void(size_t, size_t)> &progress) {
    results = runDeploymentPoints(a, *grid, points, jobs, scratch.path,
                                  progress);
    StudyRows rows;
    for (size_t k = 0; k < points.size(); ++k)
      rows.push_back(studyRowFields(*grid, points[k], results[k]));
    return rows;
  };
  StudyRows rows;
  if (int rc = runStudyCommand(kCmd, spec, *grid, &rows); rc != kOk)
    return rc;

  llvm::outs() << decodeStudyNotes(*grid, rows, results);
  return kOk;
}
