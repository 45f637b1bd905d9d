//===- Sensitivity.h - How far the assumptions move a figure -*- C++ -*-===//
//
// `lpx sweep --sensitivity` (docs/sweeps.md, "Sensitivity"): the model
// compiled and simulated on the chip as described (the base), then with each
// assumption that states a range (isa/AssumptionRanges.h) at the low and at
// the high end of it, one key at a time and the rest at their base values.
// Every figure is a compile and a simulation (runChipPoint); a point whose
// value is the base's own is the base point, not run again. Rows are sorted
// by how far they move the time, widest first, so the table and the tornado
// chart read top down as "what this prediction depends on most".
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_SENSITIVITY_H
#define LPX_DEPLOY_SENSITIVITY_H

#include "lpx/deploy/SensitivityReport.h"
#include "lpx/deploy/SweepRun.h"
#include "lpx/isa/AssumptionRanges.h"
#include "lpx/report/SvgTornado.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace lpx::deploy {

/// One assumption and the figures at the two ends of its range.
struct SensitivityRow {
  isa::AssumptionRange range;
  PointResult low;  // the key at range.low
  PointResult high; // the key at range.high
  /// |high - low| in seconds, when both ends were timed.
  std::optional<double> swingSeconds() const;
};

struct Sensitivity {
  PointResult base;
  std::vector<SensitivityRow> rows; // widest swing first; failed ends last
  size_t ran = 0;    // points compiled and simulated (the base included)
  size_t reused = 0; // ends at the base's value: the base point's result
};

/// The lowest and highest figure over the base and every timed end.
struct SensitivityBand {
  double lowSeconds = 0, highSeconds = 0;
  uint64_t lowCycles = 0, highCycles = 0;
  size_t assumptions = 0; // rows
  size_t failed = 0;      // ends without a figure
};

/// Runs the study on `jobs` threads (runPoints); `progress` hears
/// (done, failed) of the points actually run.
Sensitivity
runSensitivity(const Sweep &sweep, unsigned nodes,
               llvm::ArrayRef<isa::AssumptionRange> ranges, unsigned jobs,
               const std::function<void(size_t done, size_t failed)> &progress);

/// One end of a ranged key that a study runs: row `row`'s low or high end.
struct RangeEnd {
  size_t row;
  bool high;
  std::string key, value;
};
/// The ends of `ranges` whose value differs from `base`'s, row by row, the
/// low end first; every other end is the base point itself.
std::vector<RangeEnd> rangeEnds(const isa::ChipSpec &base,
                                llvm::ArrayRef<isa::AssumptionRange> ranges);

/// A point of a study: its figures with `settings` applied to the base chip
/// (none: the base).
using SensitivityPointFn = std::function<PointResult(
    llvm::ArrayRef<std::pair<std::string, std::string>> settings)>;

/// runSensitivity with any point: the base and every rangeEnds end on
/// `jobs` threads (an exception thrown by `point` is that point's message).
Sensitivity
runSensitivityOf(const isa::ChipSpec &base,
                 llvm::ArrayRef<isa::AssumptionRange> ranges, unsigned jobs,
                 const SensitivityPointFn &point,
                 const std::function<void(size_t done, size_t failed)> &progress);

/// The points runSensitivity runs: the base and every end whose value
/// differs from the base's.
size_t sensitivityPoints(const isa::ChipSpec &base,
                         llvm::ArrayRef<isa::AssumptionRange> ranges);

SensitivityBand bandOf(const Sensitivity &s);

/// "seconds 3.890 us (band 3.612-4.517 us over 28 assumptions)"
std::string sensitivitySummary(const Sensitivity &s);

/// One row per assumption in the study's order: key, low, high, the base's
/// and each end's status, cycles and seconds, the swing, message, reason.
std::string sensitivityCsv(const Sensitivity &s);

/// The tornado of seconds, one bar per row in the study's order.
report::TornadoSpec tornadoOf(const Sensitivity &s, llvm::StringRef title);

/// The study as `lpx sweep --sensitivity` prints it: what ran, the base,
/// one line per assumption with both ends' figures and the swing, then the
/// summary (without its line break).
void printSensitivity(const Sensitivity &s, llvm::StringRef model,
                      llvm::StringRef chip, unsigned nodes, double seconds,
                      unsigned jobs, llvm::raw_ostream &os);

/// Writes the CSV, the tornado SVG and the page (SensitivityReport.h) to
/// those of the paths that are not empty; all are rendered first, then
/// written atomically.
llvm::Error writeSensitivityFiles(const Sensitivity &s, llvm::StringRef csvPath,
                                  llvm::StringRef plotPath,
                                  llvm::StringRef reportPath,
                                  llvm::StringRef title);

} // namespace lpx::deploy

#endif
