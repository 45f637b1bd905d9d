//===- FitReport.h - Why a model does not fit, as typed values --*- C++ -*-===//
//
// The partitioner's and the SRAM allocator's fit checks say what does not
// fit in a diagnostic (for people) and, when the caller asks, in a FitReport
// (for programs: the decode planner's next chip count, coverage's "more
// chips will help"). Plain C++, no MLIR types, so a driver or a deployment
// library can read it without the compiler's headers.
//
// The caller installs a report for one compile (ScopedFitReport, done by
// compileToProgram / compileToIR when given one); the check that fails fills
// it. The sink is per thread, as StageWork's is: `lpx sweep` compiles on
// several threads at once.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_TRANSFORMS_FITREPORT_H
#define LPX_TRANSFORMS_FITREPORT_H

#include <cstdint>
#include <string>

namespace lpx {

/// Bytes of SRAM by what they hold.
struct FitBytes {
  uint64_t weights = 0;     // constants
  uint64_t state = 0;       // resident state (a KV cache kept in SRAM)
  uint64_t activations = 0; // program inputs and outputs
  uint64_t temporaries = 0; // values computed and read within the program
  uint64_t total() const { return weights + state + activations + temporaries; }
};

/// Which check failed.
enum class FitFailure {
  None,
  /// Partition: the fullest chip's resident data (weights, state, inputs
  /// and outputs) passes its SRAM; `chipsNeeded` chips would hold them.
  ResidentData,
  /// Partition: as ResidentData, and no chip count up to the topology's
  /// maximum holds them (`chipsNeeded` is 0).
  NoChipCountHolds,
  /// SRAM allocation: a value finds no free range at its cycle of the
  /// schedule (resident data fitted; what is live at once does not).
  ScheduleOutOfSram,
};

struct FitReport {
  FitFailure failure = FitFailure::None;
  /// The diagnostic's text, as the compiler reported it.
  std::string message;
  std::string chip;           // the chip's name
  unsigned nodes = 0;         // chips compiled for
  uint64_t sramBytes = 0;     // per chip
  int64_t tp = 0, pp = 0;     // the mesh placed on; 0: the spread placement
  unsigned fullestChip = 0;   // the chip the bytes below are of
  /// On `fullestChip`. Partition checks count resident data (they keep
  /// part of each chip for temporaries): temporaries are only the results
  /// the spread placement counts as resident (computed from inputs and
  /// constants alone, so scheduled at cycle 0). The allocator counts what
  /// is live at the failing value's cycle, that value included.
  FitBytes fullest;
  /// Over all chips: resident data (partition), or the bytes live on
  /// `fullestChip` at that cycle (the allocator knows no other chip's).
  FitBytes all;
  /// A chip count that would hold the resident data; 0: none up to the
  /// topology's maximum, or not known (ScheduleOutOfSram).
  unsigned chipsNeeded = 0;
  /// With a mesh: the stages of `tp` chips that `chipsNeeded` is.
  int64_t ppNeeded = 0;

  bool fits() const { return failure == FitFailure::None; }
};

namespace detail {
inline thread_local FitReport *fitReportSink = nullptr;
} // namespace detail

/// The report of this thread's compile, if its caller asked for one.
inline FitReport *fitReportSink() { return detail::fitReportSink; }

/// Installs `report` (cleared) on this thread while in scope; none if null.
class ScopedFitReport {
public:
  explicit ScopedFitReport(FitReport *report) : saved(detail::fitReportSink) {
    if (report)
      *report = FitReport();
    detail::fitReportSink = report;
  }
  ~ScopedFitReport() { detail::fitReportSink = saved; }
  ScopedFitReport(const ScopedFitReport &) = delete;
  ScopedFitReport &operator=(const ScopedFitReport &) = delete;

private:
  FitReport *saved;
};

} // namespace lpx

#endif
