//===- ChipOverrides.cpp - What-if edits of a chip description ------------===//
//
// An override sets one field through its key (ChipKeys.h) and runs the
// parser's checks (validateChipSpec) on the result.
//
//===----------------------------------------------------------------------===//
#include "lpx/isa/ChipOverrides.h"
#include "lpx/isa/ChipKeys.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace lpx::isa;
using llvm::StringRef;

namespace {

llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Every section of the key table in print order, an outer one before
/// its inner ones ("topology" before "topology.rack").
std::vector<std::string> sections() {
  std::vector<std::string> out;
  for (const ChipKey &k : chipKeys()) {
    StringRef section = k.section();
    for (size_t dot = 0; dot != StringRef::npos;) {
      dot = section.find('.', dot + 1);
      std::string outer = section.take_front(dot).str();
      if (!outer.empty() && !llvm::is_contained(out, outer))
        out.push_back(outer);
    }
  }
  return out;
}

std::string keysOf(StringRef section) {
  std::string out;
  for (const ChipKey &k : chipKeys())
    if (k.section() == section)
      out += (out.empty() ? "" : ", ") + k.name().str();
  return out;
}

llvm::Error unknownKey(StringRef key) {
  std::vector<std::string> all = sections();
  if (llvm::is_contained(all, key))
    return error("'" + key + "' is a section, set one of its parameters: " +
                 keysOf(key));
  if (!key.contains('.'))
    return error("unknown chip parameter '" + key +
                 "' (top-level parameters: " + keysOf("") +
                 "; sections: " + llvm::join(all, ", ") + ")");
  StringRef section = key.rsplit('.').first;
  if (llvm::is_contained(all, section))
    return error("unknown chip parameter '" + key + "' (" + section +
                 " has: " + keysOf(section) + ")");
  return error("unknown chip section '" + section + "' in '" + key +
               "' (sections: " + llvm::join(all, ", ") + ")");
}

} // namespace

llvm::Error lpx::isa::applyOverride(ChipSpec &spec, StringRef key,
                                    StringRef value) {
  key = key.trim();
  value = value.trim();
  if (key.empty())
    return error("empty chip parameter name");
  if (value.empty())
    return error("empty value for chip parameter '" + key + "'");
  if (value.contains('\n'))
    return error("value for chip parameter '" + key + "' spans lines");
  const ChipKey *k = findChipKey(key);
  if (!k)
    return unknownKey(key);
  auto invalid = [&](llvm::Error reason) {
    return error("invalid value '" + value + "' for chip parameter '" + key +
                 "': " + llvm::toString(std::move(reason)));
  };
  auto parsed = k->parse(value);
  if (!parsed)
    return invalid(parsed.takeError());
  ChipSpec edited = spec;
  k->set(edited, *parsed);
  if (auto err = validateChipSpec(edited))
    return invalid(std::move(err));
  spec = std::move(edited);
  return llvm::Error::success();
}

llvm::Error lpx::isa::applyOverrides(
    ChipSpec &spec,
    llvm::ArrayRef<std::pair<std::string, std::string>> settings) {
  if (settings.empty())
    return llvm::Error::success();
  ChipSpec edited = spec;
  std::string note;
  for (const auto &[key, value] : settings) {
    if (auto err = applyOverride(edited, key, value))
      return err;
    note += (note.empty() ? "" : ", ") + key + "=" + value;
  }
  edited.description += " (modified: " + note + ")";
  spec = std::move(edited);
  return llvm::Error::success();
}

llvm::Expected<std::pair<std::string, std::string>>
lpx::isa::splitSetting(StringRef keyEqualsValue) {
  auto [key, value] = keyEqualsValue.split('=');
  if (key.trim().empty() || !keyEqualsValue.contains('='))
    return error("'" + keyEqualsValue + "': expected key=value");
  return std::make_pair(key.trim().str(), value.trim().str());
}

llvm::Expected<ChipSpec>
lpx::isa::loadChipWithOverrides(StringRef presetOrFile,
                                llvm::ArrayRef<std::string> keyEqualsValue) {
  auto spec = loadChipSpec(presetOrFile);
  if (!spec)
    return spec.takeError();
  std::vector<std::pair<std::string, std::string>> settings;
  for (const std::string &s : keyEqualsValue) {
    auto kv = splitSetting(s);
    if (!kv)
      return kv.takeError();
    settings.push_back(std::move(*kv));
  }
  if (auto err = applyOverrides(*spec, settings))
    return std::move(err);
  return spec;
}

std::vector<std::string> lpx::isa::numericParameterKeys() {
  auto spec = loadChipSpec(presetNames().front());
  if (!spec) { // the embedded presets are tested; this cannot happen
    llvm::consumeError(spec.takeError());
    return {};
  }
  std::vector<std::string> keys;
  for (const ChipKey &k : chipKeys())
    if (k.get(*spec) && (k.type == ChipKeyType::Integer ||
                         k.type == ChipKeyType::Real ||
                         k.type == ChipKeyType::Bytes))
      keys.push_back(k.path);
  return keys;
}

std::string lpx::isa::parameterValue(const ChipSpec &spec, StringRef key) {
  const ChipKey *k = findChipKey(key);
  if (!k)
    return "";
  std::optional<ChipValue> v = k->get(spec);
  return v ? k->format(*v) : "";
}
