//===- DecodeSensitivity.h - A deployment's figures over the assumptions -*- C++ -*-===//
//
// `lpx decode --sensitivity` (docs/sweeps.md, "Sensitivity of a
// deployment"): the deployment planned on the chip as described (the
// base), then with each assumption that states a range
// (isa/AssumptionRanges.h) at its low and at its high end, one key at a
// time, each end planned as `lpx decode` plans a deployment (chips found,
// placement chosen, prefill and step compiled and simulated; its chip
// search starts from the base's count). An end at the base's own value is
// the base; an end of a key the compiler does not read (the clock, the
// host path) is the base's programs simulated again on that chip. Rows
// are sorted by how far they move TPOT, widest first.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_DECODESENSITIVITY_H
#define LPX_DEPLOY_DECODESENSITIVITY_H

#include "lpx/deploy/DeploymentSweep.h"
#include "lpx/deploy/SensitivityReport.h"
#include "lpx/isa/AssumptionRanges.h"
#include "lpx/report/SvgTornado.h"
#include "llvm/Support/raw_ostream.h"

namespace lpx::deploy {

/// A figure of a planned deployment a sensitivity reports.
struct DecodeFigure {
  const char *name; // "tpot_us"
  const char *label; // "TPOT"
  const char *unit;  // "us"
  int digits;        // after the point, as reports print it
  double (*of)(const DecodeMetrics &);
};
/// TPOT, TTFT, tokens/s per user and in aggregate, chips: in that order.
llvm::ArrayRef<DecodeFigure> decodeFigures();
/// The figure called `name`; nullptr for none.
const DecodeFigure *decodeFigureNamed(llvm::StringRef name);

struct DecodeSensitivityRow {
  isa::AssumptionRange range;
  DeploymentPoint low, high; // the key at range.low and at range.high
  /// |high - low| of `f`, when both ends were planned.
  std::optional<double> swing(const DecodeFigure &f) const;
};

struct DecodeSensitivity {
  DeploymentPoint base;
  std::vector<DecodeSensitivityRow> rows; // widest TPOT swing first
  size_t ran = 0;    // deployments planned (the base included)
  size_t reused = 0; // ends at the base's value
  /// Ends of a key the compiler does not read (compilerReadsKey): the
  /// base's programs simulated again on that chip, not compiled.
  size_t resimulated = 0;
};

/// Plans the base, then every end on `jobs` threads (sensitivityPoints of
/// Sensitivity.h counts them), each exporting under
/// its own folder of `scratchDir`; `progress` hears (done, failed).
DecodeSensitivity runDecodeSensitivity(
    const DecodeWords &words, const isa::ChipSpec &base,
    llvm::ArrayRef<isa::AssumptionRange> ranges, unsigned jobs,
    llvm::StringRef scratchDir,
    const std::function<void(size_t, size_t)> &progress);

/// "TPOT 231.000 us (band 205.000-262.000 us over 37 assumptions)", one
/// clause per figure of decodeFigures, "; "-separated.
std::string decodeSensitivitySummary(const DecodeSensitivity &s);

/// One row per assumption: key, low, high, then per end its status and
/// each figure, the TPOT swing, the message of a failed end, the reason.
std::string decodeSensitivityCsv(const DecodeSensitivity &s);

/// The study as `lpx decode --sensitivity` prints it: what ran, the base,
/// one line per assumption with `f` at both ends (and its swing), then the
/// summary (without its line break).
void printDecodeSensitivity(const DecodeSensitivity &s, const DecodeFigure &f,
                            llvm::StringRef model, llvm::StringRef chip,
                            double seconds, unsigned jobs,
                            llvm::raw_ostream &os);

/// The tornado of figure `f`, one bar per row in the study's order.
report::TornadoSpec decodeTornado(const DecodeSensitivity &s,
                                  const DecodeFigure &f, llvm::StringRef title);

/// What `-o`, `--plot` and `--report` write of the study of `model` (its
/// file name) on `chip`: the CSV, the tornado of `f` and the page.
SensitivityPage decodeSensitivityPage(const DecodeSensitivity &s,
                                      const DecodeFigure &f,
                                      llvm::StringRef model,
                                      llvm::StringRef chip);

} // namespace lpx::deploy

#endif
