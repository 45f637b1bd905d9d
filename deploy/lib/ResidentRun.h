//===- ResidentRun.h - A resident-cache program on the CPU runtime -*- C++ -*-===//
//
// The pieces `lpx decode --run` (DecodeGenerate.cpp) and the speculative
// run (SpeculativeGenerate.cpp) share: a preset exported with weights as a
// step of Q tokens into a cache of L positions, compiled with its KV cache
// resident (lpx-resident-kv), checked against what it exchanges with the
// host, and fed token ids at positions. Internal to lpx_deploy.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_LIB_RESIDENTRUN_H
#define LPX_DEPLOY_LIB_RESIDENTRUN_H

#include "lpx/deploy/DecodeGenerate.h"
#include "lpx/isa/Program.h"
#include "lpx/runtime/Runtime.h"

#include "llvm/ADT/SmallString.h"
#include <optional>

namespace lpx::deploy::resident {

llvm::Error fail(const llvm::Twine &message);

/// A folder removed with everything in it when this goes out of scope.
struct TempDir {
  llvm::SmallString<128> path;
  ~TempDir();
};

/// The ONNX files of `opts.model`: the decode step, and for a preset with
/// a prompt of 2 or more tokens the prefill (`prompt` tokens per sequence,
/// no past: `lpx models export --prompt S --context S`), both exported into
/// `tmp` with weights (the runtime needs them).
struct ModelFiles {
  std::string step, prefill; // prefill empty: none
  int64_t context = 0;       // the step's cache positions (0: a file's own)
};
llvm::Expected<ModelFiles> modelFiles(const DecodeRunOptions &opts,
                                      int64_t prompt, TempDir &tmp);

/// The preset `opts.model` exported with weights beside `files.step` as a
/// step of `query` tokens for each of opts.prompts' sequences into the
/// step's `files.context` cache positions (a prefill chunk, a speculative
/// verification), named MODEL`suffix`.onnx.
llvm::Expected<std::string> exportStepOf(const DecodeRunOptions &opts,
                                         const ModelFiles &files,
                                         int64_t query, llvm::StringRef suffix);

/// The model compiled for `opts.chips` chips with its KV cache resident,
/// with the placement `placement` (a program's tp and pp; none: --tp/--pp,
/// or the compiler's choice); `kvContext`: see CompileOptions.
llvm::Expected<isa::VerifiedProgram>
compileResident(const DecodeRunOptions &opts, llvm::StringRef file,
                const isa::pb::Program *placement, int64_t kvContext,
                unsigned chunks = 1);

/// What a resident-cache program exchanges with the host: `query` tokens
/// for each of `batch` sequences into a cache of `context` positions,
/// checked against the program's bindings.
struct IoShape {
  int64_t batch = 0, query = 0, context = 0, vocab = 0;
  uint64_t inputBytes = 0, outputBytes = 0, stateBytes = 0;
};

rt::HostTensor int64Tensor(const char *name, std::vector<int64_t> shape,
                           const std::vector<int64_t> &values);

/// Logits per position and sequence, [Q][B][V].
using LogitRows = std::vector<std::vector<std::vector<float>>>;

/// One run of a resident-cache program: `ids` [B][Q] at positions
/// `first`..`first`+Q-1 of every sequence, positions 0..`first`+Q-1 unmasked.
llvm::Expected<LogitRows> feed(rt::Machine &m, const IoShape &s,
                               const std::vector<std::vector<int64_t>> &ids,
                               int64_t first);

/// The first of the largest logits.
int64_t argmax(const std::vector<float> &row);

/// The prompts' length: at least one token, the same for every prompt
/// (`why` ends the error: what needs one length).
llvm::Expected<int64_t> promptLength(const DecodeRunOptions &opts,
                                     llvm::StringRef why);

/// The prompts' ids in the vocabulary and room in the cache for the tokens
/// asked for (and `extra` positions past them).
llvm::Error checkPrompts(const DecodeRunOptions &opts, const IoShape &step,
                         int64_t extra = 0);

/// A compiled resident-cache program and what it exchanges with the host.
struct ResidentProgram {
  std::optional<isa::VerifiedProgram> program;
  IoShape io;
};

/// compileResident, its bindings checked to take `query` tokens for each
/// of opts.prompts' sequences (`what` names it in errors).
llvm::Expected<ResidentProgram>
compileChecked(const DecodeRunOptions &opts, llvm::StringRef file,
               llvm::StringRef what, int64_t query,
               const isa::pb::Program *placement = nullptr,
               int64_t kvContext = 0);

} // namespace lpx::deploy::resident

#endif
