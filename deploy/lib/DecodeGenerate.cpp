//===- DecodeGenerate.cpp - Greedy generation through the CPU runtime -----===//
#include "lpx/deploy/DecodeGenerate.h"
#include "lpx/deploy/CompileSupport.h"

#include "lpx/deploy/Evaluate.h"
#include "lpx/isa/Bindings.h"
#include "lpx/isa/ChipOverrides.h"
#include "lpx/isa/Program.h"
#include "lpx/isa/StateLayout.h"
#include "lpx/models/Export.h"
#include "lpx/runtime/Runtime.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>
#include <cstring>
#include <fmt/format.h>

using namespace lpx;
using namespace lpx::deploy;

namespace {

llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// A folder removed with everything in it when this goes out of scope.
struct TempDir {
  llvm::SmallString<128> path;
  ~TempDir() {
    if (!path.empty())
      llvm::sys::fs::remove_directories(path);
  }
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
  auto exportAs = [&](int64_t query, int64_t context,
                      const char *suffix) -> llvm::Expected<std::string> {
    models::ExportOptions o;
    o.context = context;
    o.batch = int64_t(opts.prompts.size());
    o.prompt = query;
    if (llvm::Error e = models::resolveOptions(*preset, o))
      return std::move(e);
    files.context = std::max(files.context, o.context);
    llvm::SmallString<128> file(tmp.path);
    llvm::sys::path::append(file, opts.model + suffix + ".onnx");
    if (auto summary = models::exportModel(*preset, o, file); !summary)
      return summary.takeError();
    return std::string(file);
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

/// The model compiled for `opts.chips` chips with its KV cache resident,
/// with the placement `placement` (a program's tp and pp; none: --tp/--pp,
/// or the compiler's choice); `kvContext`: see CompileOptions.
llvm::Expected<isa::VerifiedProgram>
compileResident(const DecodeRunOptions &opts, llvm::StringRef file,
                const isa::pb::Program *placement, int64_t kvContext,
                unsigned chunks = 1) {
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

/// What a resident-cache program exchanges with the host: `query` tokens
/// for each of `batch` sequences into a cache of `context` positions,
/// checked against the program's bindings.
struct IoShape {
  int64_t batch = 0, query = 0, context = 0, vocab = 0;
  uint64_t inputBytes = 0, outputBytes = 0, stateBytes = 0;
};

llvm::Expected<IoShape> ioShape(const isa::pb::Program &p, llvm::StringRef what) {
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

/// One run of a resident-cache program: `ids` [B][Q] at positions
/// `first`..`first`+Q-1 of every sequence, positions 0..`first`+Q-1 unmasked.
/// Returns the logits per position and sequence, [Q][B][V].
llvm::Expected<std::vector<std::vector<std::vector<float>>>>
feed(rt::Machine &m, const IoShape &s,
     const std::vector<std::vector<int64_t>> &ids, int64_t first) {
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

/// The prompts through a chunked prefill: `chunks` copies of the step of
/// `chunk` tokens in one program, copy k's inputs named NAME.chunk{k}
/// (copy 0's NAME), the last chunk padded after the prompt with id 0
/// (the padding's cache entries lie past the prompt, where the step
/// writes before it reads).
/// Returns the last chunk's logits, [chunk][B][V].
llvm::Expected<std::vector<std::vector<std::vector<float>>>>
feedChunks(rt::Machine &m, const std::vector<std::vector<int64_t>> &prompts,
           int64_t chunk, int64_t chunks, int64_t context) {
  const int64_t batch = int64_t(prompts.size());
  const int64_t length = int64_t(prompts.front().size());
  std::vector<rt::HostTensor> ins;
  for (int64_t k = 0; k < chunks; ++k) {
    // Positions up to the chunk's last unmasked (a step of one token has
    // no causal mask: the cache after it is not written yet).
    std::vector<int64_t> ids, positions, mask;
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t j = 0; j < context; ++j)
        mask.push_back(j < (k + 1) * chunk ? 1 : 0);
    for (const std::vector<int64_t> &p : prompts)
      for (int64_t q = 0; q < chunk; ++q) {
        const int64_t pos = k * chunk + q;
        ids.push_back(pos < length ? p[size_t(pos)] : 0);
        positions.push_back(pos);
      }
    const std::string suffix = k ? ".chunk" + std::to_string(k) : "";
    ins.push_back(int64Tensor("input_ids", {batch, chunk}, ids));
    ins.push_back(int64Tensor("position_ids", {batch, chunk}, positions));
    ins.push_back(int64Tensor("attention_mask", {batch, context}, mask));
    for (size_t i = ins.size() - 3; i < ins.size(); ++i)
      ins[i].name += suffix;
  }
  auto outs = m.run(ins);
  if (!outs)
    return outs.takeError();
  auto logits = llvm::find_if(*outs, [](const rt::HostTensor &t) {
    return t.name == "logits";
  });
  if (logits == outs->end() || logits->shape.size() != 3 ||
      logits->dtype != isa::DType::F32)
    return fail("the chunked prefill has no f32 output logits [B, C, V]");
  const int64_t vocab = logits->shape[2];
  const float *data = reinterpret_cast<const float *>(logits->data.data());
  std::vector<std::vector<std::vector<float>>> rows(static_cast<size_t>(chunk));
  for (int64_t q = 0; q < chunk; ++q)
    for (int64_t b = 0; b < batch; ++b) {
      const float *row = data + (b * chunk + q) * vocab;
      rows[size_t(q)].emplace_back(row, row + vocab);
    }
  return rows;
}

/// The largest difference between two programs' caches (the same states,
/// isa::checkSameState) at the first `positions` positions of each state,
/// along the axis its state_write writes.
llvm::Expected<double> cacheDifference(const rt::Machine &a,
                                       const isa::pb::Program &pa,
                                       const rt::Machine &b,
                                       const isa::pb::Program &pb,
                                       int64_t positions) {
  if (llvm::Error e = isa::checkSameState(pa, "the chunked prefill", pb,
                                          "the whole-prompt prefill"))
    return std::move(e);
  double worst = 0;
  for (int i = 0; i < pa.states_size(); ++i) {
    const uint32_t ia = pa.states(i).buffer(), ib = pb.states(i).buffer();
    const isa::pb::Buffer &buf = pa.buffers(int(ia));
    int64_t axis = -1;
    for (const isa::pb::Instruction &inst : pa.instructions())
      if (inst.result() == ia)
        axis = inst.attributes().axis().axis();
    if (axis < 0 || buf.dtype() != uint32_t(isa::DType::F32))
      return fail("state " + buf.name() + " is not an f32 state written "
                  "along an axis");
    int64_t stride = 1;
    for (int d = int(axis) + 1; d < buf.shape_size(); ++d)
      stride *= buf.shape(d);
    const auto *x = reinterpret_cast<const float *>(a.stateBytes(ia).data());
    const auto *y = reinterpret_cast<const float *>(b.stateBytes(ib).data());
    const int64_t n = int64_t(buf.bytes() / sizeof(float));
    for (int64_t e = 0; e < n; ++e)
      if ((e / stride) % buf.shape(int(axis)) < positions)
        worst = std::max(worst, double(std::fabs(x[e] - y[e])));
  }
  return worst;
}

/// The first of the largest logits.
int64_t argmax(const std::vector<float> &row) {
  size_t best = 0;
  for (size_t v = 1; v < row.size(); ++v)
    if (row[v] > row[best])
      best = v;
  return int64_t(best);
}

/// The prompts' ids in the vocabulary and room in the cache for the tokens
/// asked for.
llvm::Error checkPrompts(const DecodeRunOptions &opts, const IoShape &step) {
  const size_t length = opts.prompts.front().size();
  for (const std::vector<int64_t> &p : opts.prompts) {
    for (int64_t id : p)
      if (id < 0 || id >= step.vocab)
        return fail("prompt id " + llvm::Twine(id) +
                    " is outside the vocabulary of " + llvm::Twine(step.vocab));
  }
  const size_t positions = length + opts.tokens - 1;
  if (int64_t(positions) > step.context)
    return fail(llvm::Twine(length) + " prompt tokens and " +
                llvm::Twine(opts.tokens) + " generated need " +
                llvm::Twine(positions) + " cache positions; the model holds " +
                llvm::Twine(step.context));
  return llvm::Error::success();
}

/// A compiled resident-cache program and what it exchanges with the host.
struct ResidentProgram {
  std::optional<isa::VerifiedProgram> program;
  IoShape io;
};

llvm::Expected<ResidentProgram>
compileChecked(const DecodeRunOptions &opts, llvm::StringRef file,
               llvm::StringRef what, int64_t query,
               const isa::pb::Program *placement = nullptr,
               int64_t kvContext = 0) {
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

/// The chunked prefill of the prompts (DecodeRunOptions::prefillChunk),
/// placed as the step is: its cache at the prompt's positions and its
/// first tokens checked against the whole-prompt prefill's (`whole`,
/// `first`). Returns its machine, whose cache the step continues from.
llvm::Expected<rt::Machine>
chunkedPrefill(const DecodeRunOptions &opts, const ModelFiles &files,
               const isa::VerifiedProgram &step, const rt::Machine &whole,
               const isa::pb::Program &wholeProgram,
               const std::vector<std::vector<int64_t>> &first,
               DecodeRunResult &r) {
  const int64_t length = int64_t(opts.prompts.front().size());
  const int64_t chunk = opts.prefillChunk;
  const int64_t chunks = (length + chunk - 1) / chunk;
  if (chunks * chunk > files.context)
    return fail(llvm::Twine(chunks) + " chunks of " + llvm::Twine(chunk) +
                " tokens need " + llvm::Twine(chunks * chunk) +
                " cache positions; the model holds " +
                llvm::Twine(files.context));
  const models::DecoderConfig *preset = models::findPreset(opts.model);
  models::ExportOptions o;
  o.context = files.context;
  o.batch = int64_t(opts.prompts.size());
  o.prompt = chunk;
  if (llvm::Error e = models::resolveOptions(*preset, o))
    return std::move(e);
  llvm::SmallString<128> file(llvm::sys::path::parent_path(files.step));
  llvm::sys::path::append(file, opts.model + "-chunk.onnx");
  if (auto summary = models::exportModel(*preset, o, file); !summary)
    return summary.takeError();
  auto prog = compileResident(opts, file, &step.program(), 0, unsigned(chunks));
  if (!prog)
    return prog.takeError();
  // The machine keeps a pointer to its program: keep it with the result.
  r.chunkedProgram = std::make_shared<isa::VerifiedProgram>(std::move(*prog));
  auto machine = rt::Machine::load(*r.chunkedProgram);
  if (!machine)
    return machine.takeError();
  auto rows = feedChunks(*machine, opts.prompts, chunk, chunks, files.context);
  if (!rows)
    return fail("chunked prefill: " + llvm::toString(rows.takeError()));
  const auto &last = (*rows)[size_t(length - 1 - (chunks - 1) * chunk)];
  for (size_t b = 0; b < first.size(); ++b)
    if (argmax(last[b]) != first[b].front())
      return fail("the chunked prefill's first token " +
                  llvm::Twine(argmax(last[b])) + " of sequence " +
                  llvm::Twine(b) + " is not the whole prompt's " +
                  llvm::Twine(first[b].front()));
  auto diff = cacheDifference(*machine, r.chunkedProgram->program(), whole,
                              wholeProgram, length);
  if (!diff)
    return diff.takeError();
  r.prefillChunks = chunks;
  r.chunkedCacheMaxDiff = *diff;
  return std::move(*machine);
}

} // namespace

llvm::Expected<DecodeRunResult>
lpx::deploy::generateGreedy(const DecodeRunOptions &opts) {
  if (opts.prompts.empty() || opts.prompts.front().empty())
    return fail("--prompt-ids needs at least one token id");
  const int64_t length = int64_t(opts.prompts.front().size());
  for (const std::vector<int64_t> &p : opts.prompts)
    if (int64_t(p.size()) != length)
      return fail("the prompts have " + llvm::Twine(length) + " and " +
                  llvm::Twine(p.size()) + " tokens; a batch needs prompts "
                  "of one length");
  TempDir tmp;
  auto files = modelFiles(opts, length, tmp);
  if (!files)
    return files.takeError();
  auto step = compileChecked(opts, files->step, "decode step", 1);
  if (!step)
    return step.takeError();
  if (llvm::Error e = checkPrompts(opts, step->io))
    return std::move(e);
  auto stepMachine = rt::Machine::load(*step->program);
  if (!stepMachine)
    return stepMachine.takeError();

  DecodeRunResult r;
  r.context = step->io.context;
  r.hostInputBytes = step->io.inputBytes;
  r.hostOutputBytes = step->io.outputBytes;
  r.stateBytes = step->io.stateBytes;
  r.generatedIds.assign(opts.prompts.size(), {});
  std::vector<std::vector<int64_t>> next(opts.prompts.size());
  // Takes each sequence's next token from the logits of its last position.
  auto record = [&](std::vector<std::vector<std::vector<float>>> rows) {
    for (size_t b = 0; b < opts.prompts.size(); ++b)
      next[b] = {argmax(rows.back()[b])};
    for (auto &row : rows)
      r.logits.push_back(std::move(row));
  };
  int64_t position = 0;
  if (!files->prefill.empty()) {
    // Placed as the step is, with its cache length, so that each chip
    // holds the same state.
    auto prefill = compileChecked(opts, files->prefill, "prefill", length,
                                  &step->program->program(), step->io.context);
    if (!prefill)
      return prefill.takeError();
    auto machine = rt::Machine::load(*prefill->program);
    if (!machine)
      return machine.takeError();
    auto rows = feed(*machine, prefill->io, opts.prompts, 0);
    if (!rows)
      return fail("prefill: " + llvm::toString(rows.takeError()));
    record(std::move(*rows));
    if (opts.prefillChunk > 0 && opts.prefillChunk < length) {
      auto chunked = chunkedPrefill(opts, *files, *step->program, *machine,
                                    prefill->program->program(), next, r);
      if (!chunked)
        return chunked.takeError();
      if (llvm::Error e = chunked->handStateTo(*stepMachine))
        return fail("chunked prefill to decode step: " +
                    llvm::toString(std::move(e)));
    } else if (llvm::Error e = machine->handStateTo(*stepMachine)) {
      return fail("prefill to decode step: " + llvm::toString(std::move(e)));
    }
    r.prefill = true;
    r.prefillInputBytes = prefill->io.inputBytes;
    r.prefillOutputBytes = prefill->io.outputBytes;
    position = length;
  } else {
    // No prefill program: the prompt goes through the step, a token a run.
    for (; position < length; ++position) {
      std::vector<std::vector<int64_t>> ids;
      for (const std::vector<int64_t> &p : opts.prompts)
        ids.push_back({p[size_t(position)]});
      auto rows = feed(*stepMachine, step->io, ids, position);
      if (!rows)
        return fail("step " + llvm::Twine(position) + ": " +
                    llvm::toString(rows.takeError()));
      record(std::move(*rows));
    }
  }
  for (unsigned t = 0; t < opts.tokens; ++t, ++position) {
    for (size_t b = 0; b < next.size(); ++b)
      r.generatedIds[b].push_back(next[b].front());
    if (t + 1 == opts.tokens)
      break; // the last token needs no step after it
    auto rows = feed(*stepMachine, step->io, next, position);
    if (!rows)
      return fail("step " + llvm::Twine(position) + ": " +
                  llvm::toString(rows.takeError()));
    record(std::move(*rows));
  }
  return r;
}

llvm::Expected<std::vector<int64_t>>
lpx::deploy::parseIdList(llvm::StringRef text) {
  std::vector<int64_t> ids;
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, ',');
  for (llvm::StringRef part : parts) {
    int64_t id;
    if (part.trim().getAsInteger(10, id) || id < 0)
      return fail("'" + part + "' in '" + text + "' is not a token id");
    ids.push_back(id);
  }
  return ids;
}

