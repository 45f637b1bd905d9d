//===- Compile.h - ONNX file to program, in one call ------------*- C++ -*-===//
//
// The whole compiler behind one function: import, the pass pipeline and
// emission. Used by `lpx compile` and by tests that need a real program.
// Problems are reported as MLIR diagnostics on the given context.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DRIVER_COMPILE_H
#define LPX_DRIVER_COMPILE_H

#include "lpx/Import/ONNXImporter.h"
#include "lpx/Pipeline/Pipeline.h"
#include "lpx/Transforms/FitReport.h"
#include "lpx/Support/StageWork.h"
#include "lpx/isa/ChipSpec.h"
#include "lpx/isa/Program.h"
#include "mlir/IR/MLIRContext.h"
#include <functional>

namespace lpx {

/// A context with every lpx dialect loaded and threading off (the compiler
/// is deterministic and single-threaded by design).
std::unique_ptr<mlir::MLIRContext> makeCompilerContext();

/// Told as each stage of a compile starts: "import", every pass by its
/// argument ("lpx-schedule", ...), "emit"; `index` counts from 0 of `count`.
using CompileStageCallback =
    std::function<void(llvm::StringRef stage, unsigned index, unsigned count)>;

/// Imports `model`, attaches `chip` to the module and lowers it to IR level
/// `stop`. `onWork` hears the work done so far in the stages that count it
/// (StageWork.h). `fit`, if given, is cleared and, when a fit check fails,
/// says what did not fit in typed values (FitReport.h) besides the
/// diagnostic: callers decide on more chips from it, not from the text.
mlir::FailureOr<mlir::OwningOpRef<mlir::ModuleOp>>
compileToIR(mlir::MLIRContext &ctx, llvm::StringRef model,
            const ImportOptions &import, const CompileOptions &opts,
            const isa::ChipSpec &chip, StopAfter stop,
            const CompileStageCallback &onStage = nullptr,
            const StageWorkSink &onWork = nullptr, FitReport *fit = nullptr);

/// Imports `model`, runs the whole pipeline for `chip` and emits the program,
/// verified (whose constant data lives in `ctx`: use it while `ctx` lives).
mlir::FailureOr<isa::VerifiedProgram>
compileToProgram(mlir::MLIRContext &ctx, llvm::StringRef model,
                 const ImportOptions &import, const CompileOptions &opts,
                 const isa::ChipSpec &chip,
                 const CompileStageCallback &onStage = nullptr,
                 const StageWorkSink &onWork = nullptr,
                 FitReport *fit = nullptr);

} // namespace lpx

#endif
