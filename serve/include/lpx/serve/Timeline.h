//===- Timeline.h - Batch size and queue length over time -------*- C++ -*-===//
//
// For the report's "batch size and queue length over time": iterations are
// gathered into at most kBuckets buckets of equal width; when a run outgrows
// them the width doubles and neighbours merge, so memory stays bounded for a
// run of any length.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_SERVE_TIMELINE_H
#define LPX_SERVE_TIMELINE_H

#include "lpx/serve/Records.h"

#include <vector>

namespace lpx::serve {

class TimelineSink : public RecordSink {
public:
  static constexpr size_t kBuckets = 512;

  struct Bucket {
    int64_t iterations = 0;
    int64_t decoding = 0;      ///< sequences stepped, summed over iterations
    int64_t prefillTokens = 0; ///< prompt tokens prefilled
    int64_t maxWaiting = 0;    ///< the admission queue's longest seen
  };

  explicit TimelineSink(Nanos initialWidth = kNanosPerMs)
      : width(initialWidth) {}
  void onRequest(const RequestRecord &) override {}
  void onIteration(Nanos t, int group, int64_t decoding, int64_t prefillTokens,
                   int64_t waiting, Nanos compute) override;

  /// Bucket i covers [i * width(), (i + 1) * width()).
  const std::vector<Bucket> &buckets() const { return data; }
  Nanos bucketWidth() const { return width; }

private:
  Nanos width;
  std::vector<Bucket> data;
};

} // namespace lpx::serve

#endif // LPX_SERVE_TIMELINE_H
