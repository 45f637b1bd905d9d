//===- CoverageFuzzer.cpp - Bytes into `lpx coverage` ---------------------===//
//
// The whole of `lpx coverage` on one model: the structure checks, the ONNX
// checker, the importer's per-node diagnostics and, for a portable model,
// compilation and simulation; then the report in every format.
//
//===----------------------------------------------------------------------===//
#include "FuzzFiles.h"

#include "lpx/deploy/Coverage.h"
#include "lpx/deploy/CoverageFormat.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string path = lpx::fuzz::writeInput(data, size, "model.onnx");
  auto cov = lpx::deploy::analyzeModel(path, lpx::ImportOptions{}, "");
  if (!cov) {
    llvm::consumeError(cov.takeError());
    return 0;
  }
  for (auto f : {lpx::deploy::ReportFormat::Text, lpx::deploy::ReportFormat::Json,
                 lpx::deploy::ReportFormat::Markdown, lpx::deploy::ReportFormat::Html})
    lpx::deploy::writeCoverage({*cov}, f, llvm::nulls());
  return 0;
}
