//===- SyntheticSources.cpp - Poisson, closed-loop and agent clients ------===//

#include "Sources.h"

#include "lpx/serve/Random.h"

#include <cmath>
#include <map>
#include <vector>

using llvm::Expected;

namespace lpx::serve {

RequestSource::~RequestSource() = default;

namespace {
enum Stream : uint64_t { kArrivals = 1, kLengths = 2, kTools = 3 };

int64_t draw(Rng &rng, TokenRange r) { return rng.uniformInt(r.lo, r.hi); }

/// What the generated workloads share: the spec, the stream of lengths, a
/// count of sessions started and, for open workloads (a rate), the Poisson
/// arrival clock; endless (the run's limits stop them).
class GeneratedSource : public RequestSource {
public:
  GeneratedSource(const WorkloadSpec &w, uint64_t seed)
      : spec(w), lengths(streamSeed(seed, kLengths)),
        arrivals(streamSeed(seed, kArrivals)),
        meanGap(w.rate > 0 ? double(kNanosPerS) / w.rate : 0) {}
  bool endless() const override { return true; }

protected:
  /// The next Poisson arrival: exponential gaps of mean 1/rate, accumulated
  /// in double nanoseconds and rounded per arrival (no drift).
  Nanos nextArrivalTime() {
    clock += arrivals.exponential(meanGap);
    return Nanos(std::llround(clock));
  }
  /// A call of `session`, its prompt and output drawn from the spec's ranges.
  Call drawnCall(int64_t session) {
    Call c;
    c.session = session;
    c.prompt = draw(lengths, spec.prompt);
    c.output = draw(lengths, spec.output);
    return c;
  }
  WorkloadSpec spec;
  Rng lengths, arrivals;
  int64_t sessions = 0;

private:
  double meanGap, clock = 0;
};

class PoissonSource : public GeneratedSource {
public:
  using GeneratedSource::GeneratedSource;
  Expected<std::optional<Call>> nextArrival() override {
    Call c = drawnCall(sessions++);
    c.sendAt = c.issuedAt = nextArrivalTime();
    return std::optional<Call>(c);
  }
  std::optional<Call> followUp(const Call &, Nanos, bool) override {
    return std::nullopt;
  }
};

class ClosedSource : public GeneratedSource {
public:
  using GeneratedSource::GeneratedSource;
  Expected<std::optional<Call>> nextArrival() override {
    if (sessions == spec.users)
      return std::optional<Call>();
    return std::optional<Call>(drawnCall(sessions++));
  }
  std::optional<Call> followUp(const Call &done, Nanos at, bool) override {
    Call c = drawnCall(done.session);
    c.index = done.index + 1;
    c.sendAt = c.issuedAt = at + spec.think;
    c.waitBefore = spec.think;
    return c;
  }
};

class AgentSource : public GeneratedSource {
public:
  AgentSource(const WorkloadSpec &w, uint64_t seed)
      : GeneratedSource(w, seed), tools(streamSeed(seed, kTools)) {}

  Expected<std::optional<Call>> nextArrival() override {
    // Every draw of a session is made here, in one order, so a session's
    // plan does not depend on how the serving goes.
    Plan plan;
    int64_t calls = draw(lengths, spec.calls);
    int64_t prompt = draw(lengths, spec.prompt);
    for (int64_t k = 0; k < calls; ++k) {
      Step s;
      if (k > 0) {
        int64_t result = draw(lengths, spec.result);
        s.cachedPrefix = plan.steps.back().prompt + plan.steps.back().output;
        prompt = s.cachedPrefix + result;
        s.tool = tools.uniformInt(spec.tool.lo, spec.tool.hi);
      }
      s.prompt = prompt;
      s.output = draw(lengths, spec.output);
      plan.steps.push_back(s);
    }
    Call c = make(sessions, plan, 0);
    c.sendAt = c.issuedAt = nextArrivalTime();
    if (calls > 1)
      open.emplace(sessions, std::move(plan));
    ++sessions;
    return std::optional<Call>(c);
  }

  std::optional<Call> followUp(const Call &done, Nanos at,
                               bool completed) override {
    auto it = open.find(done.session);
    if (it == open.end())
      return std::nullopt;
    size_t k = size_t(done.index) + 1;
    if (!completed || k >= it->second.steps.size()) {
      open.erase(it);
      return std::nullopt;
    }
    Call c = make(done.session, it->second, k);
    c.sendAt = c.issuedAt = at + c.waitBefore;
    if (k + 1 == it->second.steps.size())
      open.erase(it);
    return c;
  }

private:
  struct Step {
    int64_t prompt = 0, output = 0, cachedPrefix = 0;
    Nanos tool = 0; // before this call
  };
  struct Plan {
    std::vector<Step> steps;
  };
  static Call make(int64_t session, const Plan &p, size_t k) {
    Call c;
    c.session = session;
    c.index = int32_t(k);
    c.prompt = p.steps[k].prompt;
    c.output = p.steps[k].output;
    c.cachedPrefix = p.steps[k].cachedPrefix;
    c.waitBefore = p.steps[k].tool;
    c.agent = true;
    c.hasNext = k + 1 < p.steps.size();
    return c;
  }

  Rng tools;
  std::map<int64_t, Plan> open; // sessions with calls still to send
};
} // namespace

Expected<std::unique_ptr<RequestSource>>
makeRequestSource(const WorkloadSpec &spec, uint64_t seed) {
  switch (spec.kind) {
  case WorkloadKind::Poisson:
    return std::make_unique<PoissonSource>(spec, seed);
  case WorkloadKind::Closed:
    return std::make_unique<ClosedSource>(spec, seed);
  case WorkloadKind::Agent:
    return std::make_unique<AgentSource>(spec, seed);
  case WorkloadKind::Trace:
    return makeTraceSource(spec.traceFile);
  }
  llvm_unreachable("unknown workload kind");
}

} // namespace lpx::serve
