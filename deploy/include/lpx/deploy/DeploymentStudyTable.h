//===- DeploymentStudyTable.h - A deployment study as CSV and chart -*- C++ -*-===//
//
// One row per point of `lpx decode --sweep`: the swept values, then what
// the point's plan gave (kStudyColumns). The `pareto` column marks the
// points no other point beats on both chips (fewer) and tokens/s per user
// (more); it is computed over every row written, so a merged study marks
// the same points as the whole one. Rows are rendered from their fields,
// so a part file's rows read back render byte for byte as written.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_DEPLOYMENTSTUDYTABLE_H
#define LPX_DEPLOY_DEPLOYMENTSTUDYTABLE_H

#include "lpx/deploy/DeploymentSweep.h"
#include "lpx/deploy/SweepReport.h"

namespace lpx::deploy {

/// The columns after the swept keys of `lpx decode --sweep`, in order.
inline constexpr const char *kStudyColumns[] = {
    "status",
    "chips",
    "tp",
    "pp",
    "ttft_us",
    "tpot_us",
    "tokens_per_s_per_user",
    "tokens_per_s",
    "tokens_per_s_per_chip",
    "sram_fullest_bytes",
    "ttft_latency_bound_us",
    "tpot_latency_bound_us",
    "physical_bound_us",
    "ttft_latency_efficiency",
    "tpot_latency_efficiency",
    "efficiency",
    "bottleneck",
    "pareto",
    "message"};

/// What a kind of study writes: its part files' kind, its columns after
/// the swept keys and which of them hold text, the column plotted unless
/// --metric says, and whether it marks a frontier.
struct StudyKind {
  const char *name;
  llvm::ArrayRef<const char *> columns, textColumns;
  const char *defaultMetric;
  bool pareto;
};
/// `lpx decode --sweep`'s.
const StudyKind &decodeStudyKind();
/// The kind a part file names; nullptr for none of the studies'.
const StudyKind *studyKindNamed(llvm::StringRef name);

/// The swept values a row of point `index` starts with.
std::vector<std::string> studyAxisValues(const Grid &grid, size_t index);

/// The run of points a study's shard deals at once: the points that share
/// all keys but the last (they reuse one chip search, DeploymentSweep.h),
/// unless there are fewer such runs than shards, then single points.
size_t studyShardRun(const Grid &grid, size_t shards);

/// Whether `column` is one of `kind`'s numeric columns (one it can plot).
bool isStudyMetric(const StudyKind &kind, llvm::StringRef column);

/// A swept key's heading: the key, or KEY_swept for a key that is also
/// one of `kind`'s columns (chips, tp, pp), so no name is there twice.
std::string studyKeyHeading(const StudyKind &kind, const std::string &key);

/// The header line (with its line break): the keys' headings, then the
/// columns.
std::string studyCsvHeader(const StudyKind &kind, const Grid &grid);

/// The fields of point `index`'s row (pareto left empty).
std::vector<std::string> studyRowFields(const Grid &grid, size_t index,
                                        const DeploymentPoint &point);

/// Marks `pareto` "frontier" in the ok rows that no other ok row beats
/// (fewer or as many chips and at least the tokens/s per user, one of
/// them strictly), and clears it elsewhere.
void markPareto(const Grid &grid, std::vector<std::vector<std::string>> &rows);

/// The rows of a part file read back as fields; an error for a row that
/// is not one of a study of `grid`.
llvm::Expected<std::vector<std::vector<std::string>>>
studyRowsFromCsv(const StudyKind &kind, const Grid &grid, llvm::StringRef rows);

/// The lines a decode study prints after its summary: how many chip
/// searches started from a neighbour's count, and the frontier's points.
std::string decodeStudyNotes(const Grid &grid,
                             const std::vector<std::vector<std::string>> &rows,
                             const std::vector<DeploymentPoint> &points);

/// The rows as CSV text.
std::string studyCsvRows(const std::vector<std::vector<std::string>> &rows);

/// Where a study's files go and what its chart and page say.
struct StudyFiles {
  std::string csv, plot, report; // plot and report optional
  std::string metric;            // the chart's column
  std::string title;             // "tpot_us of M on C"
  std::string baseLine;          // the options every point shares (the page)
};

/// Writes the header and the rows to `files.csv` and, when asked, the
/// chart of `metric` against the first varying key (one line per value of
/// the others) and the page (StudyReport.h); all are rendered before any
/// is written.
llvm::Error writeStudyFiles(const StudyKind &kind, const Grid &grid,
                            llvm::ArrayRef<size_t> points,
                            llvm::StringRef head,
                            const std::vector<std::vector<std::string>> &rows,
                            const StudyFiles &files);

} // namespace lpx::deploy

#endif
