//===- ResidentRun.cpp - A resident-cache program on the CPU runtime ------===//
#include "ResidentRun.h"
#include "lpx/deploy/CompileSupport.h"

#include "lpx/deploy/Evaluate.h"
#include "lpx/isa/Bindings.h"
#include "lpx/isa/ChipOverrides.h"
#include "lpx/models/Export.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <cstring>

using namespace lpx;
using namespace lpx::deploy;

namespace lpx::deploy::resident {

llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

TempDir::~TempDir() {
  if (!path.empty())
    llvm::sys::fs::remove_directories(path);
}

/// `preset` exported with weights into `dir` as MODEL`suffix`.onnx: a step
/// of `query` tokens per sequence into `context` cache positions (0: the
/// preset's; set to the positions resolved).
static llvm::Expected<std::string>
exportPreset(const models::DecoderConfig &preset, const DecodeRunOptions &opts,
             int64_t query, int64_t &context, llvm::StringRef dir,
             llvm::StringRef suffix) {
  models::ExportOptions o;
  o.context = context;
  o.batch = int64_t(opts.prompts.size());
  o.prompt = query;
  if (llvm::Error e = models::resolveOptions(preset, o))
    return std::move(e);
  context = o.context;
  llvm::SmallString<128> file(dir);
  llvm::sys::path::append(file, opts.model + suffix + ".onnx");
  if (auto summary = models::exportModel(preset, o, file); !summary)
    return summary.takeError();
  return std::string(file);
}

llvm::Expected<ModelFiles> modelFiles(const DecodeRunOptions &opts,
                                      int64_t prompt, TempDir &tmp) {
  const models::DecoderConfig *preset = models::findPreset(opts.model);
  if (!preset) {
    if (opts.context)
      return fail("--context applies to a preset; '" + opts.model +
                  "' is not one");
    if (!llvm::sys::fs::is_regular_file(opts.model))
      return fail("'" + opts.model + "' is neither a model preset (see `lpx "
                  "models list`) nor an ONNX file");
    return ModelFiles{opts.model, ""};
  }
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("lpx-decode", tmp.path))
    return fail("cannot make a temporary folder: " + ec.message());
  ModelFiles files;
  auto exportAs = [&](int64_t query, int64_t context, const char *suffix) {
    auto file = exportPreset(*preset, opts, query, context, tmp.path, suffix);
    files.context = std::max(files.context, context);
    return file;
  };
  auto step = exportAs(1, opts.context, "-step");
  if (!step)
    return step.takeError();
  files.step = *step;
  if (prompt >= files.context)
    return fail(llvm::Twine(prompt) + " prompt tokens fill the model's " +
                llvm::Twine(files.context) + " cache positions; no token can "
                "follow (use a longer --context)");
  if (prompt > 1) {
    auto prefill = exportAs(prompt, prompt, "-prefill");
    if (!prefill)
      return prefill.takeError();
    files.prefill = *prefill;
  }
  return files;
}

llvm::Expected<std::string> exportStepOf(const DecodeRunOptions &opts,
                                         const ModelFiles &files,
                                         int64_t query, llvm::StringRef suffix) {
  const models::DecoderConfig *preset = models::findPreset(opts.model);
  if (!preset)
    return fail("'" + opts.model + "' is not a model preset");
  int64_t context = files.context;
  return exportPreset(*preset, opts, query, context,
                      llvm::sys::path::parent_path(files.step), suffix);
}

llvm::Expected<isa::VerifiedProgram>
compileResident(const DecodeRunOptions &opts, llvm::StringRef file,
                const isa::pb::Program *placement, int64_t kvContext,
                unsigned chunks) {
  std::string chipName =
      opts.chip.empty() ? isa::presetNames().front() : opts.chip;
  auto chip = isa::loadChipWithOverrides(chipName, opts.sets);
  if (!chip)
    return chip.takeError();
  EvaluateOptions eval;
  eval.compile.nodes = opts.chips;
  eval.compile.residentKV = true;
  eval.compile.kvContext = kvContext;
  eval.compile.chunks = chunks;
  eval.compile.tp = placement ? placement->tp() : opts.tp;
  eval.compile.pp = placement ? placement->pp() : opts.pp;
  eval.simulate = false;
  eval.keepConstantData = true; // the runtime reads them
  Evaluation e = evaluate(file, *chip, eval);
  if (e.failedAt == EvaluateStage::Compile) {
    if (e.diagnostics.empty())
      return fail("cannot compile '" + opts.model + "'");
    // A preset's export is a scratch file: name the preset instead.
    const std::string &said = e.error;
    llvm::StringRef rest = withoutFile(said, file);
    return fail(models::findPreset(opts.model) && rest.size() < said.size()
                    ? opts.model + ": " + rest
                    : llvm::Twine(said));
  }
  if (!e.ok())
    return fail(e.error);
  return std::move(*e.program);
}

/// The program's bindings as an IoShape (`what` names it in errors).
static llvm::Expected<IoShape> ioShape(const isa::pb::Program &p, llvm::StringRef what) {
  auto ins = isa::groupBindings(p, p.inputs());
  auto outs = isa::groupBindings(p, p.outputs());
  if (!ins || !outs)
    return fail("the program's bindings do not group");
  IoShape s;
  auto i64 = uint32_t(isa::DType::I64);
  auto twoDims = [&](const isa::HostBinding &b) {
    return b.shape.size() == 2 && b.dtype == i64;
  };
  for (const isa::HostBinding &b : *ins) {
    if ((b.name == "input_ids" || b.name == "position_ids") && twoDims(b) &&
        (!s.batch || std::tie(s.batch, s.query) == std::tie(b.shape[0], b.shape[1]))) {
      std::tie(s.batch, s.query) = std::tie(b.shape[0], b.shape[1]);
      continue;
    }
    if (b.name == "attention_mask" && twoDims(b)) {
      s.context = b.shape[1];
      continue;
    }
    return fail("the resident-cache " + what + " has input '" + b.name +
                "'; it takes only input_ids and position_ids [B, S] and "
                "attention_mask [B, L], all i64");
  }
  for (const isa::HostBinding &b : *outs)
    if (b.name == "logits" && isa::isFloat(isa::DType(b.dtype)) &&
        b.shape.size() == 3)
      s.vocab = b.shape.back();
  if (!s.context || !s.vocab || ins->size() != 3)
    return fail("the resident-cache " + what + " needs inputs input_ids, "
                "position_ids, attention_mask and a float output logits [B, S, V]");
  for (const isa::pb::Buffer &b : p.buffers()) {
    s.inputBytes += b.kind() == isa::pb::INPUT ? b.bytes() : 0;
    s.outputBytes += b.kind() == isa::pb::OUTPUT ? b.bytes() : 0;
    s.stateBytes += b.kind() == isa::pb::STATE ? b.bytes() : 0;
  }
  return s;
}

rt::HostTensor int64Tensor(const char *name, std::vector<int64_t> shape,
                           const std::vector<int64_t> &values) {
  rt::HostTensor t{name, isa::DType::I64, std::move(shape), {}};
  t.data.resize(values.size() * sizeof(int64_t));
  std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}

llvm::Expected<LogitRows> feed(rt::Machine &m, const IoShape &s,
                               const std::vector<std::vector<int64_t>> &ids,
                               int64_t first) {
  std::vector<int64_t> flatIds, positions, mask;
  for (const std::vector<int64_t> &row : ids)
    for (int64_t q = 0; q < s.query; ++q) {
      flatIds.push_back(row[size_t(q)]);
      positions.push_back(first + q);
    }
  for (int64_t b = 0; b < s.batch; ++b)
    for (int64_t j = 0; j < s.context; ++j)
      mask.push_back(j < first + s.query ? 1 : 0);
  auto outs = m.run({int64Tensor("input_ids", {s.batch, s.query}, flatIds),
                     int64Tensor("position_ids", {s.batch, s.query}, positions),
                     int64Tensor("attention_mask", {s.batch, s.context}, mask)});
  if (!outs)
    return outs.takeError();
  auto logits = llvm::find_if(*outs, [](const rt::HostTensor &t) {
    return t.name == "logits";
  });
  // Logits in a reduced format are widened on the host.
  auto widened = rt::convertTensor(*logits, isa::DType::F32);
  if (!widened)
    return widened.takeError();
  const float *data = reinterpret_cast<const float *>(widened->data.data());
  std::vector<std::vector<std::vector<float>>> rows(size_t(s.query));
  for (int64_t q = 0; q < s.query; ++q)
    for (int64_t b = 0; b < s.batch; ++b) {
      const float *row = data + (b * s.query + q) * s.vocab;
      rows[size_t(q)].emplace_back(row, row + s.vocab);
    }
  return rows;
}

int64_t argmax(const std::vector<float> &row) {
  size_t best = 0;
  for (size_t v = 1; v < row.size(); ++v)
    if (row[v] > row[best])
      best = v;
  return int64_t(best);
}

llvm::Expected<int64_t> promptLength(const DecodeRunOptions &opts,
                                     llvm::StringRef why) {
  if (opts.prompts.empty() || opts.prompts.front().empty())
    return fail("--prompt-ids needs at least one token id");
  const int64_t length = int64_t(opts.prompts.front().size());
  for (const std::vector<int64_t> &p : opts.prompts)
    if (int64_t(p.size()) != length)
      return fail("the prompts have " + llvm::Twine(length) + " and " +
                  llvm::Twine(p.size()) + " tokens; " + why);
  return length;
}

llvm::Error checkPrompts(const DecodeRunOptions &opts, const IoShape &step,
                         int64_t extra) {
  const size_t length = opts.prompts.front().size();
  for (const std::vector<int64_t> &p : opts.prompts) {
    for (int64_t id : p)
      if (id < 0 || id >= step.vocab)
        return fail("prompt id " + llvm::Twine(id) +
                    " is outside the vocabulary of " + llvm::Twine(step.vocab));
  }
  const size_t positions = length + opts.tokens - 1 + size_t(extra);
  if (int64_t(positions) > step.context)
    return fail(llvm::Twine(length) + " prompt tokens and " +
                llvm::Twine(opts.tokens) + " generated need " +
                llvm::Twine(positions) + " cache positions; the model holds " +
                llvm::Twine(step.context));
  return llvm::Error::success();
}

llvm::Expected<ResidentProgram>
compileChecked(const DecodeRunOptions &opts, llvm::StringRef file,
               llvm::StringRef what, int64_t query,
               const isa::pb::Program *placement, int64_t kvContext) {
  auto prog = compileResident(opts, file, placement, kvContext);
  if (!prog)
    return prog.takeError();
  auto io = ioShape(prog->program(), what);
  if (!io)
    return io.takeError();
  if (io->query != query || io->batch != int64_t(opts.prompts.size()))
    return fail("the " + what + " takes " + llvm::Twine(io->batch) + " x " +
                llvm::Twine(io->query) + " tokens, not " +
                llvm::Twine(opts.prompts.size()) + " x " + llvm::Twine(query));
  ResidentProgram r;
  r.program.emplace(std::move(*prog));
  r.io = *io;
  return r;
}

} // namespace lpx::deploy::resident
