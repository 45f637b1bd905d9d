//===- CoverageFormat.h - Coverage reports as text, md, json, html -*- C++ -*-===//
#ifndef LPX_DEPLOY_COVERAGEFORMAT_H
#define LPX_DEPLOY_COVERAGEFORMAT_H

#include "lpx/deploy/Coverage.h"
#include "llvm/Support/raw_ostream.h"

namespace lpx::deploy {

enum class ReportFormat { Text, Markdown, Json, Html };

/// text, md, json or html; an error names any other.
llvm::Expected<ReportFormat> reportFormatNamed(llvm::StringRef name);

/// Writes the per-model reports: a node table, every blocker with its node
/// name, the summary line "N/M nodes supported, K op types missing", the
/// verdict and, for portable models, chips and predicted latency.
void writeCoverage(const std::vector<ModelCoverage> &models, ReportFormat f,
                   llvm::raw_ostream &os);

} // namespace lpx::deploy

#endif
