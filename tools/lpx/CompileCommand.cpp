//===- CompileCommand.cpp - lpx compile -----------------------------------===//
#include "Commands.h"
#include "lpx/deploy/CompileSupport.h"
#include "Progress.h"
#include "lpx/Import/ImportArgs.h"

#include "lpx/Driver/Compile.h"
#include "lpx/isa/AtomicFile.h"
#include "lpx/isa/ChipOverrides.h"
#include "lpx/isa/Program.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

using namespace lpx;
using namespace lpx::cli;
using namespace lpx::deploy;

int lpx::cli::runCompile(const CompileArgs &args) {
  const char *cmd = "compile";
  auto importOpts = parseImportArgs(args.inputShapes, args.constInputs);
  if (!importOpts)
    return reportError(cmd, importOpts.takeError());
  std::string chipName =
      args.chip.empty() ? isa::presetNames().front() : args.chip;
  // Resolved once, --set edits included; the passes read it from the module.
  auto chip = isa::loadChipWithOverrides(chipName, args.sets);
  if (!chip)
    return reportError(cmd, chip.takeError());
  if (args.kvContext && !args.residentKV)
    return reportError(cmd, "--kv-context applies with --resident-kv");
  if (args.chunks > 1 && !args.residentKV)
    return reportError(cmd, "--chunks applies with --resident-kv (the chunks "
                            "write their cache into the resident state)");

  auto ctx = makeCompilerContext();
  unsigned errors = 0;
  std::optional<StageProgress> progress; // while the program is compiled
  mlir::ScopedDiagnosticHandler handler(ctx.get(), [&](mlir::Diagnostic &d) {
    if (d.getSeverity() == mlir::DiagnosticSeverity::Error) {
      ++errors;
      auto report = [&] { reportError(cmd, describeDiagnostic(d)); };
      if (progress)
        progress->printAbove(report);
      else
        report();
    } else if (d.getSeverity() == mlir::DiagnosticSeverity::Remark) {
      // The placement chosen, and why.
      auto remark = [&] { llvm::errs() << d.str() << "\n"; };
      if (progress)
        progress->printAbove(remark);
      else
        remark();
    }
    return mlir::success();
  });
  auto failedWithoutMessage = [&] {
    if (!errors)
      reportError(cmd, "cannot compile '" + args.model + "'");
    return kError;
  };
  CompileOptions opts{args.nodes, args.weights,   args.activations,
                      args.residentKV, args.tp, args.pp, args.kvContext,
                      args.chunks};

  if (args.emit != "program") {
    StopAfter stop = args.emit == "graph"         ? StopAfter::Graph
                     : args.emit == "partitioned" ? StopAfter::Partitioned
                                                  : StopAfter::Scheduled;
    auto module = compileToIR(*ctx, args.model, *importOpts, opts, *chip, stop);
    if (failed(module))
      return failedWithoutMessage();
    if (auto e = isa::writeFileAtomically(
            args.output, [&](llvm::raw_ostream &os) { (*module)->print(os); }))
      return reportError(cmd, std::move(e));
    return kOk;
  }
  mlir::FailureOr<isa::VerifiedProgram> emitted = mlir::failure();
  progress.emplace("compile");
  emitted = compileToProgram(
      *ctx, args.model, *importOpts, opts, *chip,
      [&](llvm::StringRef stage, unsigned i, unsigned n) {
        progress->stage(stage, i, n);
      },
      [&](uint64_t done, uint64_t total) { progress->work(done, total); });
  progress.reset();
  if (failed(emitted))
    return failedWithoutMessage();
  if (auto e = isa::writeProgramFile(*emitted, args.output))
    return reportError(cmd, std::move(e));
  llvm::outs() << compiledLine(emitted->program(), args.model, args.nodes,
                               chip->name, !args.sets.empty(), args.output)
               << "\n";
  return kOk;
}
