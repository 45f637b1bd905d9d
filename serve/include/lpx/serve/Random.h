//===- Random.h - Platform-independent random draws ------------*- C++ -*-===//
//
// std::mt19937_64's output sequence is fixed by the C++ standard, but the
// standard distributions (uniform_real_distribution, exponential_distribution,
// ...) are not: each library may map the raw draws differently. Every draw of
// the serving model is therefore derived here from raw 64-bit outputs, so one
// seed gives the same run on every platform (given a libm whose log is correctly
// rounded, as glibc's is).
//
//===----------------------------------------------------------------------===//
#ifndef LPX_SERVE_RANDOM_H
#define LPX_SERVE_RANDOM_H

#include <cstdint>
#include <random>

namespace lpx::serve {

/// The seed of one independent stream (arrivals, lengths, network, ...) of a
/// run's seed: splitmix64 of both, so a change in one part of a configuration
/// does not shift the draws of another.
uint64_t streamSeed(uint64_t seed, uint64_t stream);

class Rng {
public:
  explicit Rng(uint64_t seed) : engine(seed) {}

  uint64_t raw() { return engine(); }
  /// [0, 1), 53 random bits.
  double uniform01();
  /// An integer in [lo, hi], unbiased (rejection of the incomplete range).
  int64_t uniformInt(int64_t lo, int64_t hi);
  /// Exponential with the given mean: -mean * ln(1 - u).
  double exponential(double mean);
  /// Standard normal by Marsaglia's polar method (log and sqrt only).
  double standardNormal();

private:
  std::mt19937_64 engine;
  bool haveSpare = false;
  double spare = 0;
};

} // namespace lpx::serve

#endif // LPX_SERVE_RANDOM_H
