//===- DecodeRunText.cpp - What `lpx decode --run` prints -----------------===//
//
// Text: the generated ids, one line per sequence. JSON: `generated_ids` and
// every fed position's `logits`; with one prompt they are one sequence's
// (`generated_ids` a list of ids, `logits` a list of rows, as before
// batches), with several they are lists per sequence.
//
//===----------------------------------------------------------------------===//
#include "lpx/deploy/DecodeGenerate.h"

#include "llvm/Support/JSON.h"
#include <cmath>
#include <fmt/format.h>

using namespace lpx;
using namespace lpx::deploy;

static void idsValue(llvm::json::OStream &j, const std::vector<int64_t> &ids) {
  j.array([&] {
    for (int64_t id : ids)
      j.value(id);
  });
}

static void logitsValue(llvm::json::OStream &j, const std::vector<float> &row) {
  j.array([&] {
    for (float v : row) { // 9 significant digits: float32 exactly
      if (std::isfinite(v))
        j.rawValue(fmt::format("{:.9g}", v));
      else
        j.value(nullptr); // JSON has no NaN or infinity
    }
  });
}

void lpx::deploy::printDecodeRunText(const DecodeRunOptions &opts, const DecodeRunResult &r,
               llvm::raw_ostream &os) {
  os << "generated " << opts.tokens << " tokens for " << opts.prompts.size()
     << " sequence(s) on " << opts.chips << " chip(s), KV cache resident ("
     << r.stateBytes << " bytes)";
  if (r.prefill)
    os << ", prefill host I/O " << r.prefillInputBytes << " bytes in, "
       << r.prefillOutputBytes << " bytes out";
  if (r.prefillChunks)
    os << ", chunked prefill " << r.prefillChunks << " x " << opts.prefillChunk
       << " tokens (first token as the whole prompt's, cache within "
       << r.chunkedCacheMaxDiff << ")";
  os << ", host I/O per step " << r.hostInputBytes << " bytes in, "
     << r.hostOutputBytes << " bytes out:\n";
  for (const std::vector<int64_t> &ids : r.generatedIds) {
    for (size_t i = 0; i < ids.size(); ++i)
      os << (i ? "," : "") << ids[i];
    os << "\n";
  }
}

void lpx::deploy::printDecodeRunJson(const DecodeRunOptions &opts, const DecodeRunResult &r,
               llvm::raw_ostream &os) {
  const bool batched = opts.prompts.size() > 1;
  llvm::json::OStream j(os);
  j.object([&] {
    j.attribute("model", opts.model);
    j.attribute("chips", int64_t(opts.chips));
    j.attribute("context", r.context);
    j.attribute("batch", int64_t(opts.prompts.size()));
    auto perSequence = [&](const char *key,
                           const std::vector<std::vector<int64_t>> &ids) {
      j.attributeBegin(key);
      if (batched)
        j.array([&] {
          for (const std::vector<int64_t> &s : ids)
            idsValue(j, s);
        });
      else
        idsValue(j, ids.front());
      j.attributeEnd();
    };
    perSequence("prompt_ids", opts.prompts);
    perSequence("generated_ids", r.generatedIds);
    j.attribute("kv_cache_bytes", int64_t(r.stateBytes));
    j.attribute("prefill", r.prefill);
    j.attribute("prefill_host_input_bytes", int64_t(r.prefillInputBytes));
    j.attribute("prefill_host_output_bytes", int64_t(r.prefillOutputBytes));
    j.attribute("prefill_chunk", r.prefillChunks ? llvm::json::Value(opts.prefillChunk)
                                                 : llvm::json::Value(nullptr));
    j.attribute("prefill_chunks", r.prefillChunks);
    j.attribute("chunked_cache_max_abs_diff", r.chunkedCacheMaxDiff);
    j.attribute("host_input_bytes_per_step", int64_t(r.hostInputBytes));
    j.attribute("host_output_bytes_per_step", int64_t(r.hostOutputBytes));
    j.attributeArray("logits", [&] {
      for (const std::vector<std::vector<float>> &position : r.logits) {
        if (!batched) {
          logitsValue(j, position.front());
          continue;
        }
        j.array([&] {
          for (const std::vector<float> &row : position)
            logitsValue(j, row);
        });
      }
    });
  });
  os << "\n";
}

