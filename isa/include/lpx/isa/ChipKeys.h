//===- ChipKeys.h - A chip description's parameters by key path -*- C++ -*-===//
//
// Every scalar of a chip description as a dotted key path (`sram.bytes`,
// `link.latency`, `vxm.latencies.exp`), with its type, unit, a one-line
// description and typed accessors on ChipSpec (the list: ChipKeys.def).
// `--set key=value` sets the field through its key and then runs
// validateChipSpec, the parser's own checks; `lpx chip keys` lists them.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ISA_CHIPKEYS_H
#define LPX_ISA_CHIPKEYS_H

#include "lpx/isa/AssumptionRanges.h"
#include "lpx/isa/ChipSpec.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace lpx::isa {

enum class ChipKeyType {
  Integer, // a whole number (32-bit)
  Real,    // a decimal number
  Bytes,   // a byte count, with or without a unit (220MiB, 500MB)
  Bool,    // true or false
  Format,  // a number format's name (fp16, fp8e4m3, int8, ...)
  Text,    // free text
};
const char *chipKeyTypeName(ChipKeyType type);

/// A value of a key: integers and byte counts as uint64_t, reals as double,
/// booleans, and format names and text as strings.
using ChipValue = std::variant<uint64_t, double, bool, std::string>;

struct ChipKey {
  std::string path;        // dotted: "sram.bytes", "topology.rack.size"
  ChipKeyType type;
  std::string unit;        // "cycles", "bytes", "MHz", ... or "" (a count)
  std::string description; // one line
  /// The value, or nullopt where the description gives none and the printer
  /// writes nothing (a latency entry not listed, a topology level not given,
  /// an empty description, no `formats:`).
  std::function<std::optional<ChipValue>(const ChipSpec &)> get;
  /// Stores a value of this key's type (creating the latency entry or the
  /// topology level when it is absent); checks nothing (validateChipSpec).
  std::function<void(ChipSpec &, const ChipValue &)> set;

  /// Reads a value written as in a description file, rounded as the printer
  /// writes it (so the compiler and the simulator see one number); the
  /// error is the reason alone ("invalid number").
  llvm::Expected<ChipValue> parse(llvm::StringRef text) const;
  /// The value as printChipSpec writes it.
  std::string format(const ChipValue &value) const;
  /// The section part of the path ("topology.rack"), "" at the top level.
  llvm::StringRef section() const;
  /// The last part of the path.
  llvm::StringRef name() const;
};

/// Every key, in the order printChipSpec writes them.
const std::vector<ChipKey> &chipKeys();
/// The key of `path`, or nullptr.
const ChipKey *findChipKey(llvm::StringRef path);

/// `lpx chip keys`: a line per key (path, type, unit, the value `spec` gives
/// or "-", the stated range of an assumption (AssumptionRanges.h) or "-",
/// description), or with `json` an array of objects with those fields
/// (`value` typed; null where not given; `range` {low, high, reason} or
/// null).
std::string listChipKeys(const ChipSpec &spec, bool json,
                         llvm::ArrayRef<AssumptionRange> ranges = {});

} // namespace lpx::isa

#endif
