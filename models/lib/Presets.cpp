//===- Presets.cpp - Published LLM dimensions and tiny test models --------===//
#include "lpx/models/Presets.h"

using namespace lpx::models;

// Dimensions from each model's published config.json (Hugging Face hub) or
// paper; the tiny presets are ours, small enough for the CPU runtime.
static const DecoderConfig kPresets[] = {
    // name, family, vocab, D, layers, heads, kv heads, ffn, experts, top-k,
    // max context, default context, rope theta, norm eps, random, source
    {"llama2-7b", Family::Llama, 32000, 4096, 32, 32, 32, 11008, 0, 0, 4096,
     4096, 10000.0, 1e-5, false, "meta-llama/Llama-2-7b-hf config.json"},
    {"llama2-13b", Family::Llama, 32000, 5120, 40, 40, 40, 13824, 0, 0, 4096,
     4096, 10000.0, 1e-5, false, "meta-llama/Llama-2-13b-hf config.json"},
    {"llama2-70b", Family::Llama, 32000, 8192, 80, 64, 8, 28672, 0, 0, 4096,
     4096, 10000.0, 1e-5, false, "meta-llama/Llama-2-70b-hf config.json"},
    {"llama3-8b", Family::Llama, 128256, 4096, 32, 32, 8, 14336, 0, 0, 8192,
     4096, 500000.0, 1e-5, false, "meta-llama/Meta-Llama-3-8B config.json"},
    {"llama3-70b", Family::Llama, 128256, 8192, 80, 64, 8, 28672, 0, 0, 8192,
     4096, 500000.0, 1e-5, false, "meta-llama/Meta-Llama-3-70B config.json"},
    {"mixtral-8x7b", Family::Mixtral, 32000, 4096, 32, 32, 8, 14336, 8, 2,
     32768, 4096, 1000000.0, 1e-5, false,
     "mistralai/Mixtral-8x7B-v0.1 config.json"},
    {"gpt2", Family::Gpt2, 50257, 768, 12, 12, 12, 3072, 0, 0, 1024, 1024, 0,
     1e-5, false, "openai-community/gpt2 config.json"},
    {"gpt2-xl", Family::Gpt2, 50257, 1600, 48, 25, 25, 6400, 0, 0, 1024, 1024,
     0, 1e-5, false, "openai-community/gpt2-xl config.json"},
    {"tiny-llama", Family::Llama, 256, 64, 2, 4, 2, 128, 0, 0, 256, 64,
     10000.0, 1e-5, true, "lpx test model"},
    {"tiny-gpt2", Family::Gpt2, 256, 64, 2, 4, 4, 256, 0, 0, 256, 64, 0, 1e-5,
     true, "lpx test model"},
    // A vocabulary that outweighs the layers (as Llama 3's on 220 MiB
    // chips): its embedding and LM head are spread over several stages.
    {"tiny-vocab", Family::Llama, 1024, 64, 2, 4, 2, 128, 0, 0, 256, 64,
     10000.0, 1e-5, true, "lpx test model"},
    {"tiny-mixtral", Family::Mixtral, 256, 64, 2, 4, 2, 96, 4, 2, 256, 64,
     10000.0, 1e-5, true, "lpx test model"},
};

llvm::ArrayRef<DecoderConfig> lpx::models::presets() { return kPresets; }

const DecoderConfig *lpx::models::findPreset(llvm::StringRef name) {
  for (const DecoderConfig &c : kPresets)
    if (name == c.name)
      return &c;
  return nullptr;
}

llvm::StringRef lpx::models::familyName(Family f) {
  switch (f) {
  case Family::Llama:
    return "llama";
  case Family::Mixtral:
    return "mixtral";
  case Family::Gpt2:
    return "gpt2";
  }
  return "?";
}
