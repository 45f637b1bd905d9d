//===- SimulateCommand.cpp - lpx simulate ---------------------------------===//
#include "lpx/isa/AtomicFile.h"
#include "Commands.h"
#include "HtmlReport.h"
#include "Timeline.h"
#include "TraceEvents.h"

#include "lpx/isa/Program.h"
#include "lpx/sim/Simulator.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace lpx;
using namespace lpx::cli;

namespace {

/// Each file is whole or absent. The trace is streamed (it can be large); the
/// report is rendered first.
llvm::Error writeTimelineFiles(const SimulateArgs &args,
                               const isa::VerifiedProgram &prog,
                               const sim::SimResult &result,
                               const sim::ExecutionTrace &trace) {
  Timeline timeline = buildTimeline(prog, result, trace);
  std::string html;
  if (!args.report.empty())
    html = renderHtmlReport(
        timeline, "lpx simulation of " +
                      (prog.program().source_model().empty()
                           ? llvm::sys::path::filename(args.program).str()
                           : prog.program().source_model()));
  if (!args.trace.empty())
    if (auto e =
            isa::writeFileAtomically(args.trace, [&](llvm::raw_ostream &os) {
              writeTraceEvents(timeline, os);
            }))
      return e;
  if (!args.report.empty())
    return isa::writeFileAtomically(args.report, html);
  return llvm::Error::success();
}

} // namespace

int lpx::cli::runSimulate(const SimulateArgs &args) {
  auto prog = isa::readProgramFile(args.program);
  if (!prog)
    return reportError("simulate", prog.takeError());
  sim::SimOptions opts;
  opts.maxCycles = args.maxCycles;
  sim::ExecutionTrace trace;
  if (!args.trace.empty() || !args.report.empty())
    opts.trace = &trace;
  auto result = sim::simulate(*prog, opts);
  if (!result)
    return reportError("simulate", result.takeError());
  // Written with hazards too: a timeline is how one sees them.
  if (auto e = writeTimelineFiles(args, *prog, *result, trace))
    return reportError("simulate", std::move(e));
  if (args.json)
    sim::printJson(*result, *prog, llvm::outs());
  else
    sim::printReport(*result, *prog, llvm::outs());
  return result->hazards.empty() ? kOk : kCheckFailed;
}
