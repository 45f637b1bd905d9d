//===- CoverageCommand.cpp - lpx coverage ---------------------------------===//
#include "Commands.h"
#include "lpx/deploy/Coverage.h"
#include "lpx/deploy/CoverageFormat.h"
#include "lpx/Import/ImportArgs.h"
#include "lpx/deploy/OpTable.h"

#include "lpx/isa/ChipSpec.h"
#include "llvm/Support/raw_ostream.h"

using namespace lpx;
using namespace lpx::cli;
using namespace lpx::deploy;

int lpx::cli::runCoverage(const CoverageArgs &args) {
  const char *cmd = "coverage";
  auto format = reportFormatNamed(args.format);
  if (!format)
    return reportError(cmd, format.takeError());
  if (args.ops) {
    if (auto e = writeOpTable(*format, args.expectations, llvm::outs()))
      return reportError(cmd, std::move(e));
    return kOk;
  }
  if (args.models.empty())
    return reportError(cmd, "name at least one model, or --ops");
  auto import = parseImportArgs(args.inputShapes, args.constInputs);
  if (!import)
    return reportError(cmd, import.takeError());
  std::string chip = args.chip.empty() ? isa::presetNames().front() : args.chip;
  auto reports = analyzeModels(args.models, *import, chip);
  if (!reports)
    return reportError(cmd, reports.takeError());
  writeCoverage(*reports, *format, llvm::outs());
  for (const ModelCoverage &m : *reports)
    if (!m.portable())
      return kCheckFailed;
  return kOk;
}
