//===- ImportArgs.cpp - --input-shape and --const-input -------------------===//
#include "lpx/Import/ImportArgs.h"

#include "llvm/ADT/SmallVector.h"

using namespace lpx;

static llvm::Error bad(const char *fmt, const std::string &a,
                       const std::string &b = "") {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), fmt,
                                 a.c_str(), b.c_str());
}

llvm::Expected<ImportOptions>
lpx::cli::parseImportArgs(const std::vector<std::string> &inputShapes,
                          const std::vector<std::string> &constInputs) {
  ImportOptions opts;
  for (const std::string &text : inputShapes) {
    auto [name, dims] = llvm::StringRef(text).split('=');
    if (name.empty() || dims.empty())
      return bad("--input-shape '%s': expected name=1x128", text);
    std::vector<int64_t> shape;
    llvm::SmallVector<llvm::StringRef> parts;
    dims.split(parts, 'x');
    for (llvm::StringRef p : parts) {
      int64_t d;
      if (p.getAsInteger(10, d) || d < 0)
        return bad("--input-shape '%s': '%s' is not a non-negative dimension",
                   text, p.str());
      shape.push_back(d);
    }
    opts.inputShapes[name.str()] = shape;
  }
  for (const std::string &text : constInputs) {
    auto [name, path] = llvm::StringRef(text).split('=');
    if (name.empty() || path.empty())
      return bad("--const-input '%s': expected name=file.pb", text);
    opts.constInputs[name.str()] = path.str();
  }
  return opts;
}
