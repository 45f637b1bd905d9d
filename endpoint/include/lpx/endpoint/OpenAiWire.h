//===- OpenAiWire.h - The OpenAI wire format of the endpoint ----*- C++ -*-===//
//
// Requests of POST /v1/chat/completions and /v1/completions read and checked
// (an unknown field or a wrong type is a 400 naming it, as OpenAI's API
// answers), and the bodies the endpoint sends: streamed chunks, whole
// completions, the model list and error objects. Every response carries
// "system_fingerprint": "lpx-simulated".
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ENDPOINT_OPENAIWIRE_H
#define LPX_ENDPOINT_OPENAIWIRE_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace lpx::endpoint {

constexpr const char *kFingerprint = "lpx-simulated";

/// An error response: HTTP status and OpenAI's error object.
struct WireError {
  int status = 400;
  std::string type = "invalid_request_error";
  std::string message;
  std::string param; // empty: null
  std::string code;  // empty: null
};
std::string errorJson(const WireError &e);

enum class Api { Chat, Completions };

struct CompletionRequest {
  Api api = Api::Chat;
  std::string model;
  /// The prompt's text (chat: each message as "ROLE: CONTENT\n").
  std::string text;
  int64_t maxTokens = -1; ///< -1: not given
  bool stream = false;
  bool includeUsage = false; ///< stream_options.include_usage
};

/// Deeper bodies are refused unparsed (the parser recurses per level).
constexpr size_t kMaxNesting = 32;

/// The request in `body`, or the error to answer with.
std::optional<WireError> parseCompletionRequest(llvm::StringRef body, Api api,
                                                CompletionRequest &out);

/// What every body names: the response id, its creation time, the model.
struct ResponseHead {
  Api api = Api::Chat;
  std::string id;
  int64_t created = 0;
  std::string model;
};

struct Usage {
  int64_t prompt = 0, completion = 0;
};

/// One streamed chunk: a token's text (the first chat chunk also carries
/// the assistant role), or with `finish` the last chunk, empty, naming why
/// the output ended.
std::string chunkJson(const ResponseHead &h, llvm::StringRef text, bool first,
                      llvm::StringRef finish = "");
/// The usage chunk after the last one (stream_options.include_usage).
std::string usageChunkJson(const ResponseHead &h, const Usage &u);
/// The whole completion of a request that did not stream.
std::string completionJson(const ResponseHead &h, llvm::StringRef text,
                           llvm::StringRef finish, const Usage &u);
/// GET /v1/models: the one model served.
std::string modelsJson(llvm::StringRef model, int64_t created);

} // namespace lpx::endpoint

#endif // LPX_ENDPOINT_OPENAIWIRE_H
