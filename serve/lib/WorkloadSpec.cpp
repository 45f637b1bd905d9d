//===- WorkloadSpec.cpp - Parsing `--workload` ----------------------------===//

#include "lpx/serve/Workload.h"
#include "KeyValueSpec.h"

#include "llvm/ADT/StringMap.h"

using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

namespace lpx::serve {

static Error fail(const std::string &msg) {
  return failAbout("workload", msg);
}

Expected<WorkloadSpec> parseWorkload(StringRef spec) {
  auto [kind, rest] = spec.split(':');
  WorkloadSpec w;
  if (kind == "trace") {
    if (rest.empty())
      return fail("trace: needs a file (trace:FILE)");
    w.kind = WorkloadKind::Trace;
    w.traceFile = rest.str();
    return w;
  }
  const char *const poissonKeys[] = {"rate", "prompt", "output"};
  const char *const closedKeys[] = {"users", "think", "prompt", "output"};
  const char *const agentKeys[] = {"rate",   "calls",  "tool",
                                   "prompt", "result", "output"};
  llvm::ArrayRef<const char *> keys;
  if (kind == "poisson")
    w.kind = WorkloadKind::Poisson, keys = poissonKeys;
  else if (kind == "closed")
    w.kind = WorkloadKind::Closed, keys = closedKeys;
  else if (kind == "agent")
    w.kind = WorkloadKind::Agent, keys = agentKeys;
  else
    return fail("unknown kind '" + kind.str() +
                "' (poisson, closed, agent or trace)");

  // Errors from here on name the kind: "workload: poisson: ...".
  const KeyValueSpec items("workload: " + kind.str(), rest, "key=value");
  auto prefixed = [&](Error e) {
    return items.fail(llvm::toString(std::move(e)));
  };
  llvm::StringMap<StringRef> values;
  auto add = [&](StringRef, StringRef key, StringRef value) -> Error {
    if (llvm::find(keys, key) == keys.end()) {
      std::string known;
      for (const char *k : keys)
        known += std::string(known.empty() ? "" : ", ") + k;
      return items.fail("unknown key '" + key.str() + "' (known: " + known +
                        ")");
    }
    if (!values.try_emplace(key, value.trim()).second)
      return items.fail("key '" + key.str() + "' given twice");
    return Error::success();
  };
  if (Error e = items.forEach(add))
    return std::move(e);
  for (const char *k : keys)
    if (!values.count(k))
      return items.fail("key '" + std::string(k) + "' is missing");

  auto get = [&](const char *k) { return values.lookup(k); };
  if (values.count("rate")) {
    auto r = parsePositive(get("rate"), "rate");
    if (!r)
      return prefixed(r.takeError());
    w.rate = *r;
  }
  if (values.count("users")) {
    auto u = parseCount(get("users"), "users");
    if (!u)
      return prefixed(u.takeError());
    if (*u < 1)
      return items.fail("'users' must be at least 1");
    w.users = *u;
  }
  if (values.count("think")) {
    auto t = parseDuration(get("think"), "think");
    if (!t)
      return prefixed(t.takeError());
    w.think = *t;
  }
  auto tokens = [&](const char *k, int64_t min, TokenRange &out) -> Error {
    if (!values.count(k))
      return Error::success();
    auto r = parseTokenRange(get(k), k, min);
    if (!r)
      return prefixed(r.takeError());
    out = *r;
    return Error::success();
  };
  if (Error e = tokens("prompt", 1, w.prompt))
    return std::move(e);
  if (Error e = tokens("output", 1, w.output))
    return std::move(e);
  if (Error e = tokens("calls", 1, w.calls))
    return std::move(e);
  if (Error e = tokens("result", 0, w.result))
    return std::move(e);
  if (values.count("tool")) {
    auto t = parseDurationRange(get("tool"), "tool");
    if (!t)
      return prefixed(t.takeError());
    w.tool = *t;
  }
  return w;
}

} // namespace lpx::serve
