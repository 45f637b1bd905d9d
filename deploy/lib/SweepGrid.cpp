//===- SweepGrid.cpp - The points of a parameter sweep --------------------===//
#include "lpx/deploy/SweepGrid.h"
#include "lpx/deploy/DeployError.h"

#include "lpx/isa/ChipSpec.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <optional>

using namespace lpx::deploy;
using llvm::StringRef;

namespace {

// A typo such as 1..1e9 should fail fast rather than queue a billion compiles.
constexpr size_t kMaxValuesPerAxis = 10000;

std::optional<double> number(StringRef text) {
  double v;
  if (text.trim().getAsDouble(v) || !std::isfinite(v))
    return std::nullopt;
  return v;
}

bool isInteger(double v) { return std::floor(v) == v && std::fabs(v) < 1e15; }

std::string format(double v) {
  if (isInteger(v))
    return llvm::formatv("{0}", int64_t(v)).str();
  return llvm::formatv("{0}", llvm::format("%.10g", v)).str();
}

/// "a..b", "a..b:step" or "a..b:*factor", appended to `out`.
llvm::Error expandRange(StringRef key, StringRef text,
                        std::vector<std::string> &out) {
  auto [bounds, stepText] = text.split(':');
  auto [loText, hiText] = bounds.split("..");
  bool geometric = stepText.consume_front("*");
  std::optional<double> lo = number(loText), hi = number(hiText);
  std::optional<double> step =
      text.contains(':') ? number(stepText) : std::optional<double>(1.0);
  if (!lo || !hi || !step)
    return error("--set " + key + ": range '" + text +
                 "' is not a..b, a..b:step or a..b:*factor with plain numbers");
  if (*lo > *hi)
    return error("--set " + key + ": range '" + text + "' is empty (" +
                 loText + " > " + hiText + ")");
  if (geometric ? !(*step > 1 && *lo > 0) : !(*step > 0))
    return error("--set " + key + ": range '" + text + "' needs " +
                 (geometric ? "a factor above 1 and a positive start"
                            : "a positive step"));
  // Compare with a relative tolerance so 0.1..0.3:0.1 includes 0.3.
  double limit = *hi * (1 + 1e-12) + 1e-12;
  for (size_t i = 0;; ++i) {
    double v = geometric ? *lo * std::pow(*step, double(i)) : *lo + i * *step;
    if (v > limit)
      break;
    if (i >= kMaxValuesPerAxis)
      return error("--set " + key + ": range '" + text + "' has more than " +
                   llvm::Twine(kMaxValuesPerAxis) + " values");
    out.push_back(format(v));
  }
  return llvm::Error::success();
}

} // namespace

llvm::Expected<std::vector<std::string>>
lpx::deploy::parseValueList(StringRef key, StringRef list) {
  list = list.trim();
  if (list.empty())
    return error("--set " + key + ": empty list of values");
  llvm::SmallVector<StringRef> parts;
  list.split(parts, ',');
  std::vector<std::string> values;
  for (StringRef p : parts) {
    p = p.trim();
    if (p.empty())
      return error("--set " + key + "=" + list + ": empty value in the list");
    if (p.contains("..")) {
      if (auto e = expandRange(key, p, values))
        return std::move(e);
    } else {
      values.push_back(p.str());
    }
  }
  for (size_t i = 0; i < values.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (values[i] == values[j])
        return error("--set " + key + ": value '" + values[i] +
                     "' appears twice");
  return values;
}

llvm::Expected<Axis> lpx::deploy::parseAxis(StringRef spec) {
  auto [key, list] = spec.split('=');
  key = key.trim();
  if (key.empty() || !spec.contains('='))
    return error("--set '" + spec +
                 "': expected key=v1,v2,... or key=a..b:step");
  auto values = parseValueList(key, list);
  if (!values)
    return values.takeError();
  return Axis{key.str(), std::move(*values)};
}

size_t Grid::size() const {
  size_t n = 1;
  for (const Axis &a : axes_)
    n *= a.values.size();
  return n;
}

std::vector<size_t> Grid::coords(size_t index) const {
  std::vector<size_t> c(axes_.size());
  for (size_t i = axes_.size(); i-- > 0;) {
    c[i] = index % axes_[i].values.size();
    index /= axes_[i].values.size();
  }
  return c;
}

std::optional<double> lpx::deploy::numericValue(StringRef value) {
  if (auto v = number(value))
    return v;
  if (auto bytes = lpx::isa::parseByteSize(value))
    return double(*bytes);
  return std::nullopt;
}
