//===- PresetTable.h - The presets and an export as text --------*- C++ -*-===//
//
// What `lpx models list` and `lpx models export` print: the presets' table
// with each one's parameters counted from the graph an export builds, and
// the line that says what an export wrote.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_MODELS_PRESETTABLE_H
#define LPX_MODELS_PRESETTABLE_H

#include "lpx/models/Export.h"
#include "llvm/Support/Error.h"
#include <string>

namespace lpx::models {

/// 6.74B, 163.04M, 172.22K.
std::string humanCount(uint64_t n);

/// A header and one row per preset: name, family, layers, hidden, heads,
/// KV heads, FFN, experts, vocabulary, context, parameters, source.
llvm::Expected<std::string> presetTable();

/// "wrote FILE: NAME, N layers, [P tokens, ]context C, batch B, N nodes,
/// 6.74B parameters[, K shape-only weights][, weights in FILE.data]".
std::string exportSummaryLine(const DecoderConfig &config,
                              const ExportOptions &options,
                              const ExportSummary &summary,
                              const std::string &output);

} // namespace lpx::models

#endif
