//===- DecoderGraph.h - One decode step of a decoder-only LLM ---*- C++ -*-===//
#ifndef LPX_MODELS_DECODERGRAPH_H
#define LPX_MODELS_DECODERGRAPH_H

#include "GraphBuilder.h"
#include "lpx/models/Presets.h"

namespace lpx::models {

/// The static shape of an exported step: `batch` sequences, each adding
/// `query` tokens to a cache that then holds `context` positions (context -
/// query past). query = 1 is a decode step; query = context is the prefill of
/// a whole prompt, which has no past inputs.
struct StepShape {
  int64_t layers, context, batch;
  int64_t query = 1;
  /// Opset 23's RMSNormalization, RotaryEmbedding, Attention and Gelu
  /// instead of their primitive forms.
  bool opset23 = false;
  /// The query position whose logits are returned ([B, 1, V]: the LM head
  /// runs on that row only, as serving engines do); -1: every position.
  int64_t logitsAt = -1;
  /// With logitsAt: return the greedy token (ArgMax of the logits,
  /// `next_token` [B, 1] int64) instead of the logits.
  bool argmax = false;
  /// The FFN blocks alone (ExportOptions::ffnOnly).
  bool ffnOnly = false;
  int64_t past() const { return context - query; }
};

/// Appends the graph of one step (inputs input_ids, attention_mask,
/// position_ids, past_key_values.{i}.key/.value when there is a past;
/// outputs logits for every query token, or the one at `logitsAt`, or its
/// ArgMax; present.{i}.key/.value) in the
/// primitive ops an HF optimum export has. With several query tokens a
/// causal mask keeps each from attending to the tokens after it.
void buildDecoderStep(const DecoderConfig &config, const StepShape &shape,
                      GraphBuilder &b);

} // namespace lpx::models

#endif
