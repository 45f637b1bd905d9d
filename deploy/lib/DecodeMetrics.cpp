//===- DecodeMetrics.cpp - What users of decode measure, from the plan ----===//
#include "lpx/deploy/DecodeMetrics.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <cmath>

using namespace lpx;
using namespace lpx::deploy;
using llvm::formatv;

namespace {

/// "mxm" on node 0 -> "mxm on chip 0"; "link3" -> "link 3 of chip 0".
std::string queueName(const sim::QueueStats &q) {
  llvm::StringRef name = q.queue;
  if (name.consume_front("link"))
    return formatv("link {0} of chip {1}", name, q.node).str();
  return formatv("{0} on chip {1}", name, q.node).str();
}

} // namespace

std::string lpx::deploy::bottleneckOf(const sim::SimResult &r) {
  const sim::QueueStats *busiest = nullptr;
  for (const sim::QueueStats &q : r.queues)
    if (!busiest || q.busyCycles > busiest->busyCycles)
      busiest = &q;
  const uint64_t sram = r.bounds.sramBandwidth.cycles - r.bounds.deskew;
  const double total = double(std::max<uint64_t>(r.totalCycles, 1));
  std::string resource;
  uint64_t busy;
  if (!busiest || sram > busiest->busyCycles) {
    resource = formatv("SRAM of chip {0}", r.bounds.sramBandwidth.node).str();
    busy = sram;
  } else {
    resource = queueName(*busiest);
    busy = busiest->busyCycles;
  }
  std::string usage = formatv("busy {0} of {1} cycles ({2:f0}%)", busy,
                              r.totalCycles, 100.0 * double(busy) / total);
  const uint64_t chain = r.bounds.criticalPath.cycles;
  if (chain > 2 * busy)
    return formatv("latency: the dependency chain of {0} cycles ({1}); the "
                   "busiest resource, {2}, is {3}",
                   chain, r.bounds.criticalPath.what, resource, usage)
        .str();
  return resource + ": " + usage;
}

namespace {

/// Per chip, the phase that uses more of its SRAM.
std::vector<ChipSram> largerSram(const DecodePlan &plan) {
  std::vector<ChipSram> out = plan.step.sram;
  if (plan.prefill)
    for (size_t i = 0; i < out.size() && i < plan.prefill->sram.size(); ++i)
      if (plan.prefill->sram[i].used() > out[i].used())
        out[i] = plan.prefill->sram[i];
  return out;
}

} // namespace

unsigned lpx::deploy::groupsSramHolds(const std::vector<ChipSram> &sram) {
  uint64_t fewest = UINT64_MAX;
  for (const ChipSram &c : sram)
    if (c.kvCache > 0) {
      const uint64_t free = c.capacity > c.used() ? c.capacity - c.used() : 0;
      fewest = std::min(fewest, 1 + free / c.kvCache);
    }
  return fewest == UINT64_MAX ? 0 : unsigned(std::min<uint64_t>(fewest, 1u << 20));
}

namespace {

/// Groups of B sequences pipelined through the stages. A group occupies
/// each chip for that chip's occupancy in the simulated step (first issue
/// to last completion), so the busiest chip takes a new group every
/// `longest` cycles; a group comes back for its next token one TPOT (step
/// plus host I/O) later. With k groups in flight a token period is
/// max(TPOT, k * longest) and serves k * B tokens. k is at most one group
/// per pipeline stage (a stage works on one group at a time), no more than
/// keep the busiest chip busy for a whole period (ceil(TPOT / longest):
/// more would only wait), and no more than the free SRAM of every
/// cache-holding chip has room for their KV caches.
void pipelining(const DecodePlan &plan, DecodeMetrics &m) {
  const PhaseResult &step = plan.step;
  uint64_t longest = 0;
  for (size_t i = 0; i < step.occupied.size(); ++i)
    if (step.occupied[i] > longest) {
      longest = step.occupied[i];
      m.stageChip = unsigned(i);
    }
  const double clock = step.program->chip().clockMHz;
  m.stageUs = double(longest) / clock;
  m.stages = std::max(m.pp, 1u);
  const uint64_t filling =
      m.stageUs > 0 ? uint64_t(std::ceil(m.tpotUs() / m.stageUs - 1e-9)) : 1;
  m.kvLimit = groupsSramHolds(m.sram);
  uint64_t k = std::min<uint64_t>(m.stages, std::max<uint64_t>(filling, 1));
  if (m.kvLimit)
    k = std::min<uint64_t>(k, m.kvLimit);
  m.inFlight = unsigned(k);
  const double cycleUs = std::max(m.tpotUs(), double(m.inFlight) * m.stageUs);
  m.tokensPerSecond =
      cycleUs > 0 ? double(m.inFlight) * double(m.batch) * 1e6 / cycleUs : 0;
}

} // namespace

DecodeMetrics lpx::deploy::measureDecode(const DecodeTarget &t,
                                      const DecodeRequest &req,
                                      const DecodePlan &plan) {
  DecodeMetrics m;
  m.model = t.preset ? t.preset->name : t.modelFile;
  m.weights = t.weights;
  m.activations = t.activations;
  m.weightsFromChip = t.weightsFromChip;
  m.activationsFromChip = t.activationsFromChip;
  m.chipName = t.chip.name;
  m.clockMHz = t.chip.clockMHz;
  m.chips = plan.chips;
  m.group = std::max(t.chip.topology.groupSize, 1u);
  m.searched = plan.searched;
  m.searchCompiles = plan.searchCompiles;
  m.hintConfirmed = plan.hintConfirmed;
  // The placement the compiler chose for the step (what --tp/--pp asked
  // for, or its own choice); 0 when it used no tensor-parallel mesh.
  if (plan.step.program) {
    m.tp = plan.step.program->program().tp();
    m.pp = plan.step.program->program().pp();
  }
  m.placementAsked = t.tp || t.pp;
  m.trials = plan.trials;
  m.context = req.step.context;
  m.prompt = req.prompt ? req.prompt : req.prefill ? req.prefill->query : 0;
  m.batch = req.step.batch;
  if (!t.preset) // a file's own shapes: attention_mask is [batch, context]
    for (const isa::pb::Buffer &b : plan.step.program->program().buffers())
      if (b.name() == "attention_mask" && b.shape_size() == 2) {
        m.batch = b.shape(0);
        m.context = b.shape(1);
      }
  if (plan.prefill) {
    m.hasPrefill = true;
    m.prefillChunk = req.prefill->query;
    m.prefillChunks = req.prefill->chunks;
    m.chunkWhy = req.chunkWhy;
    m.ttftComputeUs = plan.prefill->computeUs();
    m.ttftHostUs = plan.prefill->hostUs();
    m.prefillTimeline = plan.prefill->timeline;
  }
  m.stepTimeline = plan.step.timeline;
  const double clock = t.chip.clockMHz;
  if (plan.prefill) {
    const sim::SimResult &p = plan.prefill->sim;
    m.ttftLatency = p.latency;
    m.ttftLatencyGap = p.latencyGap;
    m.ttftLatencyBoundUs =
        double(p.latency.cycles) / clock + plan.prefill->hostUs();
    m.ttftLatencyEfficiency =
        m.ttftUs() > 0 ? m.ttftLatencyBoundUs / m.ttftUs() : 1.0;
  }
  m.tpotComputeUs = plan.step.computeUs();
  m.tpotHostUs = plan.step.hostUs();
  m.tokensPerSecondPerUser = m.tpotUs() > 0 ? 1e6 / m.tpotUs() : 0;
  m.tpotLatency = plan.step.sim.latency;
  m.tpotLatencyGap = plan.step.sim.latencyGap;
  m.tpotLatencyBoundUs =
      double(plan.step.sim.latency.cycles) / clock + plan.step.hostUs();
  m.tpotLatencyEfficiency =
      m.tpotUs() > 0 ? m.tpotLatencyBoundUs / m.tpotUs() : 1.0;
  m.sram = largerSram(plan);
  for (size_t i = 0; i < m.sram.size(); ++i)
    if (m.sram[i].used() > m.sram[m.sramChip].used())
      m.sramChip = unsigned(i);
  pipelining(plan, m);
  m.bottleneck = bottleneckOf(plan.step.sim);

  const sim::SimResult &r = plan.step.sim;
  m.physical = r.physical;
  m.physicalBoundUs = double(r.physical.cycles) / t.chip.clockMHz;
  m.efficiency = r.physicalEfficiency;
  m.gap = r.gap;
  m.scheduleEfficiency = r.efficiency;
  m.scheduleBottleneck = r.bottleneck;
  return m;
}

/// "serial latency 40%, link time 10%, idle units 50%" of a gap.
static std::string gapShares(const sim::GapAttribution &g) {
  const uint64_t gap = g.serialLatency + g.linkTime + g.idleUnits;
  auto share = [&](uint64_t x) {
    return gap ? 100.0 * double(x) / double(gap) : 0.0;
  };
  return formatv("serial latency {0:f0}%, link time {1:f0}%, idle units "
                 "{2:f0}%",
                 share(g.serialLatency), share(g.linkTime),
                 share(g.idleUnits))
      .str();
}

/// The latency bounds first: what one request could get on this placement.
static void printLatencyBounds(const DecodeMetrics &m, llvm::raw_ostream &os) {
  auto line = [&](llvm::StringRef what, double efficiency, double boundUs,
                  const sim::LatencyBound &l, const sim::GapAttribution &g) {
    os << formatv("  {0} efficiency: {1:f3} of the latency bound {2:f3} us "
                  "(one request along {3} stage(s): stage {4}'s work, the "
                  "others' weights once, {5:f3} us of hops, host I/O); "
                  "beyond it: {6}\n",
                  what, efficiency, boundUs, l.stages.size(), l.busiestStage,
                  double(l.hopCycles) / m.clockMHz, gapShares(g));
  };
  if (m.hasPrefill)
    line("TTFT", m.ttftLatencyEfficiency, m.ttftLatencyBoundUs, m.ttftLatency,
         m.ttftLatencyGap);
  line("TPOT", m.tpotLatencyEfficiency, m.tpotLatencyBoundUs, m.tpotLatency,
       m.tpotLatencyGap);
}

static std::string mb(uint64_t bytes) {
  return formatv("{0:f1} MB", double(bytes) / 1e6).str();
}

void lpx::deploy::printDecodeText(const DecodeMetrics &m, llvm::raw_ostream &os) {
  os << formatv("decode of {0} on {1} chip(s) of {2}", m.model, m.chips,
                m.chipName);
  if (m.searched)
    os << (m.chips == 1 ? " (one chip holds it)"
                        : formatv(" ({0} group(s) of {1}: the fewest whole "
                                  "groups for which both phases compile)",
                                  m.chips / m.group, m.group)
                              .str());
  os << formatv(", context {0}, prompt {1}, batch {2}\n", m.context, m.prompt,
                m.batch);
  auto format = [](const std::string &f, bool fromChip) {
    return f.empty() ? std::string("the model's own")
                     : f + (fromChip ? " (the chip's)" : "");
  };
  os << "  formats: weights " << format(m.weights, m.weightsFromChip)
     << ", activations " << format(m.activations, m.activationsFromChip)
     << "\n";
  os << (m.tp ? formatv("  placement: tp {0} x pp {1}{2}\n", m.tp, m.pp,
                        m.placementAsked ? " (asked for)"
                        : m.trials.size() > 1
                            ? " (the fastest decode step of those tried on "
                              "these chips)"
                            : " (the compiler's choice)")
                    .str()
              : std::string("  placement: no tensor-parallel mesh (one chip, or "
                            "no attention heads to split)\n"));
  if (m.trials.size() > 1) {
    os << "    decode steps tried (the compiler's own first):";
    for (const auto &[i, p] : llvm::enumerate(m.trials))
      os << formatv("{0} tp {1} x pp {2}: {3}", i ? ";" : "", p.tp, p.pp,
                    p.compiled     ? formatv("{0:f1} us", p.stepUs).str()
                    : p.doesNotFit ? std::string("does not fit")
                                   : std::string("does not compile"));
    os << "\n";
  }
  if (m.hasPrefill)
    os << formatv("  time to first token: {0:f3} us = prefill {1:f3} us "
                  "(simulated, P50 = P99) + host I/O {2:f3} us\n",
                  m.ttftUs(), m.ttftComputeUs, m.ttftHostUs);
  if (m.hasPrefill)
    os << formatv("  prefill: {0} chunk(s) of {1} token(s), pipelined through "
                  "the stages in one program{2}{3}\n",
                  m.prefillChunks, m.prefillChunk,
                  m.chunkWhy.empty() ? "" : ": ", m.chunkWhy);
  else
    os << "  time to first token: not simulated (an ONNX file is one step; "
          "a preset has a prefill)\n";
  os << formatv("  time per output token: {0:f3} us = step {1:f3} us "
                "(simulated, P50 = P99) + host I/O {2:f3} us\n",
                m.tpotUs(), m.tpotComputeUs, m.tpotHostUs);
  os << formatv("  tokens/s per user: {0:f1}\n", m.tokensPerSecondPerUser);
  os << formatv("  tokens/s at batch {0}: {1:f1} ({2} group(s) of {0} in "
                "flight through {7} pipeline stage(s): the busiest chip, {3}, "
                "is occupied {4:f3} us of the {5:f3} us step{6})\n",
                m.batch, m.tokensPerSecond, m.inFlight, m.stageChip, m.stageUs,
                m.tpotComputeUs,
                m.kvLimit ? formatv("; SRAM holds the caches of {0} group(s)",
                                    m.kvLimit)
                                .str()
                          : std::string(),
                m.stages);
  printLatencyBounds(m, os);
  os << "  bottleneck: " << m.bottleneck << "\n";
  const uint64_t gap = m.gap.serialLatency + m.gap.linkTime + m.gap.idleUnits;
  auto share = [&](uint64_t x) {
    return gap ? 100.0 * double(x) / double(gap) : 0.0;
  };
  os << formatv("  efficiency: {0:f3} of the physical bound {1:f3} us "
                "(limit: {2}); beyond it: serial latency {3:f0}%, link time "
                "{4:f0}%, idle units {5:f0}%\n",
                m.efficiency, m.physicalBoundUs, m.physical.limit,
                share(m.gap.serialLatency), share(m.gap.linkTime),
                share(m.gap.idleUnits));
  if (m.physical.linkCycles > 0)
    os << formatv("    without this placement's {0} bytes over links in {1} "
                  "hop(s): {2:f3} us (MXM and SRAM alone)\n",
                  m.physical.linkBytes, m.physical.linkHops,
                  double(m.physical.workCycles) / m.clockMHz);
  os << formatv("  schedule efficiency: {0:f2} (bound of its own "
                "instructions: {1})\n",
                m.scheduleEfficiency, m.scheduleBottleneck);
  const ChipSram &c = m.sram[m.sramChip];
  os << formatv("  SRAM of the fullest chip ({0}): weights {1}, KV cache {2}, "
                "activations {3}: {4} of {5}\n",
                m.sramChip, mb(c.weights), mb(c.kvCache), mb(c.activations),
                mb(c.used()), mb(c.capacity));
  if (!m.defaults.empty())
    os << "  defaults used: " << llvm::join(m.defaults, ", ")
       << " (--context, --prompt, --batch to change)\n";
}

static llvm::json::Object sramJson(const ChipSram &c) {
  return llvm::json::Object{{"weights", c.weights},
                            {"kv_cache", c.kvCache},
                            {"activations", c.activations},
                            {"total", c.used()},
                            {"capacity", c.capacity}};
}

/// Each placement tried: its step time, or why it did not compile.
static llvm::json::Array trialsJson(const std::vector<PlacementTrial> &trials) {
  llvm::json::Array out;
  for (const PlacementTrial &p : trials) {
    llvm::json::Object o{{"tp", p.tp}, {"pp", p.pp}};
    if (p.compiled)
      o["step_us"] = p.stepUs;
    else
      o["error"] = p.failure;
    out.push_back(std::move(o));
  }
  return out;
}

llvm::json::Object lpx::deploy::decodeJson(const DecodeMetrics &m) {
  llvm::json::Array perChip;
  for (const ChipSram &c : m.sram)
    perChip.push_back(sramJson(c));
  auto orNull = [](bool has, double v) -> llvm::json::Value {
    return has ? llvm::json::Value(v) : llvm::json::Value(nullptr);
  };
  auto placement = [&](unsigned v) -> llvm::json::Value {
    return v ? llvm::json::Value(v) : llvm::json::Value(nullptr);
  };
  return llvm::json::Object{
      {"model", m.model},
      {"chip", m.chipName},
      {"chips", m.chips},
      {"tp", placement(m.tp)},
      {"pp", placement(m.pp)},
      {"context", m.context},
      {"prompt", m.prompt},
      {"prefill_chunk", m.hasPrefill ? llvm::json::Value(m.prefillChunk)
                                     : llvm::json::Value(nullptr)},
      {"batch", m.batch},
      {"weights", m.weights.empty() ? llvm::json::Value(nullptr)
                                    : llvm::json::Value(m.weights)},
      {"activations", m.activations.empty()
                          ? llvm::json::Value(nullptr)
                          : llvm::json::Value(m.activations)},
      {"formats_from_chip",
       llvm::json::Object{{"weights", m.weightsFromChip},
                          {"activations", m.activationsFromChip}}},
      {"ttft_us", orNull(m.hasPrefill, m.ttftUs())},
      {"ttft_compute_us", orNull(m.hasPrefill, m.ttftComputeUs)},
      {"ttft_host_io_us", orNull(m.hasPrefill, m.ttftHostUs)},
      {"tpot_us", m.tpotUs()},
      {"tpot_compute_us", m.tpotComputeUs},
      {"tpot_host_io_us", m.tpotHostUs},
      {"tokens_per_second_per_user", m.tokensPerSecondPerUser},
      {"tokens_per_second", m.tokensPerSecond},
      {"sequences_in_flight", int64_t(m.inFlight) * m.batch},
      {"stage_occupied_us", m.stageUs},
      {"stage_chip", m.stageChip},
      {"bottleneck", m.bottleneck},
      {"sram_bytes_per_chip", sramJson(m.sram[m.sramChip])},
      {"sram_bytes_by_chip", std::move(perChip)},
      {"ttft_latency_bound_us", orNull(m.hasPrefill, m.ttftLatencyBoundUs)},
      {"ttft_latency_efficiency",
       orNull(m.hasPrefill, m.ttftLatencyEfficiency)},
      {"tpot_latency_bound_us", m.tpotLatencyBoundUs},
      {"tpot_latency_efficiency", m.tpotLatencyEfficiency},
      {"latency_bound",
       llvm::json::Object{
           {"ttft", m.hasPrefill ? llvm::json::Value(sim::latencyJson(
                                       m.ttftLatency, m.clockMHz))
                                 : llvm::json::Value(nullptr)},
           {"tpot", sim::latencyJson(m.tpotLatency, m.clockMHz)}}},
      {"physical_bound_us", m.physicalBoundUs},
      {"physical_bound", sim::physicalJson(m.physical, m.clockMHz)},
      {"efficiency", m.efficiency},
      {"gap_cycles",
       llvm::json::Object{{"serial_latency", m.gap.serialLatency},
                          {"link", m.gap.linkTime},
                          {"idle_units", m.gap.idleUnits}}},
      {"schedule_efficiency", m.scheduleEfficiency},
      {"placements_tried", trialsJson(m.trials)},
      {"defaults", llvm::json::Array(m.defaults)},
  };
}
