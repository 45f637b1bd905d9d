//===- InspectCommand.cpp - lpx inspect -----------------------------------===//
#include "Commands.h"

#include "lpx/isa/Disassemble.h"
#include "llvm/Support/raw_ostream.h"

using namespace lpx;
using namespace lpx::cli;

int lpx::cli::runInspect(const InspectArgs &args) {
  auto prog = isa::readProgramFile(args.program);
  if (!prog)
    return reportError("inspect", prog.takeError());
  isa::disassemble(*prog, llvm::outs());
  return kOk;
}
