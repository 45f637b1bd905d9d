//===- Presets.h - Decoder-only transformers with published shapes -*- C++ -*-===//
//
// The dimensions of real LLMs (from their published configurations) and of
// tiny variants for correctness tests. `lpx models export` turns a preset into
// an ONNX decode-step model shaped like an HF optimum export.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_MODELS_PRESETS_H
#define LPX_MODELS_PRESETS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>

namespace lpx::models {

enum class Family {
  Llama,   // RMSNorm, rotary, grouped-query attention, SwiGLU MLP
  Mixtral, // Llama attention, top-k routed SwiGLU experts
  Gpt2,    // LayerNorm, learned positions, fused QKV with biases, GELU MLP
};

struct DecoderConfig {
  const char *name;
  Family family;
  int64_t vocab;
  int64_t hidden;       // D
  int64_t layers;
  int64_t heads;        // query heads
  int64_t kvHeads;      // key/value heads (== heads: multi-head attention)
  int64_t ffn;          // MLP (or each expert's) inner width
  int64_t experts;      // 0: dense MLP
  int64_t expertsPerToken;
  int64_t maxContext;   // published context length (learned positions: table size)
  int64_t defaultContext;
  double ropeTheta;     // rotary base (Llama, Mixtral)
  double normEps;
  bool randomWeights;   // tiny presets: seeded random data is the point
  const char *source;   // where the dimensions come from

  int64_t headDim() const { return hidden / heads; }
};

/// Every preset, in the order `lpx models list` prints them.
llvm::ArrayRef<DecoderConfig> presets();
/// The preset called `name`, or null.
const DecoderConfig *findPreset(llvm::StringRef name);
llvm::StringRef familyName(Family f);

} // namespace lpx::models

#endif
