//===- SweepMerge.h - The parts of a sharded sweep, joined ------*- C++ -*-===//
//
// `lpx sweep --shard I/N` writes part files; joined, they are the CSV the
// unsharded sweep writes. The first line of every part describes the whole
// sweep; the parts must agree on it, each of 1..N must be there exactly
// once, and each must hold exactly its points, or nothing is written.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_SWEEPMERGE_H
#define LPX_DEPLOY_SWEEPMERGE_H

#include "lpx/deploy/SweepShard.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace lpx::deploy {

class SweepMerge {
public:
  /// Reads the part file at `path` and adds it.
  llvm::Error add(const std::string &path);
  /// Adds a part whose text is `text` (`path` names it in messages).
  llvm::Error addText(const std::string &path, llvm::StringRef text);
  /// An error naming the parts not added yet.
  llvm::Error checkComplete() const;
  /// The rows of every point, in point order (after checkComplete).
  std::string rows() const;
  /// "merged N part(s): G WHAT of MODEL on CHIP -> CSV[, SVG][, HTML]",
  /// WHAT "point(s)" or "deployment(s)", G the points of the merged grid.
  std::string summaryLine(size_t points, llvm::StringRef what,
                          llvm::StringRef csvPath, llvm::StringRef plotPath,
                          llvm::StringRef reportPath = "") const;
  /// Writes the unsharded CSV to `csvPath` and, unless `plotPath` is
  /// empty, the chart of `metric` (empty: seconds, or a study's default
  /// column), as the unsharded sweep or study writes them (a study's
  /// frontier marked over every row, and its page at `reportPath` when
  /// given); returns the summary line. After checkComplete.
  llvm::Expected<std::string> write(llvm::StringRef csvPath,
                                    llvm::StringRef plotPath,
                                    std::string metric,
                                    llvm::StringRef reportPath = "") const;

  std::optional<PartInfo> first; // the first part's description
  size_t hazards = 0;            // rows with status "hazards"

private:
  std::string firstPath;
  std::vector<std::string> partPath;   // per shard; empty: not seen yet
  std::vector<std::string> rowOfPoint; // CSV text per point
};

} // namespace lpx::deploy

#endif
