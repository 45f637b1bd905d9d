//===- SweepGrid.h - The points of a parameter sweep ------------*- C++ -*-===//
//
// `--set key=v1,v2,...` gives one axis; the sweep visits the cartesian
// product of all axes. Points are numbered with the last axis varying
// fastest (nested loops in command-line order), and every output is written
// in that order whatever order the points finish in.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_SWEEPGRID_H
#define LPX_DEPLOY_SWEEPGRID_H

#include "llvm/Support/Error.h"
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace lpx::deploy {

/// The key of the axis that is the node count rather than a chip parameter.
inline constexpr const char *kNodesKey = "nodes";

struct Axis {
  std::string key;
  std::vector<std::string> values; // as written (units kept) or generated
};

/// Parses "key=v1,v2,..." where each element is a value or a range
/// "a..b" (step 1), "a..b:step" or "a..b:*factor" (geometric), inclusive.
/// Values are kept as text: units such as 128MiB reach the chip parser as
/// the user wrote them.
llvm::Expected<Axis> parseAxis(llvm::StringRef spec);

/// Parses the value part alone (used for --nodes 1,2,4).
llvm::Expected<std::vector<std::string>> parseValueList(llvm::StringRef key,
                                                        llvm::StringRef list);

class Grid {
public:
  explicit Grid(std::vector<Axis> axes) : axes_(std::move(axes)) {}
  const std::vector<Axis> &axes() const { return axes_; }
  size_t size() const;
  /// Value index along each axis of point `index`.
  std::vector<size_t> coords(size_t index) const;

private:
  std::vector<Axis> axes_;
};

/// A value as a number for plotting: plain numbers, then byte sizes with
/// units; nullopt for anything else.
std::optional<double> numericValue(llvm::StringRef value);

} // namespace lpx::deploy

#endif
