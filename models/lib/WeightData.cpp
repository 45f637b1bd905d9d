//===- WeightData.cpp - Seeded values of a parameter, in chunks -----------===//
#include "WeightData.h"

using namespace lpx::models;

static uint64_t fnv1a(const std::string &s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char ch : s)
    h = (h ^ ch) * 1099511628211ull;
  return h;
}

WeightStream::WeightStream(const Parameter &p)
    : state(fnv1a(p.name)), fill(p.fill) {}

void WeightStream::next(float *out, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i) {
    // splitmix64
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    float unit = float(z >> 40) * (1.0f / 16777216.0f); // [0, 1), 24 bits
    out[i] = fill.center + fill.halfWidth * (2.0f * unit - 1.0f);
  }
}
