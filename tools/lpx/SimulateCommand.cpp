//===- SimulateCommand.cpp - lpx simulate ---------------------------------===//
#include "lpx/isa/AtomicFile.h"
#include "Commands.h"
#include "lpx/deploy/ProgramSensitivity.h"
#include "lpx/report/HtmlReport.h"
#include "lpx/report/Timeline.h"
#include "lpx/report/TraceEvents.h"

#include "lpx/isa/Program.h"
#include "lpx/sim/LayerReport.h"
#include "lpx/sim/Simulator.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace lpx;
using namespace lpx::cli;
using namespace lpx::report;

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

/// The simulator's JSON, with the per-layer table under "layers" when asked.
void printJsonReport(const SimulateArgs &args, const isa::VerifiedProgram &prog,
                     const sim::SimResult &result,
                     const sim::ExecutionTrace &trace) {
  if (!args.perLayer) {
    sim::printJson(result, prog, llvm::outs());
    return;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  sim::printJson(result, prog, os);
  llvm::json::Value root = llvm::cantFail(llvm::json::parse(text));
  root.getAsObject()->insert(
      {"layers", sim::layerJson(sim::layerStats(prog, trace))});
  llvm::outs() << llvm::formatv("{0:2}", root) << "\n";
}

} // namespace

int lpx::cli::runSimulate(const SimulateArgs &args) {
  auto prog = isa::readProgramFile(args.program);
  if (!prog)
    return reportError("simulate", prog.takeError());
  if (args.sensitivity ? args.json || args.perLayer || !args.trace.empty()
                       : !args.output.empty() || !args.plot.empty())
    return reportError("simulate", "-o and --plot go with --sensitivity, "
                                   "--json, --per-layer and --trace without");
  if (args.sensitivity) { // deploy/ProgramSensitivity.h
    auto e = deploy::simulateSensitivity(*prog, args.program, args.output,
                                         args.plot, args.report, llvm::outs());
    return e ? reportError("simulate", std::move(e)) : kOk;
  }
  sim::SimOptions opts;
  opts.maxCycles = args.maxCycles;
  opts.vectorCheck = !args.noVectorCheck;
  sim::ExecutionTrace trace;
  if (!args.trace.empty() || !args.report.empty() || args.perLayer)
    opts.trace = &trace;
  auto result = sim::simulate(*prog, opts);
  if (!result)
    return reportError("simulate", result.takeError());
  // Written with hazards too: a timeline is how one sees them.
  if (auto e = writeTimelineFiles(args, *prog, *result, trace))
    return reportError("simulate", std::move(e));
  if (args.json)
    printJsonReport(args, *prog, *result, trace);
  else {
    sim::printReport(*result, *prog, llvm::outs());
    if (args.perLayer)
      sim::printLayerReport(sim::layerStats(*prog, trace), *result, *prog,
                            llvm::outs());
  }
  return result->hazards.empty() ? kOk : kCheckFailed;
}
