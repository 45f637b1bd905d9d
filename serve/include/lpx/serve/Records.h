//===- Records.h - What a run records per request and session --*- C++ -*-===//
#ifndef LPX_SERVE_RECORDS_H
#define LPX_SERVE_RECORDS_H

#include "lpx/serve/Units.h"

namespace lpx::serve {

/// One request (one call of a session), as the client and the server saw it.
/// Times are absolute simulated times; -1 where a phase never happened.
struct RequestRecord {
  int64_t id = 0;
  int64_t session = 0;
  int32_t call = 0;
  bool agent = false;
  Nanos arrival = 0;        ///< the client's first send
  Nanos serverArrival = -1; ///< the accepted attempt reached the server
  Nanos admission = -1;     ///< joined a batch
  Nanos firstToken = -1;    ///< first token at the client
  Nanos completion = 0;     ///< last token at the client, or final rejection
  int64_t prompt = 0;
  int64_t output = 0;
  int64_t prefilled = 0; ///< prompt tokens prefilled (fewer with a kept cache)
  int64_t retries = 0;
  bool completed = false;
  bool tooLong = false; ///< rejected: longer than the table's largest context
  Nanos network = 0;    ///< round trips of every attempt
  Nanos backoff = 0;    ///< waits before retries
  Nanos hostIo = 0;     ///< host I/O of the iterations it waited for
  Nanos hostIoFirst = 0; ///< of those, the ones up to its first token
  Nanos waitBefore = 0; ///< tool or think time before this call was sent
  // As the server saw it, for traces: the group it ran in, its first token
  // (the prefill's end) and its last token leaving the server.
  int32_t group = -1;
  Nanos serverFirstToken = -1, serverDone = -1;

  Nanos queue() const { return admission - serverArrival; }
  Nanos ttft() const { return firstToken - arrival; }
  Nanos e2e() const { return completion - arrival; }
  /// The rest of a completed request's E2E: its iterations' compute, the
  /// stage waits and other sequences' work in them (batching) included.
  Nanos compute() const { return e2e() - queue() - network - backoff - hostIo; }
  /// The same for TTFT: every round trip, backoff and the queue come before
  /// the first token (which reaches the client over the accepted attempt's
  /// way back), so only host I/O divides.
  Nanos ttftCompute() const {
    return ttft() - queue() - network - backoff - hostIoFirst;
  }
  /// Mean time between output tokens (needs output > 1).
  double tpotNs() const {
    return double(completion - firstToken) / double(output - 1);
  }
};

/// One agent session: its calls one after another, with tools between.
struct SessionRecord {
  int64_t session = 0;
  int32_t calls = 0;
  Nanos start = 0; ///< the first call's send
  Nanos end = 0;   ///< the last call's completion
  Nanos callsE2E = 0; ///< the calls' E2E summed
  Nanos waits = 0;    ///< tool times between calls summed
  bool completed = false; ///< every planned call completed

  Nanos e2e() const { return end - start; }
};

/// What the engine did, for logs and invariant checks.
enum class EngineEvent {
  Arrival,       ///< a call's first send (it enters the system)
  ServerArrival, ///< an attempt reaches the server
  Rejected,      ///< the server rejects an attempt (429 or too long)
  Admission,     ///< a request joins a batch
  Departure,     ///< the client has the last token, or gives up
};

/// Receives a run's records as they are made (in time order of completion).
class RecordSink {
public:
  virtual ~RecordSink();
  virtual void onRequest(const RequestRecord &r) = 0;
  virtual void onSession(const SessionRecord &) {}
  virtual void onEvent(Nanos, EngineEvent, int64_t /*requestId*/) {}
  /// One group's iteration starting: sequences decoding, prompt tokens
  /// prefilled, requests waiting in the admission queue, its compute time.
  virtual void onIteration(Nanos, int /*group*/, int64_t /*decoding*/,
                           int64_t /*prefillTokens*/, int64_t /*waiting*/,
                           Nanos /*compute*/) {}
  /// A request's output token reaching its client at `t`: its `tokens`-th.
  virtual void onToken(Nanos /*t*/, int64_t /*requestId*/,
                       int64_t /*tokens*/) {}
};

} // namespace lpx::serve

#endif // LPX_SERVE_RECORDS_H
