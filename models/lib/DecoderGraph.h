//===- DecoderGraph.h - One decode step of a decoder-only LLM ---*- C++ -*-===//
#ifndef LPX_MODELS_DECODERGRAPH_H
#define LPX_MODELS_DECODERGRAPH_H

#include "GraphBuilder.h"
#include "lpx/models/Presets.h"

namespace lpx::models {

/// The static shape of an exported step: `batch` sequences, each adding one
/// token to a cache that then holds `context` positions (context - 1 past).
struct StepShape {
  int64_t layers, context, batch;
};

/// Appends the graph of one decode step (inputs input_ids, attention_mask,
/// position_ids, past_key_values.{i}.key/.value; outputs logits,
/// present.{i}.key/.value) in the primitive ops an HF optimum export has.
void buildDecoderStep(const DecoderConfig &config, const StepShape &shape,
                      GraphBuilder &b);

} // namespace lpx::models

#endif
