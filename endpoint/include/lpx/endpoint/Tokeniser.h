//===- Tokeniser.h - The endpoint's stated token rule ------------*- C++ -*-===//
//
// The endpoint counts and feeds tokens by one rule (docs/endpoint.md):
//   - a prompt is one token per UTF-8 byte of its text, the token's id the
//     byte (0..255: the tiny presets' vocabulary of 256 holds every byte);
//     a chat request's text is each message as "ROLE: CONTENT\n";
//   - a generated id k is the character U+00kk for k < 256 (bytes read as
//     Latin-1, so any id is valid UTF-8 in JSON), else the text "<k>";
//   - synthetic text (presets too large to run) is a fixed word list, one
//     word per token.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ENDPOINT_TOKENISER_H
#define LPX_ENDPOINT_TOKENISER_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lpx::endpoint {

std::vector<int64_t> promptTokens(llvm::StringRef text);
/// The text of a generated token id.
std::string tokenText(int64_t id);
/// The synthetic text of output token `index` (0-based).
std::string syntheticTokenText(int64_t index);

} // namespace lpx::endpoint

#endif // LPX_ENDPOINT_TOKENISER_H
