//===- ServiceTableBuild.h - A serving table from simulated programs -*- C++ -*-===//
//
// `lpx serve` takes every service time from a serve::ServiceTable. This
// fills one for a deployment by compiling and simulating each point: the
// decode step on a grid of batch sizes and context lengths and the prefill
// at a few prompt lengths, all on the chips and placement `lpx decode`
// plans (planDecode at the largest step). Nothing is a formula: between
// points the serving model interpolates as serve::kInterpolation says.
//
// The table is cached as JSON under a key of everything it depends on; an
// entry the ServiceTable reader rejects, or whose key differs, is rebuilt.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_SERVICETABLEBUILD_H
#define LPX_DEPLOY_SERVICETABLEBUILD_H

#include "lpx/deploy/DecodePlan.h"
#include "lpx/serve/ServiceTable.h"

namespace lpx::deploy {

/// The points simulated: decode at every batch x context, prefill of one
/// prompt at every prompt length. With `prefillChunk` C > 0 (the largest
/// prompt is more than one chunk) the prefill is chunked: whole-prompt
/// points only for the prompts of at most C tokens, and one chunk of C
/// tokens ending at C and at every prompt rounded up to a multiple of C.
struct ServeGrid {
  std::vector<int64_t> batches, contexts, prompts;
  int64_t prefillChunk = 0;
};

/// Every batch up to kEveryBatchUpTo, then powers of two, up to `maxBatch`
/// (included); contexts and prompts at context/8, context/4, context/2 and
/// context (those >= 1, distinct). Every batch because a step's time is a
/// staircase in batch (tiny-llama on lpx3: 2.994 us for 1 to 3 sequences,
/// 3.316 us for 4 to 6, 3.645 us for 7 and 8): interpolating batch 3
/// between simulated 2 and 4 was 5.4% off its simulation. Along context
/// the time is smooth and interpolation holds.
/// The build then simulates 1, the powers of two and the largest batch at
/// the full context, and the batch midway between each two of them: where
/// the straight line between the two meets that probe within kProbeWithin,
/// the batches between them are left out of the table (llama2-70b on
/// tsp-v1 grows by about 350 us per sequence: batch 3 is 1.0% off the line
/// from 2 to 4); where it misses (tiny-llama's staircase: 5.3%), every
/// batch between is simulated.
/// The prefill chunk is prefillShape's choice for the largest prompt (as
/// `lpx decode` chooses it), 0 when that prompt is one chunk or the chosen
/// chunks do not fit the context (then prompts are prefilled whole).
constexpr int64_t kEveryBatchUpTo = 16;
constexpr double kProbeWithin = 0.02;
/// `chunk` > 0: that chunk (--prefill-chunk) instead of the chosen one.
ServeGrid serveGrid(int64_t maxBatch, int64_t context, int64_t chunk = 0);

/// The cache key: model (preset name, or an ONNX file's content hash), the
/// chip description's hash (overrides applied), chips and placement asked
/// for, formats, context, the grid (its prefill chunk when there is one)
/// and the lpx version, as one line.
std::string serviceTableKey(const DecodeTarget &target, unsigned chips,
                            int64_t context, const ServeGrid &grid);
/// The cache file of a key in `cacheDir`: serve-<hash of the key>.json.
std::string serviceTableCachePath(llvm::StringRef cacheDir,
                                  llvm::StringRef key);
/// `$XDG_CACHE_HOME/lpx`, else `$HOME/.cache/lpx`.
std::string defaultCacheDir();

/// Where a build's time went (host wall seconds: printed, never cached).
struct TableBuildStats {
  double planSeconds = 0;  // the chips and placement, found by compiling
  double pointSeconds = 0; // the points the plan did not already give
  size_t points = 0, compiled = 0; // of all points, those compiled here
  unsigned workers = 1;
  double slowestSeconds = 0;
  std::string slowest;
};

/// Points are compiled on up to this many threads (hardware threads
/// allowing): each compile of a 70B model holds a few GB.
constexpr unsigned kMaxTableWorkers = 4;

/// Compiles and simulates every point of `grid` on `chips` chips (0: the
/// fewest that hold the largest step) for a preset, in parallel; the
/// plan's largest step is a point of the grid and reused, and so is its
/// prefill of the largest prompt when prompts are whole (chunked, the
/// plan's prefill is the largest prompt's chunks in one program, as `lpx
/// decode` compiles it, so the chips found hold it chunked). The table's deployment line names model, chip, chips,
/// placement and formats.
llvm::Expected<serve::ServiceTable>
buildServiceTable(const DecodeTarget &target, unsigned chips, int64_t context,
                  const ServeGrid &grid, const PlanProgress &progress = {},
                  TableBuildStats *stats = nullptr);

struct CachedTable {
  serve::ServiceTable table;
  std::string path;
  bool fromCache = false;
  std::string rebuiltBecause; // why a cache entry there was not used
  TableBuildStats built;      // when built
};

/// The cached table of the key if its entry reads back whole and its key
/// matches, else built and written (whole, through an AtomicFile).
llvm::Expected<CachedTable>
cachedServiceTable(const DecodeTarget &target, unsigned chips, int64_t context,
                   const ServeGrid &grid, llvm::StringRef cacheDir,
                   const PlanProgress &progress = {});

} // namespace lpx::deploy

#endif
