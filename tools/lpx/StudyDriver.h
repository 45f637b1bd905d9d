//===- StudyDriver.h - The command line of a study --------------*- C++ -*-===//
//
// What `lpx decode --sweep` and `lpx serve --sweep` share: the output
// options checked, the grid sharded, the points run with a progress line,
// the frontier marked (a decode study), the CSV (with its part line when
// sharded) and the chart written, and the summary line printed.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_TOOLS_LPX_STUDYDRIVER_H
#define LPX_TOOLS_LPX_STUDYDRIVER_H

#include "Commands.h"
#include "lpx/deploy/DeploymentStudyTable.h"

#include <functional>
#include <string>
#include <vector>

namespace lpx::cli {

struct StudySpec {
  const deploy::StudyKind *kind = nullptr;
  const char *command = "";    // for messages: "decode"
  std::string model, chipName; // as the title and part line name them
  std::string baseLine;        // the options every point shares
  StudyOptions options;
  std::string output, plot;
  /// Runs the points on `jobs` threads and returns their rows;
  /// `progress` is told (done, failed).
  std::function<std::vector<std::vector<std::string>>(
      const std::vector<size_t> &points, unsigned jobs,
      const std::function<void(size_t, size_t)> &progress)>
      run;
};

/// A study of `kind` by `command` of `model` on `chip`, with the options
/// and files given (its baseLine and run still to fill in).
StudySpec makeStudySpec(const deploy::StudyKind &kind, const char *command,
                        llvm::StringRef model, llvm::StringRef chip,
                        const StudyOptions &options, const std::string &output,
                        const std::string &plot);

/// Runs the study of `grid`; an exit code. `written` receives the rows as
/// written (the frontier marked).
int runStudy(const StudySpec &spec, const deploy::Grid &grid,
             std::vector<std::vector<std::string>> *written = nullptr);

/// The text after "studied N deployment(s) ...: ": counts by status.
std::string statusCounts(const std::vector<std::vector<std::string>> &rows,
                         size_t axes);

} // namespace lpx::cli

#endif
