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

#include "lpx/isa/Opcode.h"
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
  const uint64_t count = uint64_t(p.instructions_size());
  if (args.instruction >= count)
    return reportError(cmd, "instruction " + std::to_string(args.instruction) +
                                " does not exist: the program has " +
                                std::to_string(count) + " instructions");
  const isa::pb::Instruction &moved = p.instructions(int(args.instruction));
  if (moved.issue() < args.cycles)
    return reportError(cmd, "instruction " + std::to_string(args.instruction) +
                                " issues at cycle " +
                                std::to_string(moved.issue()) +
                                ", it cannot move " +
                                std::to_string(args.cycles) + " cycles earlier");
  const uint64_t from = moved.issue();
  const int at = isa::moveEarlier(p, int(args.instruction), args.cycles);
  if (auto e = isa::writeProgramFile(p, prog->data(), args.output))
    return reportError(cmd, std::move(e));
  const isa::pb::Instruction &i = p.instructions(at);
  llvm::outs() << "moved instruction " << args.instruction << " ("
               << isa::mnemonic(isa::opcodeOf(i))
               << (i.origin().empty() ? "" : " " + i.origin()) << ", node "
               << i.node() << ") from cycle " << from << " to " << i.issue()
               << (at != int(args.instruction)
                       ? ", now instruction " + std::to_string(at)
                       : std::string())
               << " -> " << args.output << "\n";
  return kOk;
}
