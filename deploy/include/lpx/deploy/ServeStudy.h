//===- ServeStudy.h - A study of deployments under load ---------*- C++ -*-===//
//
// `lpx serve --sweep key=v1,v2,...` (docs/serving.md): every point of the
// grid is a deployment (a chip key of `--set`, or chips, tp, pp, context,
// weights, activations, max_batch) served the workload `lpx serve` would
// serve it: its service table (cached, else compiled and simulated) and
// the serving simulation on it, with --load-sweep the highest load within
// the SLO. One row per point (kServeStudyColumns), written, sharded and
// merged as a decode study's (DeploymentStudyTable.h).
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_SERVESTUDY_H
#define LPX_DEPLOY_SERVESTUDY_H

#include "lpx/deploy/DeploymentStudyTable.h"
#include "lpx/deploy/ServeRun.h"

namespace lpx::deploy {

/// The keys of a serving study that are not the chip's.
inline constexpr const char *kServeStudyKeys[] = {
    "chips", "tp", "pp", "context", "weights", "activations", "max_batch"};

/// The columns after the swept keys, in order.
inline constexpr const char *kServeStudyColumns[] = {
    "status",
    "deployment",
    "stages",
    "max_sequences",
    "ttft_p50_us",
    "ttft_p99_us",
    "tpot_p50_us",
    "tpot_p99_us",
    "e2e_p99_us",
    "tokens_per_s",
    "completed",
    "rejected",
    "slo_holds",
    "goodput",
    "highest_load_within_slo",
    "message"};

/// `lpx serve --sweep`'s.
const StudyKind &serveStudyKind();

/// What serving one point gave.
struct ServePoint {
  std::string status = "error"; // ok | does-not-fit | error
  std::string message;
  std::string deployment; // the table's: model, chip, placement, formats
  int64_t stages = 0, maxSequences = 0;
  ServeOutcome outcome; // with status ok
  bool ok() const { return status == "ok"; }
};

/// Serves `points` of the grid on `jobs` threads: each point's words are
/// `deployment` and `serving` with its values, its table from `cacheDir`
/// (empty: the default cache).
std::vector<ServePoint>
runServePoints(const DeploymentArgs &deployment, const ServeWords &serving,
               const Grid &grid, const std::vector<size_t> &points,
               unsigned jobs, const std::function<void(size_t, size_t)> &progress);

/// The fields of point `index`'s row.
std::vector<std::string> serveRowFields(const Grid &grid, size_t index,
                                        const ServePoint &point);

/// An error naming an output of one run (--curve-csv, --curve-svg,
/// --trace) among `words`: a study goes without them (its --report is the
/// study's page).
llvm::Error checkStudyOutputs(const ServeWords &words);

/// The serving words each point of a study runs with: -o (the study's
/// CSV) left out, the workload checked once, before any table is built.
llvm::Expected<ServeWords> studyServeWords(const ServeWords &words);

/// The options every point shares, as the part line records them:
/// "--model M --chip C --workload W --max-batch B --slo S --load-sweep L
/// --seed N[ --prefill-chunk P][ --set K=V...]".
std::string serveStudyBaseLine(const DeploymentArgs &deployment,
                               const ServeWords &serving,
                               llvm::StringRef chipName);

/// runServePoints' points as the study's rows.
std::vector<std::vector<std::string>>
serveStudyRows(const DeploymentArgs &deployment, const ServeWords &serving,
               const Grid &grid, const std::vector<size_t> &points,
               unsigned jobs,
               const std::function<void(size_t, size_t)> &progress);

/// Why a swept key clashes with the words, so one would be ignored: a
/// deployment option or a --set of it (sweptTwice), or --max-batch beside
/// --sweep max_batch; nullopt when none does.
std::optional<std::string> servedTwice(const DeploymentArgs &deployment,
                                       const ServeWords &serving,
                                       const Grid &grid);

} // namespace lpx::deploy

#endif
