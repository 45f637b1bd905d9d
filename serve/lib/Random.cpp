//===- Random.cpp - Platform-independent random draws ---------------------===//

#include "lpx/serve/Random.h"

#include <cmath>

namespace lpx::serve {

static uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

uint64_t streamSeed(uint64_t seed, uint64_t stream) {
  return splitmix64(splitmix64(seed) ^ (stream * 0xd1342543de82ef95ull));
}

double Rng::uniform01() {
  return double(raw() >> 11) * 0x1.0p-53;
}

int64_t Rng::uniformInt(int64_t lo, int64_t hi) {
  if (hi <= lo)
    return lo;
  uint64_t span = uint64_t(hi) - uint64_t(lo) + 1; // 0 means all 2^64
  if (span == 0)
    return int64_t(raw());
  // Accept draws below the largest multiple of span: each residue equally.
  uint64_t limit = UINT64_MAX - (UINT64_MAX % span + 1) % span;
  uint64_t x = raw();
  while (x > limit)
    x = raw();
  return lo + int64_t(x % span);
}

double Rng::exponential(double mean) {
  // 1 - u is in (0, 1], so the log is finite.
  return -mean * std::log(1.0 - uniform01());
}

double Rng::standardNormal() {
  if (haveSpare) {
    haveSpare = false;
    return spare;
  }
  double u, v, s;
  do {
    u = 2.0 * uniform01() - 1.0;
    v = 2.0 * uniform01() - 1.0;
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
  double f = std::sqrt(-2.0 * std::log(s) / s);
  spare = v * f;
  haveSpare = true;
  return u * f;
}

} // namespace lpx::serve
