//===- ChipValidate.cpp - Impossible values of a chip description ---------===//
#include "ChipValidate.h"
#include "lpx/isa/UnitOps.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>

using namespace lpx::isa;

std::string validate::sram(SramSpec &s) {
  if (s.slices == 0) return "sram.slices must be positive";
  if (s.banksPerSlice == 0) return "sram.banks_per_slice must be positive";
  return "";
}

std::string validate::vector(VectorSpec &s) {
  if (s.lanes == 0) return "vector.lanes must be positive";
  if (s.bytes == 0) return "vector.bytes must be positive";
  return "";
}

std::string validate::mxm(MxmSpec &s) {
  if (s.planes == 0) return "mxm.planes must be positive";
  if (s.rows == 0) return "mxm.rows must be positive";
  if (s.cols == 0) return "mxm.cols must be positive";
  if (s.cyclesPerVectorInt8 == 0 || s.cyclesPerVector16 == 0 ||
      s.cyclesPerVector32 == 0)
    return "mxm.cycles_per_vector_* must be positive";
  if (s.queues == 0) return "mxm.queues must be positive";
  if (s.planes % s.queues)
    return "mxm.planes must be a multiple of mxm.queues (each queue gets "
           "an equal share of the planes)";
  if (s.cyclesPerVectorFp8 == 0) // not given: FP8 runs at the int8 rate
    s.cyclesPerVectorFp8 = s.cyclesPerVectorInt8;
  return "";
}

std::string validate::streamUnit(const char *unitKey, Unit unit,
                                 const StreamUnitSpec &s) {
  std::string u = unitKey;
  if (s.vectorsPerCycle == 0) return u + ".vectors_per_cycle must be positive";
  if (s.queues == 0) return u + ".queues must be positive";
  const auto &known = unitOpNames(unit);
  for (const auto &[name, cycles] : s.latencies)
    if (!std::binary_search(known.begin(), known.end(), name)) {
      std::string list;
      for (const std::string &k : known)
        list += (list.empty() ? "" : ", ") + k;
      return u + ".latencies." + name + ": " + u +
             " has no operation '" + name + "' (it has: " + list + ")";
    }
  return "";
}

std::string validate::vxm(VxmSpec &s) {
  if (auto msg = streamUnit("vxm", Unit::VXM, s); !msg.empty())
    return msg;
  if (s.transcendentalPasses == 0)
    return "vxm.transcendental_passes must be positive";
  if (s.alusPerLane == 0) // not given: one ALU per stream pipeline
    s.alusPerLane = s.vectorsPerCycle;
  return "";
}

std::string validate::link(LinkSpec &s) {
  if (s.lanes == 0) return "link.lanes must be positive";
  if (!(s.laneBytesPerCycle > 0))
    return "link.lane_bytes_per_cycle must be positive";
  if (s.flitPayload == 0) return "link.flit_payload must be positive";
  if (s.flitBytes < s.flitPayload)
    return "link.flit_bytes must be at least link.flit_payload";
  return "";
}

/// The message for a bad `topology.<name>` level, or "".
static std::string level(const char *name,
                         const std::optional<TopologyLevel> &l) {
  std::string key = std::string("topology.") + name;
  if (!l)
    return "";
  if (l->size < 2) return key + ".size must be at least 2";
  if (l->linksPerPair == 0) return key + ".links_per_pair must be positive";
  if (l->laneBytesPerCycle < 0)
    return key + ".lane_bytes_per_cycle must not be negative";
  return "";
}

std::string validate::topology(TopologySpec &s) {
  if (s.groupSize == 0) return "topology.group_size must be positive";
  if (s.globalLinksPerChip > 0 && s.globalLanes == 0)
    return "topology.global_lanes must be positive when chips have global "
           "links";
  if (s.globalLinksPerChip > 0 && !(s.globalLaneBytesPerCycle > 0))
    return "topology.global_lane_bytes_per_cycle must be positive when "
           "chips have global links";
  if (s.globalLaneBytesPerCycle < 0)
    return "topology.global_lane_bytes_per_cycle must not be negative";
  if ((s.rack || s.system) && s.globalLinksPerChip == 0)
    return "topology.rack and topology.system need global links";
  if (s.system && !s.rack)
    return "topology.system needs topology.rack";
  for (auto [name, l] : {std::pair{"rack", &s.rack}, {"system", &s.system}})
    if (auto msg = level(name, *l); !msg.empty())
      return msg;
  return "";
}

std::string validate::host(HostSpec &s) {
  if (s.latencyUs < 0) return "host.latency_us must not be negative";
  if (!(s.gbPerSecond > 0)) return "host.gb_per_second must be positive";
  return "";
}

std::string validate::formats(FormatsSpec &s) {
  auto isFloat = [](llvm::StringRef f) {
    return f == "fp32" || f == "fp16" || f == "bf16" || f == "fp8e4m3" ||
           f == "fp8e5m2";
  };
  if (!isFloat(s.weights) && s.weights != "int8")
    return "formats.weights '" + s.weights +
           "' is not a format (fp32, fp16, bf16, fp8e4m3, fp8e5m2, int8)";
  if (!isFloat(s.activations))
    return "formats.activations '" + s.activations +
           "' is not a format (fp32, fp16, bf16, fp8e4m3, fp8e5m2)";
  return "";
}

std::string validate::chip(ChipSpec &s) {
  if (!(s.clockMHz > 0)) return "clock_mhz must be positive";
  // The stream units are one C++ type; their messages need the key here.
  if (auto msg = streamUnit("sxm", Unit::SXM, s.sxm); !msg.empty())
    return msg;
  if (auto msg = streamUnit("mem", Unit::MEM, s.mem); !msg.empty())
    return msg;
  // Every queue's instruction may stream up to three operands and its
  // result at once; chained reads need that many stream registers.
  if (s.stream.chaining &&
      4ull * (s.mxm.queues + s.vxm.queues + s.sxm.queues + s.mem.queues) >
          2ull * s.stream.registersPerDirection)
    return "stream.registers_per_direction is too small for chaining: the "
           "unit queues together may stream 4 vectors each";
  if (s.sram.bytesPerCyclePerBank == 0) // not given: one vector per bank
    s.sram.bytesPerCyclePerBank = s.vector.bytes;
  if (s.vector.bytes != 0 && s.sram.bytes < s.vector.bytes)
    return "sram.bytes is smaller than one vector";
  return "";
}

llvm::Error lpx::isa::validateChipSpec(ChipSpec &spec) {
  // The parser's order: each section as it is read, then the whole.
  std::string msg = validate::sram(spec.sram);
  if (msg.empty()) msg = validate::vector(spec.vector);
  if (msg.empty()) msg = validate::mxm(spec.mxm);
  if (msg.empty()) msg = validate::vxm(spec.vxm);
  if (msg.empty()) msg = validate::link(spec.link);
  if (msg.empty()) msg = validate::topology(spec.topology);
  if (msg.empty()) msg = validate::host(spec.host);
  if (msg.empty() && spec.statesFormats())
    msg = validate::formats(spec.formats);
  if (msg.empty()) msg = validate::chip(spec);
  if (msg.empty())
    return llvm::Error::success();
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}
