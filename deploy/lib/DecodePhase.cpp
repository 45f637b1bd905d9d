//===- DecodePhase.cpp - One phase of decode, compiled and simulated ------===//
#include "lpx/deploy/DecodePhase.h"
#include "lpx/deploy/CompileSupport.h"
#include "lpx/deploy/Evaluate.h"

#include "lpx/models/Export.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace lpx;
using namespace lpx::deploy;

namespace {

/// The KV cache as the program holds it: resident state, or (before the
/// cache became state) the step's past and present inputs and outputs.
bool isKvCache(const isa::pb::Buffer &b) {
  switch (b.kind()) {
  case isa::pb::TEMP:
  case isa::pb::CONSTANT:
    return false;
  case isa::pb::INPUT:
  case isa::pb::OUTPUT:
    return llvm::StringRef(b.name()).starts_with("past_key_values.") ||
           llvm::StringRef(b.name()).starts_with("present.");
  default:
    return true; // resident state
  }
}

/// Removes the files of one export, whatever happens.
struct ScratchFiles {
  std::string model;
  ~ScratchFiles() {
    if (model.empty())
      return;
    llvm::sys::fs::remove(model);
    llvm::sys::fs::remove(model + ".data");
  }
};

/// Per chip, the cycles one group of sequences holds it in the simulated
/// step: from its first instruction on the tokens' path (computed from the
/// `input_ids` input: the embedding rows and all that follows them;
/// chunkOfInstructions) to its last completion. What is computed from
/// positions, masks and constants alone (rotary tables, the causal mask,
/// their forwarding) is left out of the span: a chip can prepare it for the
/// next group while it works on this one, and counting it would make every
/// stage after the first look busy from cycle 0. No less than the chip's
/// busiest queue, which does its work for every group. A program without
/// `input_ids` counts every instruction.
std::vector<uint64_t> occupancyByChip(const std::vector<int32_t> &chunkOf,
                                      const sim::ExecutionTrace &trace,
                                      const sim::SimResult &sim,
                                      size_t chips) {
  std::vector<uint64_t> first(chips, UINT64_MAX), last(chips, 0);
  std::vector<uint64_t> busiest(chips, 0);
  for (const sim::InstructionEvent &e : trace.instructions) {
    last[e.node] = std::max(last[e.node], e.done);
    if (chunkOf.empty() || chunkOf[e.instruction] >= 0)
      first[e.node] = std::min(first[e.node], e.issue);
  }
  for (const sim::QueueStats &q : sim.queues)
    if (q.node < chips)
      busiest[q.node] = std::max(busiest[q.node], q.busyCycles);
  std::vector<uint64_t> occupied(chips, 0);
  for (size_t c = 0; c < chips; ++c)
    occupied[c] = std::max(first[c] == UINT64_MAX ? 0 : last[c] - first[c],
                           busiest[c]);
  return occupied;
}

} // namespace

double PhaseResult::computeUs() const {
  return double(sim.totalCycles) / program->chip().clockMHz;
}

std::vector<ChipSram> lpx::deploy::sramByChip(const isa::VerifiedProgram &prog) {
  const isa::pb::Program &p = prog.program();
  std::vector<ChipSram> out(std::max<uint32_t>(p.num_nodes(), 1));
  std::vector<uint64_t> top(out.size(), 0);
  for (const isa::pb::Buffer &b : p.buffers()) {
    ChipSram &c = out[b.node()];
    top[b.node()] = std::max(top[b.node()], b.addr() + b.bytes());
    if (b.kind() == isa::pb::CONSTANT)
      c.weights += b.bytes();
    else if (isKvCache(b))
      c.kvCache += b.bytes();
  }
  for (size_t i = 0; i < out.size(); ++i) {
    out[i].capacity = prog.chip().sram.bytes;
    // Activations share addresses over time: what is left of the highest
    // address in use after the resident weights and cache.
    const uint64_t resident = out[i].weights + out[i].kvCache;
    out[i].activations = top[i] > resident ? top[i] - resident : 0;
  }
  return out;
}

/// Writes the phase's model: the preset exported (shape-only), or the file.
static llvm::Expected<std::string> modelFor(const DecodeTarget &t,
                                            const PhaseShape &shape,
                                            ScratchFiles &scratch) {
  if (!t.preset)
    return t.modelFile;
  llvm::SmallString<256> path(t.scratchDir);
  llvm::sys::path::append(
      path, llvm::formatv("{0}-q{1}-c{2}-b{3}-l{4}{5}-k{6}{7}.onnx",
                          t.preset->name, shape.query, shape.context,
                          shape.batch, shape.logitsAt,
                          shape.argmax ? "-argmax" : "", shape.chunks,
                          shape.ffnOnly ? "-ffn" : "")
                .str());
  models::ExportOptions o;
  o.context = shape.context;
  o.prompt = shape.query;
  o.batch = shape.batch;
  o.logitsAt = shape.logitsAt;
  o.argmax = shape.argmax;
  o.ffnOnly = shape.ffnOnly;
  o.shapeOnly = true;
  if (llvm::Error e = models::resolveOptions(*t.preset, o))
    return std::move(e);
  scratch.model = path.str().str();
  if (auto s = models::exportModel(*t.preset, o, path); !s)
    return s.takeError();
  return path.str().str();
}

/// A simulated phase's figures: its SRAM, each chip's occupied cycles and
/// the timeline, from the program and the simulation's trace.
static PhaseResult phaseOf(isa::VerifiedProgram program, sim::SimResult sim,
                           const sim::ExecutionTrace &trace) {
  PhaseResult r;
  r.program = std::move(program);
  r.sim = std::move(sim);
  r.sram = sramByChip(*r.program);
  const std::vector<int32_t> chunkOf =
      chunkOfInstructions(r.program->program());
  r.occupied = occupancyByChip(chunkOf, trace, r.sim, r.sram.size());
  r.timeline = buildPhaseTimeline(*r.program, r.sim, trace, r.occupied, chunkOf);
  return r;
}

llvm::Expected<std::optional<PhaseResult>>
lpx::deploy::runPhase(const DecodeTarget &t, const PhaseShape &shape,
                      unsigned chips, FitVerdict &failure,
                      const PhaseProgress &progress) {
  ScratchFiles scratch;
  auto model = modelFor(t, shape, scratch);
  if (!model)
    return model.takeError();
  EvaluateOptions opts;
  opts.compile = CompileOptions{chips, t.weights, t.activations};
  // Both phases keep the KV cache resident in SRAM, as a deployment does:
  // the prefill (exported without a past) writes the prompt's positions
  // into the `cache` positions the step reads.
  opts.compile.residentKV = !t.noResidentKV && !shape.ffnOnly;
  if (shape.query > 1 && shape.context == shape.query)
    opts.compile.kvContext = shape.cache; // a prefill without a past
  opts.compile.chunks = unsigned(shape.chunks);
  if (shape.replicateRows)
    opts.compile.replicateBytes *= uint64_t(shape.query);
  opts.compile.tp = t.tp; // 0: the partition pass chooses
  opts.compile.pp = t.pp;
  opts.trace = true;
  opts.onStage = progress;

  Evaluation e = evaluate(*model, t.chip, opts);
  if (e.failedAt == EvaluateStage::Compile) {
    failure = fitVerdict(
        e.fit, t.preset ? withoutFile(e.error, *model).str() : e.error);
    return std::nullopt;
  }
  if (!e.ok())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), e.error);

  return std::optional<PhaseResult>(
      phaseOf(std::move(*e.program), std::move(*e.sim), *e.trace));
}

llvm::Expected<PhaseResult>
lpx::deploy::resimulatePhase(const PhaseResult &phase,
                             const isa::ChipSpec &chip) {
  auto program = isa::VerifiedProgram::verify(phase.program->program(), chip,
                                              phase.program->data());
  if (!program)
    return program.takeError();
  sim::ExecutionTrace trace;
  sim::SimOptions options; // as evaluate() simulates, with the trace
  options.trace = &trace;
  auto result = sim::simulate(*program, options);
  if (!result)
    return result.takeError();
  return phaseOf(std::move(*program), std::move(*result), trace);
}
