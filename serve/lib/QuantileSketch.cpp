//===- QuantileSketch.cpp - Percentiles in bounded memory -----------------===//

#include "lpx/serve/QuantileSketch.h"

#include <algorithm>
#include <cmath>

namespace lpx::serve {

static const double kGamma = (1 + QuantileSketch::kRelativeError) /
                             (1 - QuantileSketch::kRelativeError);
static const double kLogGamma = std::log(kGamma);
// Bucket indices [-kOffset, kBuckets - kOffset): about 1e-4 to 1e13 (in the
// microseconds the metrics use); values outside are clamped to the ends.
static constexpr int kOffset = 1024;
static constexpr int kBuckets = 4096;

void QuantileSketch::add(double v) {
  if (n == 0 || v > hi)
    hi = v;
  ++n;
  sum += v;
  if (buckets.empty()) {
    values.push_back(v);
    sorted = false;
    if (values.size() > kExactLimit)
      toBuckets();
    return;
  }
  bucket(v);
}

void QuantileSketch::bucket(double v) {
  if (v <= 0) {
    ++zeros;
    return;
  }
  int i = int(std::ceil(std::log(v) / kLogGamma)) + kOffset;
  buckets[size_t(std::clamp(i, 0, kBuckets - 1))]++;
}

void QuantileSketch::toBuckets() {
  buckets.assign(kBuckets, 0);
  for (double v : values)
    bucket(v);
  values.clear();
  values.shrink_to_fit();
}

double QuantileSketch::percentile(int q) const {
  if (n == 0)
    return 0.0;
  // Nearest rank, in integers: ceil(q * n / 100), at least 1.
  uint64_t rank = std::max<uint64_t>(1, (uint64_t(q) * n + 99) / 100);
  if (buckets.empty()) {
    if (!sorted) {
      std::sort(values.begin(), values.end());
      sorted = true;
    }
    return values[size_t(rank - 1)];
  }
  if (rank <= zeros)
    return 0.0;
  uint64_t seen = zeros;
  for (int i = 0; i < kBuckets; ++i) {
    seen += buckets[size_t(i)];
    if (seen >= rank) {
      double v = 2 * std::pow(kGamma, i - kOffset) / (kGamma + 1);
      return std::min(v, hi);
    }
  }
  return hi;
}

} // namespace lpx::serve
