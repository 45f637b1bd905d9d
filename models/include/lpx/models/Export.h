//===- Export.h - Writing a preset as an ONNX model -------------*- C++ -*-===//
//
// `lpx models export`: a decode-step (or prefill) ONNX model of a preset, written without
// Python and without holding the weights in memory more than once.
//
// Shape-only weights: with `shapeOnly`, every float initializer of at least
// kShapeOnlyMinElements elements is stored with data_location = EXTERNAL and
// the one external_data entry {location: "lpx-shape-only"}, the compiler's
// marker (docs/architecture.md, "Shape-only weights"); an empty file of that
// name is put beside the model for onnx.checker, which wants every location to
// exist. Smaller initializers (integer shapes, axes, scalars, rotary
// frequencies) keep their values.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_MODELS_EXPORT_H
#define LPX_MODELS_EXPORT_H

#include "lpx/models/Presets.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <functional>

namespace lpx::models {

/// The external-data location that marks an initializer without data; the
/// same string as lpx::kShapeOnlyLocation, which the importer recognises.
inline constexpr llvm::StringLiteral kShapeOnlyLocation = "lpx-shape-only";
/// Float initializers this large become shape-only; smaller ones keep data.
inline constexpr uint64_t kShapeOnlyMinElements = 1024;
/// Largest batch an export accepts.
inline constexpr int64_t kMaxBatch = 65536;
/// Weights above this many bytes go to FILE.data beside the model, as
/// exporters do past protobuf's 2 GiB limit.
inline constexpr uint64_t kInlineDataLimit = uint64_t(1) << 30;

struct ExportOptions {
  int64_t layers = 0;  // 0: the preset's
  int64_t context = 0; // positions in the cache after the step; 0: preset default
  int64_t batch = 1;
  bool shapeOnly = false;
  /// Tokens each sequence adds in this step: 1 for a decode step, the prompt
  /// length for a prefill (context = prompt then: no past inputs).
  int64_t prompt = 1;
  /// Default-domain opset: 13 writes every op as primitives (as optimum
  /// exports at opset 13-17); 23 writes RMSNormalization, RotaryEmbedding,
  /// Attention and Gelu, as exporters of opset 23 do.
  int64_t opset = 13;
  /// The prompt position whose logits are the output (the LM head on that
  /// row only); -1: every position's.
  int64_t logitsAt = -1;
  /// With logitsAt: the output is its greedy token, `next_token`.
  bool argmax = false;
  /// Only the MLP (or mixture-of-experts) blocks with their norms and
  /// residual adds: `hidden_states` [B, S, D] in, `hidden_out` out; no
  /// embedding, attention, KV cache or LM head (the FFN side of
  /// attention-FFN disaggregation, `lpx decode --afd`).
  bool ffnOnly = false;
};

/// Checks the options against the preset and fills in the defaults; the error
/// is one line naming the option.
llvm::Error resolveOptions(const DecoderConfig &config, ExportOptions &options);

/// What an export will contain, from the graph it builds (no weight data).
struct ExportSummary {
  uint64_t parameters = 0;     // elements of all weights
  uint64_t nodes = 0;
  uint64_t shapeOnlyTensors = 0;
  bool externalData = false;   // weights in FILE.data
};
ExportSummary summarize(const DecoderConfig &config,
                        const ExportOptions &options);

/// Reports bytes of weight data written so far out of the total.
using ProgressFn = std::function<void(uint64_t done, uint64_t total)>;

/// Writes the model to `path` (and its weights to `path`.data when they are
/// too large to sit inline). On failure nothing is left behind.
llvm::Expected<ExportSummary> exportModel(const DecoderConfig &config,
                                          const ExportOptions &options,
                                          llvm::StringRef path,
                                          const ProgressFn &progress = {});

} // namespace lpx::models

#endif
