//===- Engine.cpp - The event loop of the serving simulation --------------===//

#include "EngineState.h"
#include "Fail.h"

#include <cmath>

using llvm::Error;
using llvm::Expected;

namespace lpx::serve {

RecordSink::~RecordSink() = default;

static Error fail(const std::string &msg) {
  return failAbout("", msg);
}

Expected<Policy> parsePolicy(llvm::StringRef text) {
  if (text == "chunked")
    return Policy::Chunked;
  if (text == "prefill-first")
    return Policy::PrefillFirst;
  return fail("policy: unknown '" + text.str() +
              "' (chunked or prefill-first)");
}

const char *policyName(Policy p) {
  return p == Policy::Chunked ? "chunked" : "prefill-first";
}

namespace {
enum Stream : uint64_t { kNetwork = 11, kRetry = 12 };
}

EngineState::EngineState(const ServiceModel &model, RequestSource &source,
                         const EngineConfig &config, RecordSink &sink)
    : model(model), source(source), cfg(config), sink(sink),
      network(streamSeed(config.seed, kNetwork)),
      retry(streamSeed(config.seed, kRetry)) {
  const ServiceTable &t = model.table();
  int64_t nGroups = cfg.groups > 0 ? cfg.groups : t.stages;
  groups.resize(size_t(nGroups));
  stageFree.assign(size_t(t.stages), 0);
  auto cumulative = [](const std::vector<double> &shares) {
    std::vector<uint64_t> out;
    double cum = 0;
    for (double share : shares) {
      cum += share;
      out.push_back(uint64_t(std::llround(std::min(cum, 1.0) * 0x1.0p32)));
    }
    return out;
  };
  cumStepShare = cumulative(t.stageShare);
  cumPrefillShare = cumulative(t.prefillStageShare.empty()
                                   ? t.stageShare
                                   : t.prefillStageShare);
  cacheLimit = t.maxSequences;
  stats.groups = nGroups;
}

void EngineState::schedule(Nanos t, EventKind kind, int32_t a, int32_t b) {
  events.push(Event{t, seq++, kind, a, b});
}

int32_t EngineState::newLive(const Call &call) {
  int32_t id;
  if (!freeIds.empty()) {
    id = freeIds.back();
    freeIds.pop_back();
    lives[size_t(id)] = Live();
  } else {
    id = int32_t(lives.size());
    lives.emplace_back();
  }
  Live &l = lives[size_t(id)];
  l.call = call;
  l.rec.id = nextRequestId++;
  l.rec.session = call.session;
  l.rec.call = call.index;
  l.rec.agent = call.agent;
  l.rec.arrival = call.sendAt;
  l.rec.prompt = call.prompt;
  l.rec.output = call.output;
  l.rec.waitBefore = call.waitBefore;
  return id;
}

void EngineState::freeLive(int32_t id) {
  lives[size_t(id)].free = true;
  freeIds.push_back(id);
}

Error EngineState::dispatch(const Event &ev) {
  stats.end = ev.t;
  if (ev.kind == EventKind::Pull) {
    if (pendingArrival)
      startCall(*pendingArrival, ev.t);
    pendingArrival.reset();
    return pullArrival(ev.t);
  }
  // Every other kind is one member taking (entity, time), in EventKind order.
  static constexpr void (EngineState::*kHandle[])(int32_t, Nanos) = {
      &EngineState::send, &EngineState::serverArrive,
      &EngineState::clientReject, &EngineState::groupReturn,
      &EngineState::clientDone,   &EngineState::nextChunk,
      &EngineState::prefillOut,   &EngineState::firstStageFree};
  (this->*kHandle[size_t(ev.kind) - 1])(ev.a, ev.t);
  return Error::success();
}

Expected<RunStats> EngineState::run() {
  if (Error e = pullArrival(0))
    return std::move(e);
  while (!events.empty()) {
    Event ev = events.top();
    events.pop();
    if (Error e = dispatch(ev))
      return std::move(e);
  }
  return stats;
}

std::optional<int64_t> EngineState::startOnline(const Call &call) {
  int64_t id = nextRequestId;
  if (!startCall(call, call.sendAt))
    return std::nullopt;
  return id;
}

Error EngineState::runUntil(Nanos t) {
  while (!events.empty() && events.top().t <= t) {
    Event ev = events.top();
    events.pop();
    if (Error e = dispatch(ev))
      return e;
  }
  return Error::success();
}

std::optional<Nanos> EngineState::nextEventTime() const {
  if (events.empty())
    return std::nullopt;
  return events.top().t;
}

Error checkEngineConfig(const ServiceModel &model, const EngineConfig &config) {
  if (config.maxBatch < 1)
    return fail("max batch must be at least 1");
  if (config.maxBatch > model.maxDecodeBatch())
    return fail("max batch " + std::to_string(config.maxBatch) +
                " is above the service table's largest decode batch (" +
                std::to_string(model.maxDecodeBatch()) + ")");
  if (config.groups < 0)
    return fail("groups must not be negative");
  if (config.groups > model.table().stages)
    return fail("groups in flight (" + std::to_string(config.groups) +
                ") above the pipeline's stages (" +
                std::to_string(model.table().stages) +
                "): a stage works on one group at a time");
  if (config.queueCapacity < -1)
    return fail("queue capacity must be -1 (unbounded) or at least 0");
  if (config.retry.retries < 0)
    return fail("retries must not be negative");
  return Error::success();
}

Expected<RunStats> runServing(const ServiceModel &model, RequestSource &source,
                              const EngineConfig &config, RecordSink &sink) {
  if (Error e = checkEngineConfig(model, config))
    return std::move(e);
  if (source.endless() && config.requests < 0 && config.duration < 0)
    return fail("the workload never ends by itself: give a number of requests "
                "or a duration");
  EngineState state(model, source, config, sink);
  return state.run();
}

} // namespace lpx::serve
