//===- SimulateCommand.cpp - lpx simulate ---------------------------------===//
#include "Commands.h"

#include "lpx/isa/Program.h"
#include "lpx/sim/Simulator.h"
#include "llvm/Support/raw_ostream.h"

using namespace lpx;
using namespace lpx::cli;

int lpx::cli::runSimulate(const SimulateArgs &args) {
  auto prog = isa::readProgramFile(args.program);
  if (!prog)
    return reportError("simulate", prog.takeError());
  sim::SimOptions opts;
  opts.maxCycles = args.maxCycles;
  auto result = sim::simulate(*prog, opts);
  if (!result)
    return reportError("simulate", result.takeError());
  if (args.json)
    sim::printJson(*result, *prog, llvm::outs());
  else
    sim::printReport(*result, *prog, llvm::outs());
  return result->hazards.empty() ? kOk : kCheckFailed;
}
