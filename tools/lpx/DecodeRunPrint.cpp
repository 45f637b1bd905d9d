//===- DecodeRunPrint.cpp - lpx decode --run ------------------------------===//
//
// Generates (DecodeGenerate.h) and prints as text or JSON (DecodeRunText).
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "lpx/deploy/DecodeGenerate.h"

#include "llvm/Support/raw_ostream.h"

using namespace lpx;
using namespace lpx::cli;
using namespace lpx::deploy;


int lpx::cli::runDecodeGenerate(const DecodeRunOptions &opts, bool json) {
  auto r = generateGreedy(opts);
  if (!r)
    return reportError("decode", r.takeError());
  if (json)
    printDecodeRunJson(opts, *r, llvm::outs());
  else
    printDecodeRunText(opts, *r, llvm::outs());
  return kOk;
}
