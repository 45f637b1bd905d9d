//===- Evaluate.cpp - One model on one chip: compile, verify, simulate ----===//
#include "lpx/deploy/Evaluate.h"

#include "llvm/ADT/STLExtras.h"
#include "lpx/deploy/CompileSupport.h"

#include "mlir/IR/Diagnostics.h"

using namespace lpx;
using namespace lpx::deploy;

Evaluation lpx::deploy::evaluate(llvm::StringRef model,
                                 const isa::ChipSpec &chip,
                                 const EvaluateOptions &options) {
  Evaluation r;
  // Shared: with keepConstantData the program holds on to it.
  std::shared_ptr<mlir::MLIRContext> ctx = makeCompilerContext();
  auto program = [&] {
    mlir::ScopedDiagnosticHandler handler(ctx.get(), [&](mlir::Diagnostic &d) {
      if (options.onDiagnostic)
        options.onDiagnostic(d);
      if (d.getSeverity() != mlir::DiagnosticSeverity::Error)
        return mlir::success();
      CompileDiagnostic c{describeDiagnostic(d), d.str(), std::nullopt};
      if (auto name = llvm::dyn_cast<mlir::NameLoc>(d.getLocation()))
        c.node = name.getName().str();
      r.diagnostics.push_back(std::move(c));
      return mlir::success();
    });
    return compileToProgram(*ctx, model, options.import, options.compile, chip,
                            options.onStage, /*onWork=*/nullptr, &r.fit);
  }();
  if (failed(program)) {
    r.failedAt = EvaluateStage::Compile;
    r.error = r.diagnostics.empty() ? "cannot compile"
                                    : r.diagnostics.front().line;
    return r;
  }
  // Verified by the compiler against `chip` (emitProgram's contract).
  if (options.keepConstantData)
    program->keepDataAlive(ctx);
  r.program.emplace(std::move(*program));
  if (!options.simulate)
    return r;
  sim::SimOptions simOptions;
  if (options.trace)
    simOptions.trace = &r.trace.emplace();
  auto sim = sim::simulate(*r.program, simOptions);
  if (!sim) {
    r.failedAt = EvaluateStage::Simulate;
    r.error = llvm::toString(sim.takeError());
    r.trace.reset();
    return r;
  }
  r.sim = std::move(*sim);
  return r;
}

llvm::Expected<isa::ChipSpec>
lpx::deploy::asEmbedded(const isa::ChipSpec &chip) {
  return isa::parseChipSpec(isa::printChipSpec(chip), "chip");
}

bool lpx::deploy::compilerReadsKey(llvm::StringRef key) {
  static const char *const kSimulatedOnly[] = {
      "name", "description", "clock_mhz", "host.latency_us",
      "host.gb_per_second"};
  return !llvm::is_contained(kSimulatedOnly, key);
}
