//===- Units.h - Durations and token ranges of the serving model -*- C++ -*-===//
//
// Every time inside the serving model is an integer count of nanoseconds, so
// event order is exact and the same on every platform. Text durations carry a
// unit (`us`, `ms`, `s`); a bare `0` needs none.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_SERVE_UNITS_H
#define LPX_SERVE_UNITS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace lpx::serve {

using Nanos = int64_t;
constexpr Nanos kNanosPerUs = 1000;
constexpr Nanos kNanosPerMs = 1000 * kNanosPerUs;
constexpr Nanos kNanosPerS = 1000 * kNanosPerMs;

inline double toUs(Nanos t) { return double(t) / double(kNanosPerUs); }
inline double toSeconds(Nanos t) { return double(t) / double(kNanosPerS); }
/// Microseconds (as a service table holds them) to nanoseconds, rounded.
Nanos fromUs(double us);

/// `2ms`, `1.5s`, `250us`, `0`. `what` names the key in the error.
llvm::Expected<Nanos> parseDuration(llvm::StringRef text, llvm::StringRef what);

/// An inclusive range of token counts, `A..B` or one value `A`.
struct TokenRange {
  int64_t lo = 0;
  int64_t hi = 0;
};
/// `minimum` is the smallest value the key accepts.
llvm::Expected<TokenRange> parseTokenRange(llvm::StringRef text,
                                           llvm::StringRef what,
                                           int64_t minimum);

/// An inclusive range of durations, `T1..T2` or one value `T`.
struct DurationRange {
  Nanos lo = 0;
  Nanos hi = 0;
};
llvm::Expected<DurationRange> parseDurationRange(llvm::StringRef text,
                                                 llvm::StringRef what);

/// A plain non-negative integer (`users=8`).
llvm::Expected<int64_t> parseCount(llvm::StringRef text, llvm::StringRef what);
/// A finite positive number (`rate=50`).
llvm::Expected<double> parsePositive(llvm::StringRef text,
                                     llvm::StringRef what);

} // namespace lpx::serve

#endif // LPX_SERVE_UNITS_H
