//===- StudyRun.h - A study from its options to its files -------*- C++ -*-===//
//
// What `lpx decode --sweep` and `lpx serve --sweep` share: the options
// checked before any work (the metric, a shard without a plot or a page,
// the output paths), the grid sharded, the points run, the frontier marked
// (a decode study), the CSV (with its part line when sharded), the chart
// and the page (StudyReport.h) written, and the summary line. The command line adds only the progress line.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_STUDYRUN_H
#define LPX_DEPLOY_STUDYRUN_H

#include "lpx/deploy/DeploymentStudyTable.h"
#include "lpx/deploy/SweepShard.h"

#include <functional>

namespace lpx::deploy {

/// The options of a study (`--sweep` of decode and serve).
struct StudyOptions {
  std::vector<std::string> sweeps; // key=v1,v2,...: the grid
  std::string metric;              // the plot's column; "": the study's
  std::string shard;               // "I/N": a part
  unsigned jobs = 0;               // points at once; 0: one per thread
};

using StudyRows = std::vector<std::vector<std::string>>;

struct StudySpec {
  const StudyKind *kind = nullptr;
  std::string model, chipName; // as the title and part line name them
  std::string baseLine;        // the options every point shares
  StudyOptions options;
  std::string output, plot, report;
  /// Runs the points on `jobs` threads and returns their rows;
  /// `progress` is told (done, failed).
  std::function<StudyRows(const std::vector<size_t> &points, unsigned jobs,
                          const std::function<void(size_t, size_t)> &progress)>
      run;
};

/// A study of `kind` of `model` (its file name is kept) on `chip`.
StudySpec makeStudySpec(const StudyKind &kind, llvm::StringRef model,
                        llvm::StringRef chip, const StudyOptions &options,
                        const std::string &output, const std::string &plot,
                        const std::string &report);

/// What the study ran and wrote.
struct StudyOutcome {
  StudyRows rows; // as written: the frontier marked
  size_t gridSize = 0;
  Shard shard;
  bool sharded = false;
  unsigned jobs = 1;
  /// "studied 16 deployment(s) of M on C: 16 planned in 12.3 s on 2
  /// thread(s) -> F.csv, F.svg"
  std::string summary(const StudySpec &spec, size_t axes,
                      double seconds) const;
};

/// The options checked before any work; the error names the option.
llvm::Error checkStudy(const StudySpec &spec);

/// Runs the study of `grid` (after checkStudy). `started` hears the
/// number of points before they run; `progress` hears (done, failed).
llvm::Expected<StudyOutcome>
runStudy(const StudySpec &spec, const Grid &grid,
         const std::function<void(size_t points)> &started,
         const std::function<void(size_t, size_t)> &progress);

} // namespace lpx::deploy

#endif
