//===- Commands.h - The lpx subcommands -------------------------*- C++ -*-===//
//
// Each subcommand is a function from its options to an exit code: 0 success,
// 1 the check it performs failed (hazards, mismatching outputs), 2 bad input
// or an error (the message is already printed, one line).
//
//===----------------------------------------------------------------------===//
#ifndef LPX_TOOLS_COMMANDS_H
#define LPX_TOOLS_COMMANDS_H

#include "llvm/Support/Error.h"
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace lpx::cli {

enum ExitCode { kOk = 0, kCheckFailed = 1, kError = 2 };

struct CompileArgs {
  std::string model;
  std::string output;
  std::string chip;
  unsigned nodes = 1;
  std::vector<std::string> inputShapes; // name=1x128
  std::vector<std::string> constInputs; // name=file.pb
  std::string emit = "program";         // program | graph | partitioned | scheduled
};
int runCompile(const CompileArgs &args);

struct SimulateArgs {
  std::string program;
  bool json = false;
  uint64_t maxCycles = UINT64_MAX;
};
int runSimulate(const SimulateArgs &args);

struct RunArgs {
  std::string program;
  std::string dataDir;
  std::string outDir; // optional: write the outputs here
  double rtol = -1, atol = -1; // < 0: the default for the element type
};
int runRun(const RunArgs &args);

struct InspectArgs {
  std::string program;
};
int runInspect(const InspectArgs &args);

int runChipList();
int runChipShow(const std::string &presetOrFile);
int runChipValidate(const std::string &file);

/// Prints "lpx <command>: error: <message>" to stderr and returns kError.
int reportError(llvm::StringRef command, llvm::Error err);
int reportError(llvm::StringRef command, llvm::StringRef message);

} // namespace lpx::cli

#endif
