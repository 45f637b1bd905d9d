//===- ChipOverrides.h - What-if edits of a chip description ----*- C++ -*-===//
//
// `--set key=value` on the command line changes one parameter of a chip
// description: `sram.bytes=128MiB`, `link.latency=108`, `clock_mhz=1200`.
// An override edits the printed YAML at that key and parses the result again,
// so it goes through exactly the validation and unit handling a description
// file gets; there is no second list of parameters to keep in sync.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ISA_CHIPOVERRIDES_H
#define LPX_ISA_CHIPOVERRIDES_H

#include "lpx/isa/ChipSpec.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <utility>
#include <vector>

namespace lpx::isa {

/// Sets one parameter. `key` is `section.name`, a top-level name, or
/// `unit.latencies.op` (an entry of a per-operation latency table, added if
/// the description does not list that operation yet); `value`
/// is written as in a description file. An unknown key is an error that
/// lists the valid keys of its section; an impossible value is the parser's
/// error for that key. On error `spec` is unchanged. Does not touch the
/// description (see applyOverrides).
llvm::Error applyOverride(ChipSpec &spec, llvm::StringRef key,
                          llvm::StringRef value);

/// Applies `key=value` pairs in order, then appends
/// " (modified: key=value, ...)" to the description, so a program compiled
/// for the result says which chip it was scheduled for. Values are then
/// normalised to their printed form (what a program embeds), so the compiler
/// and the simulator see identical numbers.
llvm::Error
applyOverrides(ChipSpec &spec,
               llvm::ArrayRef<std::pair<std::string, std::string>> settings);

/// Splits "key=value"; an empty key or a missing '=' is an error.
llvm::Expected<std::pair<std::string, std::string>>
splitSetting(llvm::StringRef keyEqualsValue);

/// A preset or description file with `key=value` overrides applied.
llvm::Expected<ChipSpec>
loadChipWithOverrides(llvm::StringRef presetOrFile,
                      llvm::ArrayRef<std::string> keyEqualsValue);

/// Every numeric scalar of a printed description, as dotted keys in print
/// order ("clock_mhz", "sram.bytes", ...): what a sweep can vary.
std::vector<std::string> numericParameterKeys();

/// The printed value of `key` in `spec` ("216", "16.67"); empty if unknown.
std::string parameterValue(const ChipSpec &spec, llvm::StringRef key);

} // namespace lpx::isa

#endif
