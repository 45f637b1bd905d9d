//===- StudyCommand.cpp - A study with a progress line --------------------===//
#include "Commands.h"
#include "Progress.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace lpx;
using namespace lpx::deploy;

int lpx::cli::runStudyCommand(const char *command, const StudySpec &spec,
                              const Grid &grid, StudyRows *written) {
  if (auto e = checkStudy(spec))
    return reportError(command, std::move(e));
  std::optional<Progress> progress;
  auto out = runStudy(
      spec, grid,
      [&](size_t points) {
        progress.emplace(std::string(command) + " --sweep", points);
      },
      [&](size_t done, size_t failed) { progress->update(done, failed); });
  progress->finish();
  if (!out)
    return reportError(command, out.takeError());
  llvm::outs() << out->summary(spec, grid.axes().size(),
                               progress->elapsedSeconds());
  if (written)
    *written = std::move(out->rows);
  return kOk;
}
