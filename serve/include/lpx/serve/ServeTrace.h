//===- ServeTrace.h - A serving run as Perfetto trace events ----*- C++ -*-===//
//
// `lpx serve --trace serve.json`: the trace-event JSON that ui.perfetto.dev
// and chrome://tracing open. One process per pipeline group with a track of
// its iterations (a slice each, its compute time, with the sequences it
// stepped and the prompt tokens it prefilled) and a track per batch slot (a
// slice per request phase it ran there: prefill, decode); a process of the
// requests, one async slice per request with its phases nested (network and
// retries, queue, prefill, decode, the way back); a counter of the admission
// queue's length. Times in microseconds of simulated time.
//
// Bounded: the first kMaxRequests records and kMaxIterations iterations are
// kept (the file says how many were left out), so a long run gives a file
// a viewer opens.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_SERVE_SERVETRACE_H
#define LPX_SERVE_SERVETRACE_H

#include "lpx/serve/Records.h"

#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace lpx::serve {

class PerfettoTraceSink : public RecordSink {
public:
  static constexpr size_t kMaxRequests = 20000, kMaxIterations = 100000;

  void onRequest(const RequestRecord &r) override;
  void onIteration(Nanos t, int group, int64_t decoding, int64_t prefillTokens,
                   int64_t waiting, Nanos compute) override;
  /// The whole trace, one JSON object ({"traceEvents": [...], ...}).
  void write(llvm::raw_ostream &os) const;

  struct Iteration {
    Nanos t = 0, compute = 0;
    int group = 0;
    int64_t decoding = 0, prefillTokens = 0, waiting = 0;
  };
  /// The slot (track) of each kept request that ran, by the requests' order
  /// of admission: the lowest slot of its group free at its admission, so
  /// slices on one track never overlap; -1 for a request that never ran.
  std::vector<int> slots() const;
  const std::vector<RequestRecord> &requests() const { return kept; }

private:
  std::vector<RequestRecord> kept;
  std::vector<Iteration> iterations;
  int64_t droppedRequests = 0, droppedIterations = 0;
  int groups = 0;
};

} // namespace lpx::serve

#endif // LPX_SERVE_SERVETRACE_H
