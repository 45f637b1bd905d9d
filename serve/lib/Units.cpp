//===- Units.cpp - Durations and token ranges -----------------------------===//

#include "lpx/serve/Units.h"

#include <cmath>

using llvm::Expected;
using llvm::StringRef;

namespace lpx::serve {

static llvm::Error bad(StringRef what, StringRef text, StringRef why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s",
                                 ("'" + what + "': '" + text + "' " + why)
                                     .str()
                                     .c_str());
}

Nanos fromUs(double us) { return Nanos(std::llround(us * kNanosPerUs)); }

Expected<Nanos> parseDuration(StringRef text, StringRef what) {
  StringRef t = text.trim();
  if (t.empty())
    return bad(what, text, "is empty; a duration is a number and a unit "
                           "(us, ms, s)");
  Nanos unit = 0;
  StringRef number = t;
  if (t.consume_back("us"))
    unit = kNanosPerUs, number = t;
  else if (t.consume_back("ms"))
    unit = kNanosPerMs, number = t;
  else if (t.consume_back("s"))
    unit = kNanosPerS, number = t;
  double value = 0;
  if (number.trim().getAsDouble(value) || !std::isfinite(value))
    return bad(what, text, "is not a duration (a number and a unit: us, ms, "
                           "s)");
  if (value < 0)
    return bad(what, text, "is negative");
  if (unit == 0) {
    if (value != 0)
      return bad(what, text, "needs a unit (us, ms, s)");
    return 0;
  }
  double ns = value * double(unit);
  if (ns > 9.0e18)
    return bad(what, text, "is too long");
  return Nanos(std::llround(ns));
}

Expected<int64_t> parseCount(StringRef text, StringRef what) {
  int64_t v = 0;
  if (text.trim().getAsInteger(10, v))
    return bad(what, text, "is not a whole number");
  if (v < 0)
    return bad(what, text, "is negative");
  return v;
}

Expected<double> parsePositive(StringRef text, StringRef what) {
  double v = 0;
  if (text.trim().getAsDouble(v) || !std::isfinite(v))
    return bad(what, text, "is not a number");
  if (v <= 0)
    return bad(what, text, "must be above 0");
  return v;
}

Expected<TokenRange> parseTokenRange(StringRef text, StringRef what,
                                     int64_t minimum) {
  auto [a, b] = text.split("..");
  if (text.contains("..") && b.empty())
    return bad(what, text, "is not a range A..B");
  auto lo = parseCount(a, what);
  if (!lo)
    return lo.takeError();
  int64_t hi = *lo;
  if (!b.empty()) {
    auto h = parseCount(b, what);
    if (!h)
      return h.takeError();
    hi = *h;
  }
  if (*lo < minimum)
    return bad(what, text, "is below " + std::to_string(minimum));
  if (hi < *lo)
    return bad(what, text, "ends before it starts");
  return TokenRange{*lo, hi};
}

Expected<DurationRange> parseDurationRange(StringRef text, StringRef what) {
  auto [a, b] = text.split("..");
  if (text.contains("..") && b.empty())
    return bad(what, text, "is not a range T1..T2");
  auto lo = parseDuration(a, what);
  if (!lo)
    return lo.takeError();
  Nanos hi = *lo;
  if (!b.empty()) {
    auto h = parseDuration(b, what);
    if (!h)
      return h.takeError();
    hi = *h;
  }
  if (hi < *lo)
    return bad(what, text, "ends before it starts");
  return DurationRange{*lo, hi};
}

} // namespace lpx::serve
