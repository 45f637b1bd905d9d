//===- PerturbCommand.cpp - lpx perturb -----------------------------------===//
//
// Moves one instruction of a program earlier, so a student can watch the
// simulator catch a schedule the hardware could not run (the tutorial's
// hazard step). The instruction keeps its queue and operands; only its
// issue cycle (and a send's arrival, which follows from it) changes, and it
// moves up the list as far as program order by issue cycle requires.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "lpx/isa/Perturb.h"
#include "lpx/isa/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace lpx;
using namespace lpx::cli;

int lpx::cli::runPerturb(const PerturbArgs &args) {
  const char *cmd = "perturb";
  auto prog = isa::readProgramFile(args.program);
  if (!prog)
    return reportError(cmd, prog.takeError());
  // An edited copy: the loaded program is verified and stays as it was.
  isa::pb::Program p = prog->program();
  auto at = isa::checkedMoveEarlier(p, args.instruction, args.cycles);
  if (!at)
    return reportError(cmd, at.takeError());
  if (auto e = isa::writeProgramFile(p, prog->data(), args.output))
    return reportError(cmd, std::move(e));
  llvm::outs() << isa::describeMove(p, args.instruction, args.cycles, *at) << " -> "
               << args.output << "\n";
  return kOk;
}
