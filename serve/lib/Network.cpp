//===- Network.cpp - Network round trips and client retries ---------------===//

#include "lpx/serve/Network.h"
#include "Fail.h"

#include "llvm/ADT/SmallVector.h"

#include <cmath>

using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

namespace lpx::serve {

/// The standard normal's 0.99 quantile.
static constexpr double kZ99 = 2.3263478740408408;

Expected<NetworkSpec> parseNetwork(StringRef spec) {
  NetworkSpec n;
  n.text = spec.str();
  spec = spec.trim();
  if (spec == "0" || spec == "none")
    return n;
  auto [kind, rest] = spec.split(':');
  if (kind == "fixed") {
    auto t = parseDuration(rest, "network fixed");
    if (!t)
      return t.takeError();
    n.kind = NetworkSpec::Fixed;
    n.fixed = *t;
    return n;
  }
  if (kind != "lognormal")
    return failLine("network: unknown kind '" + kind.str() +
                "' (0, fixed:T or lognormal:median=T,p99=T)");
  llvm::SmallVector<StringRef> items;
  rest.split(items, ',', -1, false);
  bool haveMedian = false, haveP99 = false;
  for (StringRef item : items) {
    auto [key, value] = item.split('=');
    key = key.trim();
    Nanos *slot = key == "median" ? &n.median : key == "p99" ? &n.p99 : nullptr;
    if (!slot)
      return failLine("network: lognormal: unknown key '" + key.str() +
                  "' (median, p99)");
    bool &have = key == "median" ? haveMedian : haveP99;
    if (have)
      return failLine("network: lognormal: key '" + key.str() + "' given twice");
    have = true;
    auto t = parseDuration(value, ("network " + key).str());
    if (!t)
      return t.takeError();
    *slot = *t;
  }
  if (!haveMedian || !haveP99)
    return failLine("network: lognormal needs median=T and p99=T");
  if (n.median <= 0)
    return failLine("network: lognormal median must be above 0");
  if (n.p99 < n.median)
    return failLine("network: lognormal p99 is below its median");
  n.kind = NetworkSpec::LogNormal;
  return n;
}

Nanos drawRoundTrip(const NetworkSpec &spec, Rng &rng) {
  switch (spec.kind) {
  case NetworkSpec::None:
    return 0;
  case NetworkSpec::Fixed:
    return spec.fixed;
  case NetworkSpec::LogNormal: {
    double sigma = std::log(double(spec.p99) / double(spec.median)) / kZ99;
    return Nanos(std::llround(double(spec.median) *
                              std::exp(sigma * rng.standardNormal())));
  }
  }
  return 0;
}

Expected<RetrySpec> parseRetry(StringRef spec) {
  RetrySpec r;
  spec = spec.trim();
  if (spec == "0")
    return r;
  auto [count, rest] = spec.split(',');
  auto n = parseCount(count, "retry");
  if (!n)
    return n.takeError();
  r.retries = *n;
  StringRef base = rest.trim();
  if (base.empty() && r.retries > 0)
    return failLine("retry: needs base=T (retry N,base=T)");
  if (!base.empty()) {
    if (!base.consume_front("base="))
      return failLine("retry: unknown key in '" + rest.str() + "' (base=T)");
    auto t = parseDuration(base, "retry base");
    if (!t)
      return t.takeError();
    r.base = *t;
  }
  return r;
}

Nanos drawBackoff(const RetrySpec &spec, int64_t k, Rng &rng) {
  double cap = double(spec.base) * std::ldexp(1.0, int(std::min<int64_t>(k - 1, 40)));
  return Nanos(std::llround(cap * rng.uniform01()));
}

} // namespace lpx::serve
