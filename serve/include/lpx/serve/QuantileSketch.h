//===- QuantileSketch.h - Percentiles in bounded memory --------*- C++ -*-===//
//
// Values are kept exactly up to `kExactLimit` of them (percentiles are then the
// nearest-rank values: the smallest value with at least p% of the values at or
// below it). Past that they go into logarithmic buckets (DDSketch, Masson et
// al., VLDB 2019): bucket i holds values in (g^(i-1), g^i], g = (1+a)/(1-a),
// and a quantile is reported as 2 g^i / (g + 1), within a relative error
// a = 0.5% of the nearest-rank value. Memory stays a few thousand counters
// whatever the run's length. Mean, count and max are always exact.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_SERVE_QUANTILESKETCH_H
#define LPX_SERVE_QUANTILESKETCH_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace lpx::serve {

class QuantileSketch {
public:
  static constexpr size_t kExactLimit = 100000;
  static constexpr double kRelativeError = 0.005;

  void add(double v);
  uint64_t count() const { return n; }
  double mean() const { return n ? sum / double(n) : 0.0; }
  double max() const { return n ? hi : 0.0; }
  /// The q-th percentile (q a whole percent, 1..100): exact or within
  /// kRelativeError.
  double percentile(int q) const;
  bool exact() const { return buckets.empty(); }

private:
  void toBuckets();
  void bucket(double v);

  uint64_t n = 0;
  double sum = 0;
  double hi = 0;
  mutable std::vector<double> values; // exact phase; sorted lazily
  mutable bool sorted = true;
  std::vector<uint64_t> buckets;      // sketch phase
  uint64_t zeros = 0;
};

} // namespace lpx::serve

#endif // LPX_SERVE_QUANTILESKETCH_H
