//===- ChipKeys.cpp - The key table, built from ChipKeys.def --------------===//
#include "lpx/isa/ChipKeys.h"
#include "lpx/isa/UnitOps.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

#include <type_traits>

using namespace lpx::isa;
using llvm::StringRef;

namespace {

// When the printer writes a key (the `printed` column of ChipKeys.def).
bool Always(const ChipSpec &) { return true; }
bool Described(const ChipSpec &c) { return !c.description.empty(); }
bool StatesFormats(const ChipSpec &c) { return c.statesFormats(); }

template <class T> ChipValue toValue(const T &v) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
    return uint64_t(v);
  else
    return ChipValue(v);
}

template <class T> T fromValue(const ChipValue &v) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
    return T(std::get<uint64_t>(v));
  else
    return std::get<T>(v);
}

/// Whether a field of C++ type T holds values of `type` (checked for every
/// entry of ChipKeys.def at compile time).
template <class T> constexpr bool holds(ChipKeyType type) {
  switch (type) {
  case ChipKeyType::Integer: return std::is_same_v<T, uint32_t>;
  case ChipKeyType::Real: return std::is_same_v<T, double>;
  case ChipKeyType::Bytes: return std::is_same_v<T, uint64_t>;
  case ChipKeyType::Bool: return std::is_same_v<T, bool>;
  case ChipKeyType::Format:
  case ChipKeyType::Text: return std::is_same_v<T, std::string>;
  }
  return false;
}

/// A key whose field `ref` returns (creating what is absent) and that the
/// printer writes when `printed` holds.
template <class Ref, class Printed>
ChipKey makeKey(std::string path, ChipKeyType type, std::string unit,
                std::string description, Ref ref, Printed printed) {
  using T = std::remove_reference_t<decltype(ref(std::declval<ChipSpec &>()))>;
  ChipKey k{std::move(path), type, std::move(unit), std::move(description),
            nullptr, nullptr};
  k.get = [ref, printed](const ChipSpec &c) -> std::optional<ChipValue> {
    if (!printed(c))
      return std::nullopt;
    // The field is there (printed() said so): `ref` only reads it.
    return toValue(ref(const_cast<ChipSpec &>(c)));
  };
  k.set = [ref](ChipSpec &c, const ChipValue &v) { ref(c) = fromValue<T>(v); };
  return k;
}

template <class UnitRef>
void addLatencies(std::vector<ChipKey> &keys, const std::string &unitKey,
                  Unit unit, UnitRef unitRef) {
  for (const std::string &op : unitOpNames(unit))
    keys.push_back(makeKey(
        unitKey + ".latencies." + op, ChipKeyType::Integer, "cycles",
        "latency of " + op + " (not listed: " + unitKey + ".latency)",
        [unitRef, op](ChipSpec &c) -> uint32_t & {
          return unitRef(c).latencies[op];
        },
        [unitRef, op](const ChipSpec &c) {
          return unitRef(const_cast<ChipSpec &>(c)).latencies.count(op) > 0;
        }));
}

template <class LevelRef>
void addLevel(std::vector<ChipKey> &keys, const std::string &name,
              LevelRef level) {
  auto printed = [level](const ChipSpec &c) {
    return level(const_cast<ChipSpec &>(c)).has_value();
  };
  auto add = [&](const char *key, ChipKeyType type, const char *unit,
                 std::string description, auto member) {
    auto ref = [level, member](ChipSpec &c) -> auto & {
      std::optional<TopologyLevel> &l = level(c);
      if (!l)
        l.emplace();
      return (*l).*member;
    };
    keys.push_back(makeKey("topology." + name + "." + key, type, unit,
                           std::move(description), ref, printed));
  };
  std::string below = name == "rack" ? "groups" : "racks";
  add("size", ChipKeyType::Integer, "", below + " per " + name,
      &TopologyLevel::size);
  add("links_per_pair", ChipKeyType::Integer, "",
      "links joining each pair of " + below, &TopologyLevel::linksPerPair);
  add("lanes", ChipKeyType::Integer, "", "lanes per link (0: global_lanes)",
      &TopologyLevel::lanes);
  add("lane_bytes_per_cycle", ChipKeyType::Real, "bytes/cycle",
      "per lane (0: global_lane_bytes_per_cycle)",
      &TopologyLevel::laneBytesPerCycle);
  add("latency", ChipKeyType::Integer, "cycles",
      "per hop (0: global_latency)", &TopologyLevel::latency);
}

std::vector<ChipKey> buildKeys() {
  std::vector<ChipKey> keys;
#define LPX_CHIP_KEY(path, field, Type, unit, printed, description)           \
  static_assert(holds<decltype(std::declval<ChipSpec &>().field)>(            \
                    ChipKeyType::Type),                                        \
                path " is declared with a type its field does not hold");     \
  keys.push_back(makeKey(                                                      \
      path, ChipKeyType::Type, unit, description,                              \
      [](ChipSpec &c) -> auto & { return c.field; }, printed));
#define LPX_CHIP_LATENCIES(unit, field, U)                                    \
  addLatencies(keys, unit, Unit::U,                                            \
               [](ChipSpec &c) -> StreamUnitSpec & { return c.field; });
#define LPX_CHIP_LEVEL(level)                                                 \
  addLevel(keys, #level,                                                       \
           [](ChipSpec &c) -> std::optional<TopologyLevel> & {                 \
             return c.topology.level;                                          \
           });
#include "lpx/isa/ChipKeys.def"
  return keys;
}

/// The YAML reader's and writer's own scalar handling, so a value reads and
/// prints as it does in a description file.
template <class T> llvm::Expected<T> readScalar(StringRef text) {
  T value{};
  StringRef err = llvm::yaml::ScalarTraits<T>::input(text, nullptr, value);
  if (!err.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), err);
  return value;
}

template <class T> std::string writeScalar(const T &value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::yaml::ScalarTraits<T>::output(value, nullptr, os);
  return os.str();
}

} // namespace

const char *lpx::isa::chipKeyTypeName(ChipKeyType type) {
  switch (type) {
  case ChipKeyType::Integer: return "integer";
  case ChipKeyType::Real: return "real";
  case ChipKeyType::Bytes: return "bytes";
  case ChipKeyType::Bool: return "bool";
  case ChipKeyType::Format: return "format";
  case ChipKeyType::Text: return "text";
  }
  return "?";
}

llvm::Expected<ChipValue> ChipKey::parse(StringRef text) const {
  switch (type) {
  case ChipKeyType::Integer:
    if (auto v = readScalar<uint32_t>(text))
      return ChipValue(uint64_t(*v));
    else
      return v.takeError();
  case ChipKeyType::Real: {
    auto v = readScalar<double>(text);
    if (!v)
      return v.takeError();
    // As printed: the program embeds the printed text.
    return ChipValue(*readScalar<double>(writeScalar(*v)));
  }
  case ChipKeyType::Bytes:
    if (std::optional<uint64_t> n = parseByteSize(text))
      return ChipValue(*n);
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "expected a byte count such as 230686720, 220MiB or 500MB");
  case ChipKeyType::Bool:
    if (auto v = readScalar<bool>(text))
      return ChipValue(*v);
    else
      return v.takeError();
  case ChipKeyType::Format:
  case ChipKeyType::Text:
    return ChipValue(text.str());
  }
  return ChipValue(text.str());
}

std::string ChipKey::format(const ChipValue &value) const {
  if (const double *d = std::get_if<double>(&value))
    return writeScalar(*d);
  if (const bool *b = std::get_if<bool>(&value))
    return writeScalar(*b);
  if (const uint64_t *n = std::get_if<uint64_t>(&value))
    return std::to_string(*n);
  return std::get<std::string>(value);
}

StringRef ChipKey::section() const {
  StringRef p(path);
  return p.contains('.') ? p.rsplit('.').first : StringRef();
}

StringRef ChipKey::name() const {
  StringRef p(path);
  return p.contains('.') ? p.rsplit('.').second : p;
}

const std::vector<ChipKey> &lpx::isa::chipKeys() {
  static const std::vector<ChipKey> keys = buildKeys();
  return keys;
}

const ChipKey *lpx::isa::findChipKey(StringRef path) {
  for (const ChipKey &k : chipKeys())
    if (k.path == path)
      return &k;
  return nullptr;
}

std::string lpx::isa::listChipKeys(const ChipSpec &spec, bool json,
                                   llvm::ArrayRef<AssumptionRange> ranges) {
  std::string out;
  llvm::raw_string_ostream os(out);
  auto rangeOf = [&](const ChipKey &k) -> const AssumptionRange * {
    for (const AssumptionRange &r : ranges)
      if (r.key == k.path)
        return &r;
    return nullptr;
  };
  if (json) {
    llvm::json::Array rows;
    for (const ChipKey &k : chipKeys()) {
      llvm::json::Value value = nullptr;
      if (std::optional<ChipValue> v = k.get(spec))
        std::visit([&](const auto &x) { value = x; }, *v);
      llvm::json::Value range = nullptr;
      if (const AssumptionRange *r = rangeOf(k))
        range = llvm::json::Object{
            {"low", r->low}, {"high", r->high}, {"reason", r->reason}};
      rows.push_back(llvm::json::Object{{"key", k.path},
                                        {"type", chipKeyTypeName(k.type)},
                                        {"unit", k.unit},
                                        {"value", std::move(value)},
                                        {"range", std::move(range)},
                                        {"description", k.description}});
    }
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(rows))) << "\n";
    return out;
  }
  size_t keyWidth = 0;
  for (const ChipKey &k : chipKeys())
    keyWidth = std::max(keyWidth, k.path.size());
  for (const ChipKey &k : chipKeys()) {
    std::optional<ChipValue> v = k.get(spec);
    std::string value = v ? k.format(*v) : "-";
    if (value.size() > 24) // a description: the key's line stays one line
      value = value.substr(0, 21) + "...";
    const AssumptionRange *r = rangeOf(k);
    std::string range = r ? r->low + ".." + r->high : "-";
    os << llvm::left_justify(k.path, keyWidth)
       << llvm::formatv(" {0,-7} {1,-13} {2,-24} {3,-12} {4}\n",
                        chipKeyTypeName(k.type), k.unit, value, range,
                        k.description);
  }
  return out;
}
