//===- AssumptionRanges.cpp - `# ASSUMPTION range A..B: why` comments -----===//
#include "lpx/isa/AssumptionRanges.h"
#include "lpx/isa/ChipKeys.h"
#include "lpx/isa/ChipOverrides.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"
#include "llvm/Support/raw_ostream.h"

using namespace lpx::isa;
using llvm::StringRef;

namespace {

constexpr StringRef kMark = "ASSUMPTION";

/// A key of the description with the comment of its line.
struct KeyLine {
  std::string path;
  unsigned line = 0;
  bool section = false;
  StringRef comment; // after '#', "" when the line has none
};

/// The comment at the end of `rest` (what follows a key on its line): the
/// text after the first '#' that starts the line or follows a blank,
/// outside quotes, as YAML reads comments.
StringRef commentOf(StringRef rest) {
  char quote = 0;
  for (size_t i = 0; i < rest.size(); ++i) {
    char c = rest[i];
    if (quote) {
      quote = c == quote ? 0 : quote;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '#' &&
               (i == 0 || rest[i - 1] == ' ' || rest[i - 1] == '\t')) {
      return rest.drop_front(i + 1).trim();
    }
  }
  return "";
}

class KeyWalker {
public:
  explicit KeyWalker(StringRef text) : text_(text) {}

  void walk(llvm::yaml::MappingNode *map, const std::string &prefix,
            std::vector<KeyLine> &out) {
    for (llvm::yaml::KeyValueNode &kv : *map) {
      auto *key = llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(kv.getKey());
      if (!key)
        continue; // the chip parser has refused such a file already
      StringRef raw = key->getRawValue();
      KeyLine k;
      k.path = prefix + raw.str();
      k.line = lineOf(raw.data());
      llvm::yaml::Node *value = kv.getValue();
      auto *inner = llvm::dyn_cast_or_null<llvm::yaml::MappingNode>(value);
      k.section = inner != nullptr;
      k.comment = commentOf(restOfLine(raw.data() + raw.size()));
      out.push_back(k);
      if (inner)
        walk(inner, k.path + ".", out);
    }
  }

private:
  unsigned lineOf(const char *at) const {
    return 1 + StringRef(text_.data(), at - text_.data()).count('\n');
  }
  StringRef restOfLine(const char *from) const {
    StringRef rest(from, text_.data() + text_.size() - from);
    return rest.take_until([](char c) { return c == '\n'; });
  }
  StringRef text_;
};

llvm::Expected<std::vector<KeyLine>> keyLines(StringRef text,
                                              StringRef sourceName) {
  llvm::SourceMgr sm;
  std::string diagnostic;
  sm.setDiagHandler(
      [](const llvm::SMDiagnostic &d, void *into) {
        auto &s = *static_cast<std::string *>(into);
        if (s.empty())
          s = (llvm::Twine(d.getLineNo()) + ": " + d.getMessage()).str();
      },
      &diagnostic);
  llvm::yaml::Stream stream(text, sm);
  std::vector<KeyLine> out;
  KeyWalker walker(text);
  for (llvm::yaml::Document &doc : stream)
    if (auto *map =
            llvm::dyn_cast_or_null<llvm::yaml::MappingNode>(doc.getRoot()))
      walker.walk(map, "", out);
  if (stream.failed() || !diagnostic.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   sourceName.str() + ":" + diagnostic);
  return out;
}

/// "range" after the mark, as a word: the comment states a range.
bool statesRange(StringRef comment, StringRef &afterRange) {
  size_t at = comment.find(kMark);
  if (at == StringRef::npos)
    return false;
  StringRef rest = comment.drop_front(at + kMark.size()).ltrim();
  if (!rest.consume_front("range") ||
      (!rest.empty() && rest[0] != ' ' && rest[0] != '\t'))
    return false;
  afterRange = rest.trim();
  return true;
}

/// Checks one `A..B: reason` against the key table and the chip.
llvm::Expected<AssumptionRange> readRange(const KeyLine &k, StringRef body,
                                          const ChipSpec &base,
                                          StringRef sourceName) {
  auto fail = [&](const llvm::Twine &what) -> llvm::Error {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   (sourceName + ":" + llvm::Twine(k.line) +
                                    ": range of " + k.path + ": " + what)
                                       .str());
  };
  size_t colon = body.find(':');
  StringRef spec = body.take_front(colon).trim();
  StringRef reason = colon == StringRef::npos
                         ? StringRef()
                         : body.drop_front(colon + 1).trim();
  auto [low, high] = spec.split("..");
  low = low.trim();
  high = high.trim();
  if (colon == StringRef::npos || !spec.contains("..") || low.empty() ||
      high.empty())
    return fail("'" + body + "' is not `A..B: reasoning`");
  if (reason.empty())
    return fail("the range " + spec + " states no reasoning after its ':'");
  if (k.section)
    return fail("a section has no value to vary; give each of its keys a "
                "range");
  const ChipKey *key = findChipKey(k.path);
  if (!key)
    return fail("not a chip parameter (see `lpx chip keys`)");
  if (key->type == ChipKeyType::Text || key->type == ChipKeyType::Format)
    return fail(std::string("a ") + chipKeyTypeName(key->type) +
                " key has no range (only numbers and booleans)");
  std::optional<ChipValue> value = key->get(base);
  if (!value)
    return fail("the chip gives the key no value");
  ChipValue ends[2];
  StringRef texts[2] = {low, high};
  for (int i = 0; i < 2; ++i) {
    // applyOverride is what `--set` runs: the key's parse, then
    // validateChipSpec on the chip with that one value changed.
    ChipSpec trial = base;
    if (llvm::Error e = applyOverride(trial, k.path, texts[i]))
      return fail(llvm::toString(std::move(e)));
    ends[i] = *key->parse(texts[i]);
  }
  if (ends[1] < ends[0])
    return fail("the low end " + low + " is above the high end " + high);
  if (*value < ends[0] || ends[1] < *value)
    return fail(spec + " does not hold the chip's value " +
                key->format(*value));
  return AssumptionRange{k.path, low.str(), high.str(), reason.str(), k.line};
}

} // namespace

llvm::Expected<std::vector<AssumptionLine>>
lpx::isa::findAssumptionLines(StringRef descriptionText, StringRef sourceName) {
  auto keys = keyLines(descriptionText, sourceName);
  if (!keys)
    return keys.takeError();
  std::vector<AssumptionLine> out;
  StringRef body; // the range itself is readAssumptionRanges' to check
  for (const KeyLine &k : *keys)
    if (k.comment.contains(kMark))
      out.push_back({k.path, k.line, k.section, statesRange(k.comment, body)});
  return out;
}

llvm::Expected<std::vector<AssumptionRange>>
lpx::isa::readAssumptionRanges(StringRef descriptionText, const ChipSpec &base,
                               StringRef sourceName) {
  auto keys = keyLines(descriptionText, sourceName);
  if (!keys)
    return keys.takeError();
  std::vector<AssumptionRange> out;
  for (const KeyLine &k : *keys) {
    StringRef body;
    if (!statesRange(k.comment, body))
      continue;
    auto range = readRange(k, body, base, sourceName);
    if (!range)
      return range.takeError();
    out.push_back(std::move(*range));
  }
  return out;
}

bool lpx::isa::isChipValue(const ChipSpec &chip, StringRef key,
                           StringRef value) {
  const ChipKey *k = findChipKey(key);
  if (!k)
    return false;
  std::optional<ChipValue> have = k->get(chip);
  auto v = k->parse(value);
  if (!v) {
    llvm::consumeError(v.takeError());
    return false;
  }
  return have && *have == *v;
}

llvm::Expected<ChipAssumptions>
lpx::isa::loadChipAssumptions(StringRef presetOrPath) {
  auto text = readChipDescription(presetOrPath);
  if (!text)
    return text.takeError();
  auto chip = parseChipSpec(*text, presetOrPath);
  if (!chip)
    return chip.takeError();
  auto ranges = readAssumptionRanges(*text, *chip, presetOrPath);
  if (!ranges)
    return ranges.takeError();
  return ChipAssumptions{std::move(*chip), std::move(*ranges)};
}
