//===- SweepMergeCommand.cpp - lpx sweep merge ----------------------------===//
//
// Joins the part files of `lpx sweep --shard I/N` into the CSV (and chart)
// the unsharded sweep writes (SweepMerge.h checks the parts).
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "lpx/deploy/SweepMerge.h"

#include "llvm/Support/raw_ostream.h"

using namespace lpx;
using namespace lpx::cli;
using namespace lpx::deploy;

static const char *const kCmd = "sweep merge";

int lpx::cli::runSweepMerge(const SweepMergeArgs &args) {
  if (args.parts.empty())
    return reportError(kCmd, "no part files given");
  SweepMerge merge;
  for (const std::string &path : args.parts)
    if (auto e = merge.add(path))
      return reportError(kCmd, std::move(e));
  if (auto e = merge.checkComplete())
    return reportError(kCmd, std::move(e));
  auto line = merge.write(args.output, args.plot, args.metric, args.report);
  if (!line)
    return reportError(kCmd, line.takeError());
  llvm::outs() << *line << "\n";
  // Hazards (a sweep's rows only) fail the merge as they fail `lpx sweep`.
  return merge.hazards ? kCheckFailed : kOk;
}
