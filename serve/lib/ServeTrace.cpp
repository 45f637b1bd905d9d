//===- ServeTrace.cpp - A serving run as Perfetto trace events ------------===//

#include "lpx/serve/ServeTrace.h"

#include "llvm/Support/JSON.h"

#include <algorithm>
#include <functional>
#include <numeric>

namespace lpx::serve {

namespace {

constexpr int64_t kRequestsPid = 1, kQueuePid = 2, kFirstGroupPid = 10;

void name(llvm::json::OStream &j, const char *what, int64_t pid, int64_t tid,
          const std::string &text) {
  j.object([&] {
    j.attribute("ph", "M");
    j.attribute("name", what);
    j.attribute("pid", pid);
    if (tid >= 0)
      j.attribute("tid", tid);
    j.attributeObject("args", [&] { j.attribute("name", text); });
  });
}

/// A complete slice on a track.
void slice(llvm::json::OStream &j, int64_t pid, int64_t tid,
           const std::string &text, Nanos from, Nanos to,
           const std::function<void()> &args) {
  j.object([&] {
    j.attribute("ph", "X");
    j.attribute("name", text);
    j.attribute("pid", pid);
    j.attribute("tid", tid);
    j.attribute("ts", toUs(from));
    j.attribute("dur", toUs(to - from));
    j.attributeObject("args", args);
  });
}

/// One begin or end of a request's async slice (nested by Perfetto when
/// they share the request's id).
void async(llvm::json::OStream &j, const char *ph, const std::string &text,
           int64_t id, Nanos t) {
  j.object([&] {
    j.attribute("ph", ph);
    j.attribute("cat", "request");
    j.attribute("name", text);
    j.attribute("id", id);
    j.attribute("pid", kRequestsPid);
    j.attribute("tid", 0);
    j.attribute("ts", toUs(t));
  });
}

void requestPhases(llvm::json::OStream &j, const RequestRecord &r) {
  const std::string id = "request " + std::to_string(r.id);
  async(j, "b", r.completed ? id : id + " (rejected)", r.id, r.arrival);
  struct Phase {
    const char *name;
    Nanos from, to;
  };
  const Phase phases[] = {{"network in and retries", r.arrival, r.serverArrival},
                          {"queue", r.serverArrival, r.admission},
                          {"prefill", r.admission, r.serverFirstToken},
                          {"decode", r.serverFirstToken, r.serverDone},
                          {"network out", r.serverDone, r.completion}};
  for (const Phase &p : phases)
    if (r.completed && p.from >= 0 && p.to >= p.from) {
      async(j, "b", p.name, r.id, p.from);
      async(j, "e", p.name, r.id, p.to);
    }
  async(j, "e", r.completed ? id : id + " (rejected)", r.id, r.completion);
}

} // namespace

void PerfettoTraceSink::onRequest(const RequestRecord &r) {
  if (kept.size() < kMaxRequests)
    kept.push_back(r);
  else
    ++droppedRequests;
}

void PerfettoTraceSink::onIteration(Nanos t, int group, int64_t decoding,
                                    int64_t prefillTokens, int64_t waiting,
                                    Nanos compute) {
  groups = std::max(groups, group + 1);
  if (iterations.size() < kMaxIterations)
    iterations.push_back({t, compute, group, decoding, prefillTokens, waiting});
  else
    ++droppedIterations;
}

std::vector<int> PerfettoTraceSink::slots() const {
  std::vector<size_t> order(kept.size());
  std::iota(order.begin(), order.end(), size_t(0));
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return kept[a].admission < kept[b].admission;
  });
  std::vector<int> slot(kept.size(), -1);
  std::vector<std::vector<Nanos>> freeAt; // per group, per slot
  for (size_t i : order) {
    const RequestRecord &r = kept[i];
    if (!r.completed || r.group < 0 || r.serverDone < 0)
      continue;
    if (freeAt.size() <= size_t(r.group))
      freeAt.resize(size_t(r.group) + 1);
    std::vector<Nanos> &f = freeAt[size_t(r.group)];
    size_t s = 0;
    while (s < f.size() && f[s] > r.admission)
      ++s;
    if (s == f.size())
      f.push_back(0);
    f[s] = r.serverDone;
    slot[i] = int(s);
  }
  return slot;
}

void PerfettoTraceSink::write(llvm::raw_ostream &os) const {
  llvm::json::OStream j(os);
  const std::vector<int> slot = slots();
  int64_t slotsUsed = 0;
  for (int s : slot)
    slotsUsed = std::max<int64_t>(slotsUsed, s + 1);
  int lastGroup = groups;
  for (const RequestRecord &r : kept)
    lastGroup = std::max(lastGroup, r.group + 1);
  j.object([&] {
    j.attribute("displayTimeUnit", "ms");
    j.attributeObject("otherData", [&] {
      j.attribute("source", "lpx serve: simulated time, microseconds");
      j.attribute("requests_kept", int64_t(kept.size()));
      j.attribute("requests_left_out", droppedRequests);
      j.attribute("iterations_kept", int64_t(iterations.size()));
      j.attribute("iterations_left_out", droppedIterations);
    });
    j.attributeArray("traceEvents", [&] {
      name(j, "process_name", kRequestsPid, -1, "requests");
      name(j, "process_name", kQueuePid, -1, "admission queue");
      for (int g = 0; g < lastGroup; ++g) {
        const int64_t pid = kFirstGroupPid + g;
        name(j, "process_name", pid, -1, "pipeline group " + std::to_string(g));
        name(j, "thread_name", pid, 0, "iterations");
        for (int64_t s = 0; s < slotsUsed; ++s)
          name(j, "thread_name", pid, s + 1, "batch slot " + std::to_string(s));
      }
      for (const Iteration &it : iterations) {
        slice(j, kFirstGroupPid + it.group, 0, "iteration", it.t,
              it.t + it.compute, [&] {
                j.attribute("decoding", it.decoding);
                j.attribute("prefill_tokens", it.prefillTokens);
                j.attribute("compute_us", toUs(it.compute));
              });
        j.object([&] {
          j.attribute("ph", "C");
          j.attribute("name", "queue length");
          j.attribute("pid", kQueuePid);
          j.attribute("ts", toUs(it.t));
          j.attributeObject("args",
                            [&] { j.attribute("waiting", it.waiting); });
        });
      }
      for (size_t i = 0; i < kept.size(); ++i) {
        const RequestRecord &r = kept[i];
        requestPhases(j, r);
        if (slot[i] < 0)
          continue;
        const int64_t pid = kFirstGroupPid + r.group, tid = slot[i] + 1;
        auto args = [&] {
          j.attribute("request", r.id);
          j.attribute("prompt_tokens", r.prompt);
          j.attribute("prefilled_tokens", r.prefilled);
          j.attribute("output_tokens", r.output);
        };
        const std::string id = " #" + std::to_string(r.id);
        slice(j, pid, tid, "prefill" + id, r.admission, r.serverFirstToken, args);
        slice(j, pid, tid, "decode" + id, r.serverFirstToken, r.serverDone, args);
      }
    });
  });
  os << "\n";
}

} // namespace lpx::serve
