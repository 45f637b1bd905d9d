//===- Server.h - lpx endpoint: the HTTP server -----------------*- C++ -*-===//
//
// An OpenAI-compatible HTTP server (cpp-httplib) whose answers are timed by
// the simulated deployment: POST /v1/chat/completions and /v1/completions
// (streamed as server-sent events or whole), GET /v1/models and /health.
// Bounded: request body, URI and header line (the library), header count,
// connections (served at once and waiting; more get 503), read and write
// timeouts.
// SIGTERM or SIGINT: new requests get 503, the open ones finish (at most
// kDrainSeconds of wall time), the server stops and runEndpoint returns.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ENDPOINT_SERVER_H
#define LPX_ENDPOINT_SERVER_H

#include "lpx/endpoint/Content.h"
#include "lpx/serve/Engine.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace lpx::endpoint {

struct EndpointOptions {
  std::string host = "127.0.0.1";
  int port = 8000; ///< 0: a free port (the listening line names it)
  /// Simulated seconds per wall second: 1 real time, 0.01 a hundred times
  /// slower (steps of microseconds become visible), 1000 faster.
  double timeScale = 1;
  std::string model; ///< the id /v1/models lists and requests must name
  /// Output tokens of a request without max_tokens (finish_reason "stop").
  int64_t defaultOutput = 16;
  size_t maxBodyBytes = 1 << 20;
  size_t maxHeaders = 64;
  size_t threads = 64; ///< connections served at once (as many may wait)
  int retryAfterSeconds = 1; ///< the Retry-After of a 429
};
constexpr int kDrainSeconds = 10;

/// Parses "HOST:PORT" (an IPv4 address or "localhost"; PORT 0..65535).
llvm::Error parseListen(llvm::StringRef text, EndpointOptions &opts);

/// Serves until SIGTERM or SIGINT. Prints one "listening on" line to `log`
/// (flushed) once bound. Errors: the address cannot be bound, the engine's
/// configuration.
llvm::Error runEndpoint(const EndpointOptions &opts,
                        const serve::ServiceModel &model,
                        const serve::EngineConfig &config, Content &content,
                        llvm::raw_ostream &log);

} // namespace lpx::endpoint

#endif // LPX_ENDPOINT_SERVER_H
