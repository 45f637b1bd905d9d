//===- Content.h - The text of a response -----------------------*- C++ -*-===//
//
// The timing comes from the simulation; the text from one of two sources.
// A tiny preset runs on the CPU runtime: the tokens it generates greedily
// after the prompt's ids (deploy::generateGreedy, the path of `lpx decode
// --run`), so a test can check content as well as timing. A preset too large
// to run gets synthetic text that says it is (Tokeniser.h).
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ENDPOINT_CONTENT_H
#define LPX_ENDPOINT_CONTENT_H

#include "lpx/deploy/DecodeGenerate.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace lpx::endpoint {

class Content {
public:
  virtual ~Content();
  /// The texts of the `count` output tokens after `prompt`.
  virtual llvm::Expected<std::vector<std::string>>
  tokens(const std::vector<int64_t> &prompt, int64_t count) = 0;
  /// "greedy" or "synthetic", for the X-Lpx-Content header and /health.
  virtual const char *kind() const = 0;
};

std::unique_ptr<Content> syntheticContent();

/// Greedy generation on the CPU runtime with `base`'s model, chip, chips
/// and context (its prompts and tokens are each request's). One generation
/// at a time (each compiles the model: about 50 ms for tiny-llama); the
/// last `cacheEntries` answers are kept, so a repeated prompt is immediate.
std::unique_ptr<Content> greedyContent(deploy::DecodeRunOptions base,
                                       size_t cacheEntries = 64);

/// Whether a preset is small enough to run (the tiny test presets).
bool runnablePreset(llvm::StringRef model);

} // namespace lpx::endpoint

#endif // LPX_ENDPOINT_CONTENT_H
