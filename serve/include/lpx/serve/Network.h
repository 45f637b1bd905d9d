//===- Network.h - Network round trips and client retries ------*- C++ -*-===//
//
// `--network`: `0` (none), `fixed:2ms`, `lognormal:median=20ms,p99=80ms`; one
// round trip drawn per attempt of a request, half on the way in, the rest on
// the way back. `--retry N,base=T`: a rejected (429) attempt is retried at most
// N times, the k-th retry (k = 1..N) after a "full jitter" exponential backoff,
// uniform in [0, T * 2^(k-1)].
//
//===----------------------------------------------------------------------===//
#ifndef LPX_SERVE_NETWORK_H
#define LPX_SERVE_NETWORK_H

#include "lpx/serve/Random.h"
#include "lpx/serve/Units.h"

#include "llvm/Support/Error.h"

#include <string>

namespace lpx::serve {

struct NetworkSpec {
  enum Kind { None, Fixed, LogNormal } kind = None;
  Nanos fixed = 0;
  Nanos median = 0;
  Nanos p99 = 0;
  /// The spec as given, for reports.
  std::string text = "0";
};
llvm::Expected<NetworkSpec> parseNetwork(llvm::StringRef spec);

/// One round trip: ln(rtt) is normal with mean ln(median) and standard
/// deviation ln(p99 / median) / z(0.99).
Nanos drawRoundTrip(const NetworkSpec &spec, Rng &rng);

struct RetrySpec {
  int64_t retries = 0;
  Nanos base = 0;
};
/// `N,base=T` (or `0` for none).
llvm::Expected<RetrySpec> parseRetry(llvm::StringRef spec);
/// The wait before retry k (1-based).
Nanos drawBackoff(const RetrySpec &spec, int64_t k, Rng &rng);

} // namespace lpx::serve

#endif // LPX_SERVE_NETWORK_H
