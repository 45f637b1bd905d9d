//===- Tokeniser.cpp - Bytes in, Latin-1 characters out -------------------===//

#include "lpx/endpoint/Tokeniser.h"

namespace lpx::endpoint {

std::vector<int64_t> promptTokens(llvm::StringRef text) {
  std::vector<int64_t> ids;
  ids.reserve(text.size());
  for (unsigned char c : text)
    ids.push_back(int64_t(c));
  return ids;
}

std::string tokenText(int64_t id) {
  if (id < 0 || id > 255)
    return "<" + std::to_string(id) + ">";
  if (id < 0x80)
    return std::string(1, char(id));
  // U+0080..U+00FF in UTF-8: two bytes.
  return {char(0xC0 | (id >> 6)), char(0x80 | (id & 0x3F))};
}

std::string syntheticTokenText(int64_t index) {
  // Says what it is, so nobody mistakes it for a model's answer.
  static const char *const kWords[] = {"simulated ", "text ", "from ",
                                       "lpx; ",      "no ",   "model ",
                                       "ran. "};
  return kWords[index % int64_t(std::size(kWords))];
}

} // namespace lpx::endpoint
