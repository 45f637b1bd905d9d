//===- TraceSource.cpp - Calls replayed from a trace ----------------------===//
//
// Rows are read one at a time. A row without a session is a request alone,
// sent at its arrival time. Rows of one session are its calls in order: a
// call is sent at its arrival time or, if later, when the session's previous
// call has finished and that call's tool time has passed; a row that arrives
// while its session is busy waits in the session's queue. Memory is bounded by
// the sessions active at once.
//
//===----------------------------------------------------------------------===//

#include "Sources.h"

#include "lpx/serve/TraceReader.h"

#include <deque>
#include <map>

using llvm::Expected;

namespace lpx::serve {

namespace {
class TraceSource : public RequestSource {
public:
  explicit TraceSource(std::unique_ptr<TraceReader> r) : reader(std::move(r)) {}

  Expected<std::optional<Call>> nextArrival() override {
    while (true) {
      auto row = reader->next();
      if (!row)
        return row.takeError();
      if (!*row)
        return std::optional<Call>();
      TraceRow &r = **row;
      forgetIdle(r.arrival);
      if (r.session.empty()) {
        Call c;
        c.session = nextId++;
        c.sendAt = c.issuedAt = r.arrival;
        c.prompt = r.prompt;
        c.output = r.output;
        return std::optional<Call>(c);
      }
      auto [it, fresh] = sessions.try_emplace(r.session);
      Session &s = it->second;
      if (fresh)
        s.id = nextId++;
      if (s.busy) {
        s.pending.push_back(std::move(r));
        continue;
      }
      return std::optional<Call>(start(s, r, r.arrival));
    }
  }

  std::optional<Call> followUp(const Call &done, Nanos at,
                               bool completed) override {
    auto it = byId.find(done.session);
    if (it == byId.end())
      return std::nullopt;
    Session &s = *it->second;
    s.busy = false;
    s.readyAt = at + s.toolAfter;
    s.lastContext = completed ? done.prompt + done.output : 0;
    if (s.pending.empty())
      return std::nullopt;
    TraceRow r = std::move(s.pending.front());
    s.pending.pop_front();
    return start(s, r, at);
  }

private:
  struct Session {
    int64_t id = 0;
    int32_t calls = 0;
    bool busy = false;
    Nanos readyAt = 0;
    Nanos toolAfter = 0;
    int64_t lastContext = 0;
    std::deque<TraceRow> pending;
  };

  Call start(Session &s, const TraceRow &r, Nanos now) {
    Call c;
    c.session = s.id;
    c.index = s.calls++;
    c.issuedAt = r.arrival;
    c.sendAt = std::max({r.arrival, s.readyAt, now});
    c.waitBefore = c.index == 0 ? 0 : c.sendAt - (s.readyAt - s.toolAfter);
    c.prompt = r.prompt;
    c.output = r.output;
    c.cachedPrefix = r.prompt >= s.lastContext ? s.lastContext : 0;
    c.agent = true;
    s.busy = true;
    s.toolAfter = r.tool;
    byId[s.id] = &s; // std::map nodes do not move
    return c;
  }

  /// Drops idle sessions whose readiness can no longer delay a row (rows come
  /// in arrival order), so memory follows the sessions active at once.
  void forgetIdle(Nanos arrival) {
    if (++sinceSweep < 4096)
      return;
    sinceSweep = 0;
    for (auto it = sessions.begin(); it != sessions.end();) {
      Session &s = it->second;
      if (!s.busy && s.pending.empty() && s.readyAt <= arrival) {
        byId.erase(s.id);
        it = sessions.erase(it);
      } else {
        ++it;
      }
    }
  }

  std::unique_ptr<TraceReader> reader;
  std::map<std::string, Session> sessions;
  std::map<int64_t, Session *> byId;
  int64_t nextId = 0;
  size_t sinceSweep = 0;
};
} // namespace

Expected<std::unique_ptr<RequestSource>>
makeTraceSource(const std::string &path) {
  auto r = TraceReader::open(path);
  if (!r)
    return r.takeError();
  return std::make_unique<TraceSource>(std::move(*r));
}

} // namespace lpx::serve
