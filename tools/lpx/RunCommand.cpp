//===- RunCommand.cpp - lpx run -------------------------------------------===//
#include "Commands.h"

#include "lpx/isa/Program.h"
#include "lpx/runtime/Runtime.h"
#include "lpx/runtime/TensorFile.h"
#include "lpx/runtime/TestData.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <optional>

using namespace lpx;
using namespace lpx::cli;

namespace {

/// Wall-clock seconds since `start`.
double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

void printTimes(double load, std::vector<double> runs) {
  std::sort(runs.begin(), runs.end());
  llvm::outs() << llvm::formatv("time: load {0:f3} s, inference {1:f3} s "
                                "(median of {2}, fastest {3:f3} s)\n",
                                load, runs[runs.size() / 2], runs.size(),
                                runs.front());
}

} // namespace

int lpx::cli::runRun(const RunArgs &args) {
  const char *cmd = "run";
  auto loadStart = std::chrono::steady_clock::now();
  auto prog = isa::readProgramFile(args.program);
  if (!prog)
    return reportError(cmd, prog.takeError());
  auto machine = rt::Machine::load(*prog);
  if (!machine)
    return reportError(cmd, machine.takeError());
  double loadSeconds = secondsSince(loadStart);
  auto data = rt::readProgramTestData(args.dataDir, *prog);
  if (!data)
    return reportError(cmd, data.takeError());
  const std::vector<rt::HostTensor> &expected = data->expected;
  if (expected.empty() && args.outDir.empty())
    return reportError(cmd, "no output_N.pb in '" + args.dataDir +
                                "' to compare with (use --out DIR to write "
                                "the outputs instead)");

  std::optional<std::vector<rt::HostTensor>> outputs;
  std::vector<double> runSeconds;
  for (unsigned i = 0; i < args.repeat; ++i) {
    auto start = std::chrono::steady_clock::now();
    auto result = machine->run(data->inputs);
    if (!result)
      return reportError(cmd, result.takeError());
    runSeconds.push_back(secondsSince(start));
    outputs = std::move(*result);
  }
  if (args.time)
    printTimes(loadSeconds, runSeconds);

  if (!args.outDir.empty())
    if (auto e = rt::writeTestDataDir(args.outDir, "output", *outputs))
      return reportError(cmd, std::move(e));
  if (expected.empty())
    return kOk;

  rt::ToleranceChoice tolerance =
      rt::chooseTolerance(args.toleranceOf, prog->program());
  llvm::outs() << rt::toleranceLine(tolerance, args.rtol, args.atol) << "\n";
  auto allOk = rt::compareOutputs(expected, *outputs, tolerance.format,
                                  args.rtol, args.atol, llvm::outs());
  if (!allOk)
    return reportError(cmd, allOk.takeError());
  return *allOk ? kOk : kCheckFailed;
}
