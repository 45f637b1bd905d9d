//===- SweepShard.h - One of N disjoint parts of a sweep --------*- C++ -*-===//
//
// `lpx sweep ... --shard I/N` runs the points p with p % N == I - 1 (round
// robin, so every part gets a share of the cheap and the expensive points)
// and writes them as CSV rows after one line that describes the whole
// sweep; `lpx sweep merge` reads those lines to check that the parts belong
// together and are all there, and puts the rows back in point order.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_SWEEPSHARD_H
#define LPX_DEPLOY_SWEEPSHARD_H

#include "lpx/deploy/SweepGrid.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace lpx::deploy {

struct Shard {
  size_t index = 0; // 0-based; written and parsed 1-based ("1/4")
  size_t count = 1;
};

/// "I/N" with 1 <= I <= N.
llvm::Expected<Shard> parseShard(llvm::StringRef text);

/// The points of a grid of `total` points that `shard` runs, ascending.
/// With `run` > 1, runs of that many consecutive points are dealt instead
/// of single points (a study keeps the points that share all keys but the
/// last together, so they reuse one chip search: studyShardRun).
std::vector<size_t> shardPoints(size_t total, Shard shard, size_t run = 1);

/// What a part file says about the sweep it belongs to.
struct PartInfo {
  std::string model; // file name, as in the plot's title
  std::string chip;  // the base chip's name
  Shard shard;
  std::vector<Axis> axes; // command-line order
  /// "" for `lpx sweep`, "deployment" for `lpx decode --sweep`, whose
  /// `base` is the options every point shares, as one line.
  std::string kind, base;
};

/// The first line of a part file: "# lpx sweep part " + JSON + "\n".
std::string partLine(const PartInfo &info);

/// Parses a partLine (without or with its line break).
llvm::Expected<PartInfo> parsePartLine(llvm::StringRef line);

} // namespace lpx::deploy

#endif
