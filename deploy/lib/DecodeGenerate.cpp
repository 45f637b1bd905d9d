//===- DecodeGenerate.cpp - Greedy generation through the CPU runtime -----===//
#include "ResidentRun.h"

#include "lpx/isa/StateLayout.h"
#include <cmath>

using namespace lpx;
using namespace lpx::deploy;
using namespace lpx::deploy::resident;

namespace {

/// The prompts through a chunked prefill: `chunks` copies of the step of
/// `chunk` tokens in one program, copy k's inputs named NAME.chunk{k}
/// (copy 0's NAME), the last chunk padded after the prompt with id 0
/// (the padding's cache entries lie past the prompt, where the step
/// writes before it reads).
/// Returns the last chunk's logits, [chunk][B][V].
llvm::Expected<LogitRows>
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
  auto file = exportStepOf(opts, files, chunk, "-chunk");
  if (!file)
    return file.takeError();
  auto prog = compileResident(opts, *file, &step.program(), 0, unsigned(chunks));
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
  auto prompted = promptLength(opts, "a batch needs prompts of one length");
  if (!prompted)
    return prompted.takeError();
  const int64_t length = *prompted;
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

