//===- Workload.h - What the clients send -----------------------*- C++ -*-===//
//
// `--workload` specs and the request sources they make:
//   poisson:rate=R,prompt=A..B,output=C..D       open loop, R requests/s
//   closed:users=N,think=T,prompt=..,output=..    N users, each sending its
//                                                 next request T after the last
//   agent:rate=R,calls=A..B,tool=T1..T2,prompt=P,result=Q..Q2,output=..
//                                                 sessions at R/s; each call
//                                                 waits for the previous call
//                                                 and its tool; its prompt is
//                                                 the session's context so far
//                                                 plus the tool's result tokens
//   trace:FILE                                    CSV or JSONL (TraceReader.h)
// Lengths are uniform in a range (`A..B`) or one value; durations carry a unit.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_SERVE_WORKLOAD_H
#define LPX_SERVE_WORKLOAD_H

#include "lpx/serve/Units.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>

namespace lpx::serve {

enum class WorkloadKind { Poisson, Closed, Agent, Trace };

struct WorkloadSpec {
  WorkloadKind kind = WorkloadKind::Poisson;
  double rate = 0; ///< requests (poisson) or sessions (agent) per second
  int64_t users = 0;
  Nanos think = 0;
  TokenRange prompt, output;
  TokenRange calls{1, 1};
  TokenRange result;
  DurationRange tool;
  std::string traceFile;
};

/// One clear error naming the key: unknown or repeated key, missing key, rate
/// 0, a malformed value.
llvm::Expected<WorkloadSpec> parseWorkload(llvm::StringRef spec);

/// One call a client sends: a request of `prompt` tokens wanting `output`.
struct Call {
  int64_t session = 0; ///< the session (a request alone is its own)
  int32_t index = 0;   ///< the call's place in its session
  Nanos sendAt = 0;    ///< when the client sends it
  /// When the source knew of the call (a trace row's arrival time): at most
  /// sendAt. Open arrivals come in the order of this time.
  Nanos issuedAt = 0;
  int64_t prompt = 0;
  int64_t output = 0;
  /// The tool time (or think time) between the previous call's completion and
  /// this call's send, as the source planned it (0 for a first call).
  Nanos waitBefore = 0;
  /// Tokens of this call's prompt that the previous call's KV cache holds
  /// (its prompt and output), reusable with --keep-session-cache; 0 if none.
  int64_t cachedPrefix = 0;
  /// True for agent calls (session E2E is reported for them).
  bool agent = false;
  /// True if the session has another call after this one.
  bool hasNext = false;
};

/// Where calls come from. Open arrivals come in time order from
/// nextArrival(); a session's next call (or a closed-loop user's next
/// request) from followUp() once the previous one is done.
class RequestSource {
public:
  virtual ~RequestSource();
  /// The next call that starts a session (or is alone), in send order; none
  /// at the end. Errors: a trace's malformed or non-monotonic line.
  virtual llvm::Expected<std::optional<Call>> nextArrival() = 0;
  /// The call that follows `done`, which finished (or was finally rejected,
  /// `completed` false) at client time `at`; none if the session ends.
  virtual std::optional<Call> followUp(const Call &done, Nanos at,
                                       bool completed) = 0;
  /// True if the source never ends by itself (synthetic workloads): a run
  /// then needs a limit (requests or duration).
  virtual bool endless() const { return false; }
};

/// Draws come from `seed` (streams for arrivals, lengths and tools apart).
llvm::Expected<std::unique_ptr<RequestSource>>
makeRequestSource(const WorkloadSpec &spec, uint64_t seed);

} // namespace lpx::serve

#endif // LPX_SERVE_WORKLOAD_H
