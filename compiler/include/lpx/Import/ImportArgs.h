//===- ImportArgs.h - --input-shape and --const-input ------------*- C++ -*-===//
#ifndef LPX_IMPORT_IMPORTARGS_H
#define LPX_IMPORT_IMPORTARGS_H

#include "lpx/Import/ONNXImporter.h"
#include "llvm/Support/Error.h"

namespace lpx::cli {

/// Parses `name=1x128` shape pins and `name=file.pb` folded inputs, the
/// import options every model-reading command (lpx, lpx-translate) takes.
llvm::Expected<ImportOptions>
parseImportArgs(const std::vector<std::string> &inputShapes,
                const std::vector<std::string> &constInputs);

} // namespace lpx::cli

#endif
