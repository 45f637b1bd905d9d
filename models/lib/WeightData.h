//===- WeightData.h - Seeded values of a parameter, in chunks ---*- C++ -*-===//
#ifndef LPX_MODELS_WEIGHTDATA_H
#define LPX_MODELS_WEIGHTDATA_H

#include "GraphBuilder.h"
#include <cstdint>

namespace lpx::models {

/// Produces a parameter's float values in order, a chunk at a time, from a
/// generator seeded by its name: the same on every platform and compiler
/// (no std:: distributions), so exports are byte-identical everywhere.
class WeightStream {
public:
  explicit WeightStream(const Parameter &p);
  /// Writes the next `n` values to `out`.
  void next(float *out, uint64_t n);

private:
  uint64_t state;
  Fill fill;
};

} // namespace lpx::models

#endif
