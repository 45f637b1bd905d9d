//===- ProgramSensitivity.cpp - A compiled program over the assumptions ---===//
#include "lpx/deploy/ProgramSensitivity.h"
#include "lpx/deploy/DeployError.h"
#include "lpx/deploy/SensitivityReport.h"

#include "lpx/isa/AtomicFile.h"
#include "lpx/isa/ChipOverrides.h"
#include "lpx/sim/Simulator.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <chrono>
#include <thread>

using namespace lpx;
using namespace lpx::deploy;

/// The program simulated again on its chip with `settings` applied.
static PointResult
resimulate(const isa::VerifiedProgram &prog,
           llvm::ArrayRef<std::pair<std::string, std::string>> settings) {
  PointResult r;
  isa::ChipSpec chip = prog.chip();
  if (auto e = isa::applyOverrides(chip, settings)) {
    r.status = "invalid-chip";
    r.message = llvm::toString(std::move(e));
    return r;
  }
  auto again = isa::VerifiedProgram::verify(prog.program(), chip, prog.data());
  if (!again) {
    r.message = llvm::toString(again.takeError());
    return r;
  }
  auto sim = sim::simulate(*again, {});
  if (!sim) {
    r.status = "sim-error";
    r.message = llvm::toString(sim.takeError());
    return r;
  }
  return resultOf(*sim);
}

ProgramSensitivity
lpx::deploy::runProgramSensitivity(const isa::VerifiedProgram &prog,
                                   llvm::ArrayRef<isa::AssumptionRange> ranges,
                                   unsigned jobs) {
  ProgramSensitivity p;
  std::vector<isa::AssumptionRange> simulated;
  for (const isa::AssumptionRange &r : ranges)
    (compilerReadsKey(r.key) ? p.compiled : simulated).push_back(r);
  p.study = runSensitivityOf(
      prog.chip(), simulated, jobs,
      [&](llvm::ArrayRef<std::pair<std::string, std::string>> settings) {
        return resimulate(prog, settings);
      },
      nullptr);
  return p;
}

llvm::Error lpx::deploy::simulateSensitivity(const isa::VerifiedProgram &prog,
                                             llvm::StringRef file,
                                             const std::string &csv,
                                             const std::string &plot,
                                             const std::string &report,
                                             llvm::raw_ostream &os) {
  for (const std::string &path : {csv, plot, report})
    if (!path.empty())
      if (auto e = isa::checkOutputPath(path))
        return e;
  const std::string chip = prog.chip().name;
  auto assumptions = isa::loadChipAssumptions(chip);
  if (!assumptions)
    return error("the program's chip '" + chip + "' is not a preset, so its "
                 "ranges are not known: " +
                 llvm::toString(assumptions.takeError()));
  if (assumptions->ranges.empty())
    return error("chip '" + chip + "' states no assumption ranges");
  const auto start = std::chrono::steady_clock::now();
  const unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  ProgramSensitivity p =
      runProgramSensitivity(prog, assumptions->ranges, jobs);
  if (!p.study.base.timed())
    return error("the program on its own chip did not simulate: " +
                 p.study.base.message);
  const std::string name = llvm::sys::path::filename(file).str();
  const std::string title = "seconds of " + name + " on " + chip +
                            " over the assumptions it was not compiled for";
  SensitivityPage page;
  page.title = title;
  page.tornado = tornadoOf(p.study, title);
  page.csv = sensitivityCsv(p.study);
  std::string notVaried;
  for (const isa::AssumptionRange &r : p.compiled)
    notVaried += (notVaried.empty() ? "" : ", ") + r.key;
  page.question = "The program re-simulated with each assumption the "
                  "compiler does not read at the ends of its range. Not "
                  "varied (the compiler reads them; `lpx sweep MODEL.onnx "
                  "--sensitivity` compiles again): " + notVaried + ".";
  page.band = sensitivitySummary(p.study);
  if (auto e = writeSensitivityPage(page, csv, plot, report))
    return e;
  const double seconds = std::chrono::duration<double>(
                             std::chrono::steady_clock::now() - start)
                             .count();
  printSensitivity(p.study, name, chip, prog.program().num_nodes(), seconds,
                   jobs, os);
  os << writtenTo({csv, plot, report}) << "\n  not varied: "
     << p.compiled.size()
     << " assumption(s) the compiler reads (`lpx sweep MODEL.onnx "
        "--sensitivity` compiles again)\n";
  return llvm::Error::success();
}
