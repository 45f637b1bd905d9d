//===- ChipOverrides.cpp - What-if edits of a chip description ------------===//
//
// printChipSpec writes a regular layout: top-level scalars and section
// headers at column 0, a section's scalars indented by two spaces. An override
// rewrites one such line and parses the whole text again.
//
//===----------------------------------------------------------------------===//
#include "lpx/isa/ChipOverrides.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace lpx::isa;
using llvm::StringRef;

namespace {

llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// One scalar of the printed description.
struct Leaf {
  std::string section; // dotted path of the enclosing sections, or empty
  std::string name;
  std::string value;   // as printed, trimmed
  size_t line = 0;     // index into the line list
  std::string key() const {
    return section.empty() ? name : section + "." + name;
  }
  size_t depth() const {
    return section.empty() ? 0 : 1 + llvm::count(section, '.');
  }
};

struct Printed {
  std::vector<std::string> lines;
  std::vector<Leaf> leaves;
  std::vector<std::string> sections; // dotted paths, in print order
  std::vector<size_t> sectionEnds;   // last line index of each section
};

/// Splits the printer's layout: two spaces of indent per nesting level, a
/// section header is a key with no value.
Printed scan(StringRef text) {
  Printed p;
  llvm::SmallVector<StringRef> lines;
  text.split(lines, '\n');
  std::vector<std::string> path; // open sections, outermost first
  auto sectionIndex = [&](const std::string &dotted) {
    return size_t(llvm::find(p.sections, dotted) - p.sections.begin());
  };
  for (StringRef line : lines) {
    size_t index = p.lines.size();
    p.lines.push_back(line.str());
    if (line.starts_with("---") || line.starts_with("...") ||
        line.trim().empty())
      continue;
    size_t depth = (line.size() - line.ltrim(' ').size()) / 2;
    path.resize(std::min(path.size(), depth));
    auto [name, value] = line.trim().split(':');
    value = value.trim();
    std::string section = llvm::join(path, ".");
    for (size_t d = 1; d <= path.size(); ++d) // extend the open sections
      p.sectionEnds[sectionIndex(llvm::join(llvm::ArrayRef(path).take_front(d),
                                            "."))] = index;
    if (value.empty()) { // a section header
      path.push_back(name.str());
      p.sections.push_back(llvm::join(path, "."));
      p.sectionEnds.push_back(index);
      continue;
    }
    p.leaves.push_back({section, name.str(), value.str(), index});
  }
  return p;
}

std::string keysOf(const Printed &p, StringRef section) {
  std::string out;
  for (const Leaf &l : p.leaves)
    if (l.section == section)
      out += (out.empty() ? "" : ", ") + l.name;
  return out;
}

llvm::Error unknownKey(const Printed &p, StringRef key) {
  auto [section, name] = key.rsplit('.');
  if (name.empty() && !key.contains('.')) {
    if (llvm::is_contained(p.sections, key))
      return error("'" + key + "' is a section, set one of its parameters: " +
                   keysOf(p, key));
    return error("unknown chip parameter '" + key +
                 "' (top-level parameters: " + keysOf(p, "") +
                 "; sections: " + llvm::join(p.sections, ", ") + ")");
  }
  if (llvm::is_contained(p.sections, key))
    return error("'" + key + "' is a section, set one of its parameters: " +
                 keysOf(p, key));
  if (llvm::is_contained(p.sections, section))
    return error("unknown chip parameter '" + key + "' (" + section +
                 " has: " + keysOf(p, section) + ")");
  return error("unknown chip section '" + section + "' in '" + key +
               "' (sections: " + llvm::join(p.sections, ", ") + ")");
}

/// Per-operation latency tables list only the operations a description sets,
/// so `vxm.latencies.exp` may need its line (and the table's header) added.
/// Returns false when `key` is not such a key.
bool insertLatencyEntry(Printed &p, StringRef key, StringRef value) {
  llvm::SmallVector<StringRef, 3> parts;
  key.split(parts, '.');
  // The units with latency tables (see UnitOps.h).
  if (parts.size() != 3 || parts[1] != "latencies" ||
      !llvm::is_contained({"vxm", "sxm", "mem"}, parts[0]))
    return false;
  std::string unit = parts[0].str(), table = unit + ".latencies";
  auto at = llvm::find(p.sections, table);
  std::vector<std::string> added;
  size_t after;
  if (at != p.sections.end()) {
    after = p.sectionEnds[at - p.sections.begin()];
  } else {
    auto u = llvm::find(p.sections, unit);
    if (u == p.sections.end())
      return false;
    after = p.sectionEnds[u - p.sections.begin()];
    added.push_back("  latencies:");
  }
  added.push_back("    " + parts[2].str() + ": " + value.str());
  p.lines.insert(p.lines.begin() + after + 1, added.begin(), added.end());
  return true;
}

/// The parser's message names its buffer and line ("override:12: ..."); the
/// user named the key, so keep only the reason.
std::string reasonOf(llvm::Error err) {
  std::string msg = llvm::toString(std::move(err));
  StringRef rest(msg);
  if (rest.consume_front("override:")) {
    auto [line, reason] = rest.split(':');
    if (!reason.empty() && llvm::all_of(line, llvm::isDigit))
      return reason.trim().str();
  }
  return msg;
}

/// Strings are quoted so that a colon or '#' in them stays text.
std::string yamlValue(StringRef key, StringRef value) {
  if (key != "name" && key != "description")
    return value.str();
  std::string quoted = "'";
  for (char c : value)
    quoted += c == '\'' ? std::string("''") : std::string(1, c);
  return quoted + "'";
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
  Printed p = scan(printChipSpec(spec));
  const Leaf *leaf = nullptr;
  for (const Leaf &l : p.leaves)
    if (l.key() == key)
      leaf = &l;
  if (leaf)
    p.lines[leaf->line] = std::string(2 * leaf->depth(), ' ') + leaf->name +
                          ": " + yamlValue(key, value);
  else if (!insertLatencyEntry(p, key, value))
    return unknownKey(p, key);

  std::string text = llvm::join(p.lines, "\n");
  auto parsed = parseChipSpec(text, "override");
  if (!parsed)
    return error("invalid value '" + value + "' for chip parameter '" + key +
                 "': " + reasonOf(parsed.takeError()));
  spec = std::move(*parsed);
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
  // Round-trip so the numbers are the ones a program embeds (the printer
  // rounds doubles); the compiler and the simulator then agree exactly.
  auto normal = parseChipSpec(printChipSpec(edited), "override");
  if (!normal)
    return normal.takeError();
  spec = std::move(*normal);
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
  for (const Leaf &l : scan(printChipSpec(*spec)).leaves) {
    double unused;
    if (!StringRef(l.value).getAsDouble(unused))
      keys.push_back(l.key());
  }
  return keys;
}

std::string lpx::isa::parameterValue(const ChipSpec &spec, StringRef key) {
  for (const Leaf &l : scan(printChipSpec(spec)).leaves)
    if (l.key() == key)
      return l.value;
  return "";
}
