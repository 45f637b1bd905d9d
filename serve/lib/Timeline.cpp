//===- Timeline.cpp - Batch size and queue length over time ---------------===//

#include "lpx/serve/Timeline.h"

#include <algorithm>

namespace lpx::serve {

void TimelineSink::onIteration(Nanos t, int, int64_t decoding,
                               int64_t prefillTokens, int64_t waiting, Nanos) {
  size_t i = size_t(t / width);
  while (i >= kBuckets) {
    // Double the width: bucket j takes old buckets 2j and 2j+1.
    std::vector<Bucket> merged((data.size() + 1) / 2);
    for (size_t j = 0; j < data.size(); ++j) {
      Bucket &m = merged[j / 2];
      m.iterations += data[j].iterations;
      m.decoding += data[j].decoding;
      m.prefillTokens += data[j].prefillTokens;
      m.maxWaiting = std::max(m.maxWaiting, data[j].maxWaiting);
    }
    data = std::move(merged);
    width *= 2;
    i = size_t(t / width);
  }
  if (data.size() <= i)
    data.resize(i + 1);
  Bucket &b = data[i];
  ++b.iterations;
  b.decoding += decoding;
  b.prefillTokens += prefillTokens;
  b.maxWaiting = std::max(b.maxWaiting, waiting);
}

} // namespace lpx::serve
