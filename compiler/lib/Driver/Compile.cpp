//===- Compile.cpp - ONNX file to program, in one call --------------------===//
#include "lpx/Driver/Compile.h"

#include "lpx/InitAll.h"
#include "lpx/Target/ISABridge.h"
#include "lpx/Target/Program/EmitProgram.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace mlir;

namespace {
/// Reports each pass once as it starts (a pass nested on functions runs
/// once per function).
class StageReporter : public PassInstrumentation {
public:
  StageReporter(const lpx::CompileStageCallback &onStage, unsigned count)
      : onStage(onStage), count(count) {}
  void runBeforePass(Pass *pass, Operation *) override {
    llvm::StringRef name = pass->getArgument();
    if (!name.empty() && seen.insert(name).second)
      onStage(name, unsigned(seen.size()), count);
  }

private:
  const lpx::CompileStageCallback &onStage;
  unsigned count;
  llvm::StringSet<> seen;
};
} // namespace

std::unique_ptr<MLIRContext> lpx::makeCompilerContext() {
  DialectRegistry registry;
  registerAllDialects(registry);
  auto ctx = std::make_unique<MLIRContext>(registry,
                                           MLIRContext::Threading::DISABLED);
  ctx->loadAllAvailableDialects();
  // Errors are one line each; the op dump MLIR adds is for compiler hackers.
  ctx->printOpOnDiagnostic(false);
  return ctx;
}

FailureOr<OwningOpRef<ModuleOp>>
lpx::compileToIR(MLIRContext &ctx, StringRef model, const ImportOptions &import,
                 const CompileOptions &opts, const isa::ChipSpec &chip,
                 StopAfter stop, const CompileStageCallback &onStage,
                 const StageWorkSink &onWork, FitReport *fit) {
  ScopedStageWorkSink workSink(onWork);
  ScopedFitReport fitSink(fit);
  PassManager pm(&ctx);
  unsigned count = 1 + buildPipeline(pm, opts, stop); // the import, passes
  if (onStage) {
    onStage("import", 0, count);
    pm.addInstrumentation(std::make_unique<StageReporter>(onStage, count));
  }
  auto module = importOnnxFile(ctx, model, import);
  if (failed(module))
    return failure();
  if (failed(attachChip(**module, chip)))
    return failure();
  if (failed(pm.run(**module)))
    return failure();
  return std::move(*module);
}

FailureOr<lpx::isa::VerifiedProgram>
lpx::compileToProgram(MLIRContext &ctx, StringRef model,
                      const ImportOptions &import, const CompileOptions &opts,
                      const isa::ChipSpec &chip,
                      const CompileStageCallback &onStage,
                      const StageWorkSink &onWork, FitReport *fit) {
  ScopedStageWorkSink workSink(onWork);
  // One stage more than compileToIR's: the emission.
  unsigned count = 0;
  CompileStageCallback withEmit = [&](StringRef stage, unsigned i,
                                      unsigned n) {
    count = n + 1;
    onStage(stage, i, count);
  };
  auto module = compileToIR(ctx, model, import, opts, chip,
                            StopAfter::Scheduled, onStage ? withEmit : nullptr,
                            onWork, fit);
  if (failed(module))
    return failure();
  if (onStage)
    onStage("emit", count - 1, count);
  // The values folded in, as given (the importer has read them already).
  std::vector<isa::pb::FoldedInput> folded;
  for (const auto &[name, path] : import.constInputs) {
    auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
    if (!file)
      return emitError(UnknownLoc::get(&ctx))
             << "cannot read '" << path << "': " << file.getError().message();
    isa::pb::FoldedInput &f = folded.emplace_back();
    f.set_name(name);
    f.set_tensor((*file)->getBuffer().str());
  }
  auto program =
      emitProgram(**module, llvm::sys::path::filename(model), folded);
  if (failed(program))
    return failure();
  return program;
}
