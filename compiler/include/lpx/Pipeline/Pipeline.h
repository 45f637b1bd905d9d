//===- Pipeline.h - The compile pipeline from level 1 to level 3 -*- C++ -*-===//
#ifndef LPX_PIPELINE_PIPELINE_H
#define LPX_PIPELINE_PIPELINE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include <string>

namespace lpx {

/// The chip is not an option: it is attached to the module before the
/// pipeline runs (lpx-attach-chip, or attachChip with an in-memory chip).
struct CompileOptions {
  unsigned nodes = 1;
  std::string weights;     // number format of MatMul weights; empty: keep
  std::string activations; // number format of other values; empty: keep
  bool residentKV = false; // KV cache resident in SRAM (lpx-resident-kv)
  unsigned tp = 0;         // chips per tensor-parallel group; 0: chosen
  unsigned pp = 0;         // pipeline stages; 0: chosen
  /// With residentKV: the cache positions of a prefill exported without a
  /// past (its present outputs become states this long); 0: none.
  int64_t kvContext = 0;
  /// A chunked prefill: the model is the step of one chunk into resident
  /// state, and the program runs it this many times, pipelined
  /// (lpx-unroll-chunks, after placement); 1: the model as it is.
  unsigned chunks = 1;
  /// On a mesh, values of at most these bytes are replicated on every chip
  /// of their group (lpx-partition's replicate-bytes): a decode step's
  /// rows (llama2-7b's 8 KiB hidden state at fp16, 64 KiB at batch 8),
  /// where hops cost more than bytes; a prefill's hundreds of rows keep
  /// the reduce-scatter, whose links carry a tp-th of an all-reduce's.
  uint64_t replicateBytes = 64 << 10;
};

/// How far the pipeline goes: each IR level can be stopped at and printed.
enum class StopAfter { Graph, Partitioned, Scheduled };

/// Adds decompose, partition, schedule and allocate-sram (up to `stop`).
/// Adds the passes; returns how many (a pass nested on functions counts
/// once), so a driver can show how far a compile has got.
unsigned buildPipeline(mlir::OpPassManager &pm, const CompileOptions &opts,
                       StopAfter stop = StopAfter::Scheduled);

/// Registers the pipeline as `lpx-compile{chip=...}` for lpx-opt: attach the
/// chip, then buildPipeline.
void registerPipelines();

} // namespace lpx

#endif
