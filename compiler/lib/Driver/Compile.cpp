//===- Compile.cpp - ONNX file to program, in one call --------------------===//
#include "lpx/Driver/Compile.h"

#include "lpx/InitAll.h"
#include "lpx/Target/ISABridge.h"
#include "lpx/Target/Program/EmitProgram.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Path.h"

using namespace mlir;

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
                 StopAfter stop) {
  auto module = importOnnxFile(ctx, model, import);
  if (failed(module))
    return failure();
  attachChip(**module, chip);
  PassManager pm(&ctx);
  buildPipeline(pm, opts, stop);
  if (failed(pm.run(**module)))
    return failure();
  return std::move(*module);
}

FailureOr<lpx::isa::pb::Program>
lpx::compileToProgram(MLIRContext &ctx, StringRef model,
                      const ImportOptions &import, const CompileOptions &opts,
                      const isa::ChipSpec &chip) {
  auto module =
      compileToIR(ctx, model, import, opts, chip, StopAfter::Scheduled);
  if (failed(module))
    return failure();
  return emitProgram(**module, llvm::sys::path::filename(model));
}
