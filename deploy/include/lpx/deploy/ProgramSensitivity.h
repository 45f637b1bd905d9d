//===- ProgramSensitivity.h - A compiled program over the assumptions -*- C++ -*-===//
//
// `lpx simulate PROGRAM --sensitivity` (docs/sweeps.md): the program
// simulated on its chip (the base), then with each ranged assumption of
// that chip at the low and at the high end of its range, one at a time.
// A program is a static schedule the compiler built from the chip's
// figures, so only a key the compiler does not read (compilerReadsKey:
// the clock, the host path) can change without re-compiling: those ends
// are the same program re-simulated on the changed chip. The keys the
// compiler reads are listed, not varied: a program file does not hold
// the model to compile again (`lpx sweep MODEL.onnx --sensitivity` does).
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_PROGRAMSENSITIVITY_H
#define LPX_DEPLOY_PROGRAMSENSITIVITY_H

#include "lpx/deploy/Evaluate.h"
#include "lpx/deploy/Sensitivity.h"
#include "lpx/isa/Program.h"

namespace lpx::deploy {

struct ProgramSensitivity {
  Sensitivity study; // over the ranged keys the compiler does not read
  std::vector<isa::AssumptionRange> compiled; // ranged keys it reads
};

/// The program re-simulated at each end of every range of a key the
/// compiler does not read, on `jobs` threads.
ProgramSensitivity
runProgramSensitivity(const isa::VerifiedProgram &prog,
                      llvm::ArrayRef<isa::AssumptionRange> ranges,
                      unsigned jobs);

/// `lpx simulate --sensitivity`: the ranges of the program's chip (a
/// preset, found by the name the program embeds) read, the study run and
/// printed to `os`, the CSV, tornado and page written to the paths that
/// are not empty (checked before anything runs). `file` names the program.
llvm::Error simulateSensitivity(const isa::VerifiedProgram &prog,
                                llvm::StringRef file, const std::string &csv,
                                const std::string &plot,
                                const std::string &report,
                                llvm::raw_ostream &os);

} // namespace lpx::deploy

#endif
