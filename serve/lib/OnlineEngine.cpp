//===- OnlineEngine.cpp - The engine stepped from outside -----------------===//
//
// No source of arrivals (calls come through admit) and a sink that turns the
// engine's token and request records into client events. A token is reported
// when its iteration returns, at its client time (the return plus the way
// back), which may lie past the instant advanced to: events wait in a heap
// until their time has come.
//
//===----------------------------------------------------------------------===//

#include "lpx/serve/OnlineEngine.h"

#include "EngineState.h"

#include <queue>

namespace lpx::serve {

namespace {

/// Calls come only through admit().
class NoArrivals : public RequestSource {
public:
  llvm::Expected<std::optional<Call>> nextArrival() override {
    return std::nullopt;
  }
  std::optional<Call> followUp(const Call &, Nanos, bool) override {
    return std::nullopt;
  }
};

struct Pending {
  TokenEvent ev;
  uint64_t seq;
  bool operator>(const Pending &o) const {
    return ev.at != o.ev.at ? ev.at > o.ev.at : seq > o.seq;
  }
};

class ClientEvents : public RecordSink {
public:
  void onToken(Nanos t, int64_t id, int64_t tokens) override {
    push({TokenEvent::Token, t, id, tokens, false});
  }
  void onRequest(const RequestRecord &r) override {
    push({r.completed ? TokenEvent::Done : TokenEvent::Rejected, r.completion,
          r.id, r.completed ? r.output : 0, r.tooLong});
    --inFlight;
  }
  void push(const TokenEvent &ev) { heap.push(Pending{ev, seq++}); }

  std::priority_queue<Pending, std::vector<Pending>, std::greater<Pending>>
      heap;
  uint64_t seq = 0;
  int64_t inFlight = 0;
};

} // namespace

struct OnlineEngine::Impl {
  Impl(const ServiceModel &model, const EngineConfig &config)
      : state(model, source, config, sink) {}
  NoArrivals source;
  ClientEvents sink;
  EngineState state;
  Nanos now = 0;
  int64_t calls = 0;
};

OnlineEngine::OnlineEngine(std::unique_ptr<Impl> impl)
    : impl(std::move(impl)) {}
OnlineEngine::~OnlineEngine() = default;

llvm::Expected<std::unique_ptr<OnlineEngine>>
OnlineEngine::create(const ServiceModel &model, EngineConfig config) {
  if (llvm::Error e = checkEngineConfig(model, config))
    return std::move(e);
  config.requests = -1;
  config.duration = -1;
  return std::unique_ptr<OnlineEngine>(
      new OnlineEngine(std::make_unique<Impl>(model, config)));
}

int64_t OnlineEngine::admit(int64_t prompt, int64_t output, Nanos at) {
  Call call;
  call.session = impl->calls++;
  call.sendAt = call.issuedAt = std::max(at, impl->now);
  call.prompt = prompt;
  call.output = std::max<int64_t>(output, 1);
  ++impl->sink.inFlight;
  // No limits are set, so the call always starts.
  return *impl->state.startOnline(call);
}

void OnlineEngine::advanceTo(Nanos t, std::vector<TokenEvent> &out) {
  t = std::max(t, impl->now);
  // No source to read from: dispatching cannot fail.
  llvm::cantFail(impl->state.runUntil(t));
  impl->now = t;
  auto &heap = impl->sink.heap;
  while (!heap.empty() && heap.top().ev.at <= t) {
    out.push_back(heap.top().ev);
    heap.pop();
  }
}

std::optional<Nanos> OnlineEngine::nextEventTime() const {
  std::optional<Nanos> next = impl->state.nextEventTime();
  const auto &heap = impl->sink.heap;
  if (!heap.empty() && (!next || heap.top().ev.at < *next))
    next = heap.top().ev.at;
  return next;
}

Nanos OnlineEngine::now() const { return impl->now; }

int64_t OnlineEngine::inFlight() const { return impl->sink.inFlight; }

} // namespace lpx::serve
