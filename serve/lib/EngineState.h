//===- EngineState.h - The serving simulation's state (private) -----------===//
//
// The entities (live requests, groups, stages), the event queue and the two
// halves that act on them: the client side (ClientSide.cpp: sends, network,
// 429s and retries, completions, sessions) and the server side
// (ServerSide.cpp: admission, the policies' iterations, the stages).
//
//===----------------------------------------------------------------------===//
#ifndef LPX_SERVE_LIB_ENGINESTATE_H
#define LPX_SERVE_LIB_ENGINESTATE_H

#include "lpx/serve/Engine.h"

#include <deque>
#include <map>
#include <optional>
#include <queue>
#include <unordered_map>
#include <vector>

namespace lpx::serve {

enum class EventKind : uint8_t {
  Pull,          ///< the pending open arrival is due: send it, read the next
  Send,          ///< a client sends an attempt
  ServerArrive,  ///< the attempt reaches the server
  ClientReject,  ///< the 429 reaches the client
  GroupReturn,   ///< a group's iteration is done (after its host I/O)
  ClientDone,    ///< the last token (or the final rejection) at the client
  NextChunk,     ///< a streaming prompt's chunk left the first stage
  PrefillOut,    ///< a streaming prompt's last chunk (and host I/O) is out
  FirstStageFree, ///< the first stage is free: a waiting chunk may enter
};

struct Event {
  Nanos t;
  uint64_t seq; ///< ties broken in scheduling order: deterministic
  EventKind kind;
  int32_t a, b;
  bool operator>(const Event &o) const {
    return t != o.t ? t > o.t : seq > o.seq;
  }
};

/// A call from its first send to its end.
struct Live {
  Call call;
  RequestRecord rec;
  Nanos down = 0;        ///< this attempt's way back
  int64_t toPrefill = 0; ///< prompt tokens still to prefill
  int64_t generated = 0; ///< output tokens made
  int64_t chunkNow = 0;  ///< tokens prefilled in the current iteration
  bool stepping = false; ///< decodes in the current iteration
  /// Its chunks go through the stages on their own, each entering the first
  /// stage when its predecessor has left it (not with its group's
  /// iterations), until the last one is out.
  bool streaming = false;
  bool free = false;
};

struct Group {
  std::vector<int32_t> members; ///< in admission order
  bool busy = false;
  Nanos hostIo = 0;
  bool decodesNow = false; ///< its decoding members step this iteration
};

/// What enters the stages as one: a decode step and a prefill (or chunk)
/// run one after the other, each stage's part by its own shares.
struct Item {
  Nanos step = 0, prefill = 0;
};

struct SessionProgress {
  Nanos start = 0;
  int32_t calls = 0;
  Nanos callsE2E = 0;
  Nanos waits = 0;
};

class EngineState {
public:
  EngineState(const ServiceModel &model, RequestSource &source,
              const EngineConfig &config, RecordSink &sink);
  llvm::Expected<RunStats> run();
  // Driven from outside (OnlineEngine): a call started at its sendAt (its
  // request id; none past the limits), the events up to `t`, the next one.
  std::optional<int64_t> startOnline(const Call &call);
  llvm::Error runUntil(Nanos t);
  std::optional<Nanos> nextEventTime() const;

private:
  // Engine.cpp
  void schedule(Nanos t, EventKind kind, int32_t a = 0, int32_t b = 0);
  int32_t newLive(const Call &call);
  void freeLive(int32_t id);
  llvm::Error dispatch(const Event &ev);
  // ClientSide.cpp
  llvm::Error pullArrival(Nanos now);
  bool startCall(const Call &call, Nanos now);
  void finishCall(int32_t id, Nanos now);
  void send(int32_t id, Nanos now);
  void clientReject(int32_t id, Nanos now);
  void clientDone(int32_t id, Nanos now);
  bool mayStart(const Call &call) const;
  // ServerSide.cpp
  void serverArrive(int32_t id, Nanos now);
  void fillIdleGroups(Nanos now);
  void setBusy(Group &g, bool busy);
  void admit(Group &g, Nanos now);
  bool takeSlot(int64_t session);
  bool plan(int gi, Nanos now);
  double decodePartUs(const Group &g, int64_t &decoding) const;
  double prefillFirstItems(const std::vector<int32_t> &prefilling,
                           int64_t &tokens);
  double chunkUs(Live &l) const;
  Nanos traverse(Nanos now, const Item &item, Nanos &firstStageExit);
  void groupReturn(int gi, Nanos now);
  // PrefillStream.cpp
  void nextChunk(int32_t id, Nanos now);
  void firstStageFree(int32_t, Nanos now);
  void feedFirstStage(Nanos now);
  void sendChunk(int32_t id, Nanos now);
  void prefillOut(int32_t id, Nanos now);
  void firstToken(Live &l, Nanos now);
  void finishSequence(int32_t id, Nanos now);
  bool tooLong(const Call &c) const;

  const ServiceModel &model;
  RequestSource &source;
  EngineConfig cfg;
  RecordSink &sink;

  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events;
  uint64_t seq = 0;
  std::vector<Live> lives;
  std::vector<int32_t> freeIds;
  int64_t nextRequestId = 0;

  Rng network, retry;
  std::optional<Call> pendingArrival;
  bool sourceDone = false;

  std::deque<int32_t> waiting;
  std::vector<Group> groups;
  /// When each stage is next free: the last group through it leaves then.
  std::vector<Nanos> stageFree;
  /// Cumulative stage shares of a step and of a prefill, x 2^32.
  std::vector<uint64_t> cumStepShare, cumPrefillShare;
  std::vector<int32_t> scratch; ///< reused per iteration (no allocation)
  /// The iteration being planned: what enters the stages, one after another.
  std::vector<Item> items;
  /// Streaming prompts whose next chunk waits for the first stage, in the
  /// order they became ready; whether a FirstStageFree event is pending.
  std::deque<int32_t> readyChunks;
  bool wakePending = false;
  int64_t running = 0;  ///< sequences in groups
  int64_t busyGroups = 0; ///< groups with an iteration in flight
  int64_t cacheLimit = 0;
  /// Kept session caches: session -> (LRU order, tokens), and the order.
  std::unordered_map<int64_t, std::pair<uint64_t, int64_t>> kept;
  std::map<uint64_t, int64_t> keptOrder;
  uint64_t keptClock = 0;
  std::unordered_map<int64_t, SessionProgress> sessions;

  RunStats stats;
};

} // namespace lpx::serve

#endif
