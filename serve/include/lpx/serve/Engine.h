//===- Engine.h - The discrete-event serving simulation ---------*- C++ -*-===//
//
// Clients send calls over a network to one deployment. The server keeps an
// admission queue and groups of sequences; each group runs iterations (a
// decode step of its decoding sequences and, by policy, prefill) through the
// pipeline's stages, a stage working on one group at a time. Every service
// time comes from the ServiceModel; the rest of the latency is queueing,
// host I/O (from the table) and the network. Deterministic: same inputs and
// seed, same records.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_SERVE_ENGINE_H
#define LPX_SERVE_ENGINE_H

#include "lpx/serve/Network.h"
#include "lpx/serve/Records.h"
#include "lpx/serve/ServiceTable.h"
#include "lpx/serve/Workload.h"

namespace lpx::serve {

enum class Policy {
  /// Each iteration steps every decoding sequence of the group and prefills
  /// one chunk (the table's prefill_chunk, or a whole prompt when it is 0) of
  /// the oldest sequence still in prefill: prefill interleaved with decode.
  Chunked,
  /// An iteration with sequences to prefill prefills all of them (padded to
  /// the longest, split into the table's largest prefill batch) and no one
  /// decodes in it.
  PrefillFirst,
};
llvm::Expected<Policy> parsePolicy(llvm::StringRef text);
const char *policyName(Policy p);

struct EngineConfig {
  /// Sequences in one group's step (never more than the table's largest
  /// decode batch; all groups together never more than its max_sequences).
  int64_t maxBatch = 1;
  /// Groups in flight through the stages; 0: one per stage.
  int64_t groups = 0;
  Policy policy = Policy::Chunked;
  /// Places in the admission queue; -1: unbounded.
  int64_t queueCapacity = -1;
  RetrySpec retry;
  NetworkSpec network;
  /// An agent session's KV cache stays resident between its calls (while the
  /// cache slots allow: the oldest kept cache is evicted for a new request),
  /// so the next call prefills only its new tokens.
  bool keepSessionCache = false;
  /// No call is sent after this time (-1: no limit).
  Nanos duration = -1;
  /// At most this many calls are sent (-1: no limit).
  int64_t requests = -1;
  uint64_t seed = 1;
};

struct RunStats {
  Nanos end = 0;           ///< the last event
  int64_t calls = 0;       ///< calls sent
  int64_t peakWaiting = 0; ///< the admission queue's longest
  int64_t peakRunning = 0; ///< most sequences in batches at once
  int64_t iterations = 0;
  int64_t groups = 0; ///< groups in flight used
  int64_t evictions = 0; ///< kept session caches evicted
};

/// The configuration's checks against the table (runServing's and
/// OnlineEngine's): batch, groups, queue, retries.
llvm::Error checkEngineConfig(const ServiceModel &model,
                              const EngineConfig &config);

/// Runs until the source ends (or the limits stop it) and every call sent is
/// done. Errors: a configuration the table cannot serve, a trace's bad line.
llvm::Expected<RunStats> runServing(const ServiceModel &model,
                                    RequestSource &source,
                                    const EngineConfig &config,
                                    RecordSink &sink);

} // namespace lpx::serve

#endif // LPX_SERVE_ENGINE_H
