//===- ChipOverrides.h - What-if edits of a chip description ----*- C++ -*-===//
//
// `--set key=value` on the command line changes one parameter of a chip
// description: `sram.bytes=128MiB`, `link.latency=108`, `clock_mhz=1200`.
// An override sets the field of that key (ChipKeys.h: the one list of
// parameters, checked against the printer by a test), reading the value as a
// description file would, then runs the parser's checks (validateChipSpec).
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

/// Sets one parameter. `key` is a path of chipKeys(): `section.name`, a
/// top-level name, `unit.latencies.op` (an entry of a per-operation latency
/// table, added if the description does not list that operation yet) or
/// `topology.rack.size` (the level added if absent); `value` is written as in
/// a description file. An unknown key is an error that lists the valid keys
/// of its section; an impossible value is the parser's error for that key.
/// On error `spec` is unchanged. Does not touch the
/// description (see applyOverrides).
llvm::Error applyOverride(ChipSpec &spec, llvm::StringRef key,
                          llvm::StringRef value);

/// Applies `key=value` pairs in order, then appends
/// " (modified: key=value, ...)" to the description, so a program compiled
/// for the result says which chip it was scheduled for. A real value is
/// stored rounded as the printer writes it (what a program embeds), so the
/// compiler and the simulator see identical numbers.
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

/// The numeric keys (integer, real, bytes) the default preset gives, in
/// print order ("clock_mhz", "sram.bytes", ...): what a sweep can vary.
std::vector<std::string> numericParameterKeys();

/// The printed value of `key` in `spec` ("216", "16.67"); empty if unknown.
std::string parameterValue(const ChipSpec &spec, llvm::StringRef key);

} // namespace lpx::isa

#endif
