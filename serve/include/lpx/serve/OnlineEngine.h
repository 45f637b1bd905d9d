//===- OnlineEngine.h - The serving engine driven from outside --*- C++ -*-===//
//
// runServing runs a workload known in advance. An endpoint learns of its
// requests as they come, and under continuous batching a later arrival
// changes the step times of the requests already running, so it cannot
// precompute a request's timing. This drives the same engine (EngineState:
// admission, policies, stages, host I/O, network) step by step: calls are
// admitted at their simulated send time, time advances to a given instant and
// the tokens the clients have by then come out, in time order.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_SERVE_ONLINEENGINE_H
#define LPX_SERVE_ONLINEENGINE_H

#include "lpx/serve/Engine.h"

#include <memory>
#include <optional>
#include <vector>

namespace lpx::serve {

/// What a client sees of its request at a simulated instant.
struct TokenEvent {
  enum Kind : uint8_t {
    Token,    ///< its `tokens`-th output token arrives
    Done,     ///< the last token is there (after its Token event)
    Rejected, ///< a 429 (queue full) or too long for the table
  };
  Kind kind = Token;
  Nanos at = 0;
  int64_t request = 0;
  int64_t tokens = 0;
  bool tooLong = false; ///< Rejected: longer than the table's largest
};

class OnlineEngine {
public:
  /// Errors: the configuration checkEngineConfig refuses. The config's
  /// request and duration limits are ignored (the endpoint has none).
  static llvm::Expected<std::unique_ptr<OnlineEngine>>
  create(const ServiceModel &model, EngineConfig config);
  ~OnlineEngine();

  /// A request of `prompt` tokens wanting `output` (at least 1), sent at
  /// `at` (not before now()): its id.
  int64_t admit(int64_t prompt, int64_t output, Nanos at);
  /// Runs every event up to `t` (not before now()) and appends to `out` the
  /// client events up to `t`, in time order.
  void advanceTo(Nanos t, std::vector<TokenEvent> &out);
  /// The next instant at which something happens; none when idle.
  std::optional<Nanos> nextEventTime() const;
  Nanos now() const;
  /// Requests admitted and not yet Done or Rejected.
  int64_t inFlight() const;

private:
  struct Impl;
  explicit OnlineEngine(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

} // namespace lpx::serve

#endif // LPX_SERVE_ONLINEENGINE_H
