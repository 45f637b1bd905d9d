//===- DeploymentSweep.h - A study of whole deployments ---------*- C++ -*-===//
//
// `lpx decode --sweep key=v1,v2,...` (docs/sweeps.md): every point of the
// grid is a whole deployment, planned as `lpx decode` plans one
// (DecodeWords.h): its own chips found, its placement chosen, its prefill
// and decode step compiled and simulated. A key is a chip key of `--set`
// or one of the deployment's own (kDeploymentKeys). Points share nothing
// but the base words, so they run on a pool of threads, each exporting
// into its own scratch folder; results land in a slot per point.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_DEPLOYMENTSWEEP_H
#define LPX_DEPLOY_DEPLOYMENTSWEEP_H

#include "lpx/deploy/DecodeWords.h"
#include "lpx/deploy/SweepGrid.h"

namespace lpx::deploy {

/// The keys that are the deployment's rather than the chip's.
inline constexpr const char *kDeploymentKeys[] = {
    "chips", "tp",     "pp",      "batch",
    "context", "prompt", "weights", "activations"};

/// The axes of `specs` ("key=v1,v2" or a range, as `lpx sweep --set`), in
/// command-line order. Every value is checked before anything compiles:
/// a chip key's against `base` (the chip the words name), a count's as a
/// positive integer.
llvm::Expected<Grid> buildDeploymentGrid(const std::vector<std::string> &specs,
                                         const isa::ChipSpec &base);

/// buildDeploymentGrid with `ownKeys` as the keys that are not the chip's.
llvm::Expected<Grid> buildStudyGrid(const std::vector<std::string> &specs,
                                    const isa::ChipSpec &base,
                                    llvm::ArrayRef<const char *> ownKeys);

/// The option of `a` a deployment key sets (chips, tp, pp, context,
/// weights, activations); nullptr for any other key.
std::string *deploymentOption(DeploymentArgs &a, llvm::StringRef key);

/// Point `index`'s (key, value) pairs, in axis order.
void forEachValue(
    const Grid &grid, size_t index,
    const std::function<void(const std::string &, const std::string &)> &fn);

/// A deployment key into its option, any other key appended to the chip
/// overrides as key=value.
void setStudyValue(DeploymentArgs &a, const std::string &key,
                   const std::string &value);

/// `base` with point `index`'s values: a chip key appended to the
/// overrides, a deployment key in its option.
DecodeWords pointWords(const DecodeWords &base, const Grid &grid,
                       size_t index);

/// The options of `w` as one line ("--model M --chip C --set k=v ..."),
/// those given only: a part file records what every point shares.
std::string decodeWordsLine(const DecodeWords &w);

/// Why a swept key clashes with the words: its option (or a --set of it)
/// also fixes it, so one would be ignored; nullopt when none does.
std::optional<std::string> sweptTwice(const DecodeWords &w, const Grid &grid);

/// What planning one point gave.
struct DeploymentPoint {
  /// ok | does-not-fit (no chip count the topology reaches holds it, or
  /// not the chips given) | error (anything else: the message says)
  std::string status = "error";
  std::string message;
  DecodeMetrics metrics; // with status ok
  /// Its programs are another point's, simulated again (resimulatePlan).
  bool resimulated = false;
  std::shared_ptr<const DecodePlan> plan; // when asked to keep it
  bool ok() const { return status == "ok"; }
};

/// Plans one deployment of `words` exporting under `dir` (created, then
/// removed), its chip search started at `chipsHint` (0: none); with
/// `source`, simulates its programs again instead (decodeFromWords).
/// `keepPlan` keeps the plan in the point. Never throws: a failure is the
/// point's status.
DeploymentPoint planDeployment(const DecodeWords &words, llvm::StringRef dir,
                               unsigned chipsHint, bool keepPlan = false,
                               const DecodePlan *source = nullptr);

/// For each of `points`, the slot of the point its programs are simulated
/// again from: the first of `points` with the same values of every key the
/// compiler reads (compilerReadsKey), when that is another point; nullopt
/// for a point that is planned.
std::vector<std::optional<size_t>>
resimulationSources(const Grid &grid, const std::vector<size_t> &points);

/// Plans `points` of the grid on `jobs` threads, each point exporting
/// under its own folder of `scratchDir`; `progress` hears (done, failed)
/// on the caller's thread. Compiles are reused where the answer is the
/// same: a point whose last key is not at its first value starts its chip
/// search from the count found for the point that is (two compiles when
/// that count is still the fewest; the search goes on when it is not), so
/// the key that changes what fits (sram.bytes) is best swept first; a
/// point that differs from another only in keys the compiler does not read
/// is that point's programs simulated again (resimulationSources), after
/// every planned point.
std::vector<DeploymentPoint>
runDeploymentPoints(const DecodeWords &base, const Grid &grid,
                    const std::vector<size_t> &points, unsigned jobs,
                    llvm::StringRef scratchDir,
                    const std::function<void(size_t, size_t)> &progress);

} // namespace lpx::deploy

#endif
