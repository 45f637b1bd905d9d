//===- Evaluate.h - One model on one chip: compile, verify, simulate -*- C++ -*-===//
//
// The one path from an ONNX file to figures that coverage, decode, sweeps
// and `lpx decode --run` share: import and compile for a chip, verify the
// program against that chip, and (unless only the program is wanted)
// simulate it, with the execution trace when asked. A failure at any stage
// is part of the result, not an error: a sweep makes a row of it, the chip
// search a reason to try more chips.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_EVALUATE_H
#define LPX_DEPLOY_EVALUATE_H

#include "lpx/Driver/Compile.h"
#include "lpx/isa/Program.h"
#include "lpx/sim/ExecutionTrace.h"
#include "lpx/sim/Simulator.h"
#include "mlir/IR/Diagnostics.h"
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace lpx::deploy {

struct EvaluateOptions {
  ImportOptions import;
  CompileOptions compile; // chips (`nodes`), placement, formats, resident KV
  bool simulate = true;   // false: stop at the verified program
  bool trace = false;     // keep the simulation's execution trace
  /// The program's constant data are views into the compile's MLIR
  /// context: keep it alive with the program when the caller reads them
  /// (the runtime does). Without it, Evaluation::program's data() must not
  /// be read once evaluate() has returned (timing never reads it, and a
  /// large model's context is not kept for nothing).
  bool keepConstantData = false;
  CompileStageCallback onStage; // told as each compile stage starts
  /// Also told every diagnostic of the compile (they are not printed).
  std::function<void(mlir::Diagnostic &)> onDiagnostic;
};

/// An error diagnostic of the compile: `line` is describeDiagnostic's one
/// line, `message` the diagnostic's own text and `node` the ONNX node it is
/// located at, if any.
struct CompileDiagnostic {
  std::string line, message;
  std::optional<std::string> node;
};

/// Verification is part of the compile: the compiler returns only a
/// program verified against the chip it compiled for.
enum class EvaluateStage { Compile, Simulate };

struct Evaluation {
  std::optional<isa::VerifiedProgram> program;
  std::optional<sim::SimResult> sim;
  std::optional<sim::ExecutionTrace> trace; // with EvaluateOptions::trace

  /// Set when a stage failed (what came before it is kept).
  std::optional<EvaluateStage> failedAt;
  /// Why: the first compile error's line ("cannot compile" without one),
  /// or the simulator's message.
  std::string error;
  std::vector<CompileDiagnostic> diagnostics; // every compile error, in order
  /// What did not fit, as the partitioner or the SRAM allocator found it
  /// (lpx::FitFailure::None when the compile failed for another reason).
  FitReport fit;

  bool ok() const { return !failedAt; }
};

/// Compiles `model` for `chip` with `options`, verifies the program against
/// `chip` and simulates it.
Evaluation evaluate(llvm::StringRef model, const isa::ChipSpec &chip,
                    const EvaluateOptions &options);

/// `chip` as the compiler embeds it in a program (printed and parsed back),
/// so that a program verified against it simulates on exactly the
/// description its file would carry.
llvm::Expected<isa::ChipSpec> asEmbedded(const isa::ChipSpec &chip);

/// Whether the compiler reads chip key `key` (a ChipKeys.h path). It reads
/// every key but the clock (cycles become seconds only after simulating)
/// and the host path (host I/O is timed apart from the cycles), and the
/// chip's name and description: a program compiled for one value of those
/// is the program for any other, so a study re-simulates it rather than
/// compiling again (tests/unit/deploy/ProgramSensitivityTest compiles with
/// each at two values and compares the instructions).
bool compilerReadsKey(llvm::StringRef key);

} // namespace lpx::deploy

#endif
