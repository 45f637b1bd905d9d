//===- AssumptionRanges.h - What each assumption may be -*- C++ -*-===//
//
// A chip description marks the figures that are not in the public record
// ASSUMPTION; each numeric (or boolean) one also states the range it could
// plausibly take, beside its reasoning:
//
//   latency: 4   # ASSUMPTION range 2..16: MXM pipeline depth; ...
//
// The range is read from the comment of the key's line, the key's dotted
// path (`mxm.latency`, `vxm.latencies.exp`, `topology.rack.size`) from the
// YAML structure, and every range is checked against the key table
// (ChipKeys.h) and the chip: both ends must be values `--set` accepts
// (the key's parse and validateChipSpec) and bracket the chip's own value.
// Sensitivity studies (`lpx sweep --sensitivity`) vary each key alone over
// its range; `lpx chip keys` shows them (docs/chips.md, "Assumptions and
// their ranges").
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ISA_ASSUMPTIONRANGES_H
#define LPX_ISA_ASSUMPTIONRANGES_H

#include "lpx/isa/ChipSpec.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace lpx::isa {

/// One key's stated range, as the description writes it.
struct AssumptionRange {
  std::string key;    // dotted path: "mxm.latency"
  std::string low;    // as written: "2", "128MiB", "false"
  std::string high;   // as written
  std::string reason; // the comment after "A..B:" (never empty)
  unsigned line = 0;  // 1-based line of the key in the description
};

/// A line whose comment says ASSUMPTION (with or without a range).
struct AssumptionLine {
  std::string key;      // dotted path of the line's key
  unsigned line = 0;    // 1-based
  bool section = false; // the key opens a section (no value of its own)
  bool ranged = false;  // the comment states `ASSUMPTION range ...`
};

/// Every line of `descriptionText` marked ASSUMPTION, in file order. The
/// error is the YAML reader's, naming `sourceName` and the line.
llvm::Expected<std::vector<AssumptionLine>>
findAssumptionLines(llvm::StringRef descriptionText,
                    llvm::StringRef sourceName);

/// The ranges of `descriptionText`, in file order, checked against `base`
/// (the chip that text describes, as parseChipSpec read it). A malformed
/// range is a one-line error "SOURCE:LINE: range of KEY: what is wrong".
llvm::Expected<std::vector<AssumptionRange>>
readAssumptionRanges(llvm::StringRef descriptionText, const ChipSpec &base,
                     llvm::StringRef sourceName);

/// Whether `value` (written as `--set` takes it) is what `chip` already
/// gives `key`: such an end of a range is the chip itself, and a study need
/// not compile it again. False for an unknown key or an unreadable value.
bool isChipValue(const ChipSpec &chip, llvm::StringRef key,
                 llvm::StringRef value);

/// A chip and the ranges of its description.
struct ChipAssumptions {
  ChipSpec chip;
  std::vector<AssumptionRange> ranges;
};

/// A preset (its embedded text) or a description file, parsed and its
/// ranges read.
llvm::Expected<ChipAssumptions>
loadChipAssumptions(llvm::StringRef presetOrPath);

} // namespace lpx::isa

#endif
