//===- DeploymentTarget.h - A deployment from its command-line words -*- C++ -*-===//
//
// What `lpx decode` and `lpx serve` share: the model (a preset or a decode
// step ONNX file), the chip with its --set overrides, the number formats
// (the chip's deployment formats unless given) and the placement, made into
// a DecodeTarget; and the scratch folder its exports go to.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_DEPLOYMENTTARGET_H
#define LPX_DEPLOY_DEPLOYMENTTARGET_H

#include "lpx/deploy/DecodePhase.h"
#include "llvm/ADT/SmallString.h"

namespace lpx::deploy {

struct DeploymentSpec {
  std::string model; // preset name or FILE.onnx
  std::string chip;  // preset or file; empty: the default chip
  std::vector<std::string> sets;    // chip overrides: key=value
  std::string weights, activations; // empty: the chip's formats
  unsigned tp = 0, pp = 0;          // 0: the compiler's placement
};

/// `unknownPreset` words the error for a model name that is no preset.
llvm::Expected<DecodeTarget>
loadDeploymentTarget(const DeploymentSpec &spec,
                     const std::function<std::string(llvm::StringRef)>
                         &unknownPreset);

/// The deployment options `lpx decode` and `lpx serve` share, as given.
struct DeploymentArgs {
  std::string model;                  // preset or FILE.onnx (one decode step)
  std::string chip;
  std::vector<std::string> sets;      // chip overrides: key=value
  std::string context, chips, tp, pp; // validated
  std::string weights, activations;   // number formats; empty: the model's
};
/// Those options as numbers, checked (at most 65536 chips).
struct DeploymentNumbers {
  int64_t context = 0, chips = 0, tp = 0, pp = 0;
};
llvm::Error parseDeployment(const DeploymentArgs &a, DeploymentNumbers &o);
/// loadDeploymentTarget of `a` with the placement of `o`.
llvm::Error loadTarget(const DeploymentArgs &a, const DeploymentNumbers &o,
                       DecodeTarget &t);
/// `text` as a non-zero integer (ranges are the caller's to check); empty
/// text leaves `out` as it is. The error names the option: "--batch '0' is
/// not a positive integer".
llvm::Error parsePositive(const std::string &text, const char *option,
                          int64_t &out);
/// "512,1024,2048" as positive integers appended to `out`; empty text
/// appends none. The error names the option and the item.
llvm::Error parsePositiveList(const std::string &text, llvm::StringRef option,
                              std::vector<int64_t> &out);
/// "unknown model preset 'x' (presets: llama2-7b, ...)".
std::string unknownPresetMessage(llvm::StringRef name);

/// The defaults of a preset's shapes when the options leave them out (0):
/// the preset's context up to kDefaultDecodeContext, a prompt of
/// kDefaultDecodePrompt (at most the context); what was defaulted, for the
/// report ("context 4096 (the preset's, up to 4096)", "batch 1" when
/// `batchDefaulted`). With `prompts` (a prompt sweep) the context defaults
/// to the longest of them and the prompt is left alone. Nothing for an ONNX
/// file.
constexpr int64_t kDefaultDecodeContext = 4096, kDefaultDecodePrompt = 128;
std::vector<std::string> decodeDefaults(const DecodeTarget &t, int64_t &context,
                                        int64_t &prompt, bool batchDefaulted,
                                        const std::vector<int64_t> &prompts = {});

/// Shapes the preset accepts (its context length, batch limit) for a step
/// at `context` (or each of `sweep`) and, without a context sweep, the
/// prefill of `prompt` (or of each of `prompts`); an ONNX file takes none.
llvm::Error checkDecodeShapes(const DecodeTarget &t, int64_t context,
                              int64_t prompt, int64_t batch,
                              const std::vector<int64_t> &sweep,
                              const std::vector<int64_t> &prompts = {});

/// A private folder for exports, removed with everything in it.
struct ScratchDir {
  llvm::SmallString<256> path;
  llvm::Error create(llvm::StringRef prefix);
  ~ScratchDir();
};

} // namespace lpx::deploy

#endif
