//===- OpTable.h - The global operator coverage table -----------*- C++ -*-===//
#ifndef LPX_DEPLOY_OPTABLE_H
#define LPX_DEPLOY_OPTABLE_H

#include "lpx/deploy/CoverageFormat.h"
#include "llvm/Support/Error.h"
#include <string>

namespace lpx::deploy {

/// Writes every operator of the installed ONNX schema registry (default
/// domain and ai.onnx.ml) with its opset versions, the element types the
/// chip can hold, whether lpx compiles it and, when `expectations` names the
/// node-test expectation list, how many of its ONNX backend node tests pass.
llvm::Error writeOpTable(ReportFormat f, const std::string &expectations,
                         llvm::raw_ostream &os);

} // namespace lpx::deploy

#endif
