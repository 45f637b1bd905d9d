//===- ChipFuzzer.cpp - Chip descriptions and --set overrides -------------===//
//
// Input: a chip description (YAML), optionally followed by a line "%%" and
// `key=value` override lines. Whatever parses must print, and the printed
// form must parse again to the same printed form: a program embeds the
// printed description, so a description that does not survive the round
// trip would make a program unreadable.
//
//===----------------------------------------------------------------------===//
#include "lpx/isa/ChipOverrides.h"
#include "lpx/isa/ChipSpec.h"
#include "lpx/isa/Topology.h"
#include <algorithm>

#include "llvm/Support/raw_ostream.h"
#include <cstdlib>

using namespace lpx::isa;

static void check(bool ok, const char *what, const std::string &text) {
  if (ok)
    return;
  llvm::errs() << "fuzz-chip: " << what << "\n" << text << "\n";
  std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef input(reinterpret_cast<const char *>(data), size);
  auto [yaml, sets] = input.split("\n%%\n");
  std::vector<std::pair<std::string, std::string>> settings;
  llvm::SmallVector<llvm::StringRef> lines;
  sets.split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef line : lines) {
    auto kv = splitSetting(line);
    if (!kv) {
      llvm::consumeError(kv.takeError());
      return 0;
    }
    settings.push_back(std::move(*kv));
  }
  auto spec = parseChipSpec(yaml, "fuzz.yaml");
  if (!spec) {
    llvm::consumeError(spec.takeError());
    return 0;
  }
  if (auto e = applyOverrides(*spec, settings)) {
    llvm::consumeError(std::move(e));
    return 0;
  }
  std::string printed = printChipSpec(*spec);
  auto again = parseChipSpec(printed, "printed");
  if (!again) {
    std::string why = llvm::toString(again.takeError());
    check(false, ("printed description does not parse: " + why).c_str(),
          printed);
  }
  check(printChipSpec(*again) == printed, "print/parse is not a fixed point",
        printed);
  for (const std::string &key : numericParameterKeys())
    (void)parameterValue(*spec, key);
  // Routes between a few chips of the largest system the topology allows.
  uint64_t chips = std::min<uint64_t>(maxChips(*spec), 64);
  if (!checkChipCount(*spec, uint32_t(chips)))
    for (uint32_t s = 0; s < chips; s += 7)
      for (uint32_t d = 0; d < chips; d += 5)
        (void)route(*spec, uint32_t(chips), s, d);
  return 0;
}
