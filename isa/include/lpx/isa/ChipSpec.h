//===- ChipSpec.h - The chip description ------------------------*- C++ -*-===//
//
// Every parameter the compiler's cost model and the simulator use, read from a
// YAML file. Presets are YAML files too (isa/chips/); each documents where its
// figures come from. The compiler schedules against a spec and embeds its text
// in the program, so the simulator times the program on the same chip.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ISA_CHIPSPEC_H
#define LPX_ISA_CHIPSPEC_H

#include "lpx/isa/DType.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lpx::isa {

/// Parses a byte count written with or without a unit: 230686720, "220MiB",
/// "500MB", "64KiB" (B, KB, MB, GB, KiB, MiB, GiB).
std::optional<uint64_t> parseByteSize(llvm::StringRef text);

struct SramSpec {
  uint64_t bytes = 0;          // capacity per chip (a description may use units)
  uint32_t slices = 0;
  uint32_t banksPerSlice = 0;
  // Bytes one bank reads or writes per cycle (optional key; 0 in a file
  // means one vector). slices * banks_per_slice * this is the node's SRAM
  // bandwidth.
  uint32_t bytesPerCyclePerBank = 0;
};

struct VectorSpec {
  // Lanes compute side by side; an element narrower than a lane (bytes /
  // lanes) still takes a whole lane of the vector unit.
  uint32_t lanes = 0;
  uint32_t bytes = 0;          // bytes per vector: the unit of every stream
};

struct MxmSpec {
  uint32_t planes = 0;
  uint32_t rows = 0;           // K extent of one weight tile
  uint32_t cols = 0;           // N extent of one weight tile
  uint32_t weightLoadCycles = 0; // cycles to load one int8 tile into a plane
  uint32_t latency = 0;        // cycles from last input vector to last output
  // Cycles per activation vector for each operand width, relative to int8.
  uint32_t cyclesPerVectorInt8 = 1;
  uint32_t cyclesPerVector16 = 4;
  uint32_t cyclesPerVector32 = 16;
  uint32_t cyclesPerVectorFp8 = 0; // optional key; 0: the int8 rate
  // Independent instruction queues (optional key, default 1). The planes are
  // shared out evenly: each queue streams through planes / queues of them.
  uint32_t queues = 1;
  // Whether the compiler may install either operand of a product in the
  // planes (optional key, default true): the weights, streaming the
  // activations' rows, or the activations, streaming the weights' columns.
  // false: the weights are always the stationary operand.
  bool eitherOperandStationary = true;

  /// Cycles per streamed vector for a product of `a` and `b`: the wider
  /// operand sets the rate (fp8 x fp16 streams at the 16-bit rate); two
  /// one-byte operands take the fp8 rate when either is fp8, else int8.
  uint32_t cyclesPerVector(DType a, DType b) const;
};

struct StreamSpec {
  // Cycles a stream spends crossing the chip between SRAM and a functional
  // unit and back, added to every instruction's latency.
  uint32_t transportCycles = 0;
  // Producer-consumer chaining (optional key, default false): a streaming
  // consumer may read a streaming producer's first vectors while the rest
  // are still being written (docs/simulator.md, "Chaining"). false: every
  // instruction reads whole operands and writes a whole result.
  bool chaining = false;
  // Stream registers per direction (optional key, default 32): a chained
  // read takes its vectors off one of them instead of SRAM.
  uint32_t registersPerDirection = 32;
};

struct StreamUnitSpec {
  uint32_t vectorsPerCycle = 1; // vectors one queue consumes per cycle
  uint32_t latency = 0;         // pipeline depth in cycles
  // Independent instruction queues (optional key, default 1): instructions
  // in different queues of a unit run at the same time, each at the full
  // vectors_per_cycle (every queue has its own stream ports).
  uint32_t queues = 1;
  // Per-operation latency overrides by name (see UnitOps.h); operations not
  // listed take `latency`. Only explicit entries are stored and printed.
  std::map<std::string, uint32_t> latencies;
  uint32_t latencyOf(const std::string &opName) const {
    auto it = latencies.find(opName);
    return it == latencies.end() ? latency : it->second;
  }
};

struct VxmSpec : StreamUnitSpec {
  uint32_t transcendentalPasses = 1; // ALU passes of exp/tanh/sigmoid/pow...
  // ALUs per lane (optional key; 0 in a file means vectors_per_cycle). An
  // operation of p passes chains p ALUs per vector, so a queue sustains at
  // most alus_per_lane / p vectors per cycle.
  uint32_t alusPerLane = 0;
};

struct LinkSpec {
  uint32_t perChip = 0;         // outgoing links per chip
  uint32_t lanes = 0;           // serial lanes per link, striped
  double laneBytesPerCycle = 0; // per lane, one direction
  double bytesPerCycle() const { return lanes * laneBytesPerCycle; }
  uint32_t latency = 0;         // cycles, SRAM to SRAM for one hop
  uint32_t flitPayload = 0;     // bytes of data per flit
  uint32_t flitBytes = 0;       // bytes on the wire per flit
  // Whether an intermediate chip forwards a multi-hop transfer flit by flit
  // as it arrives (optional key, default true); false: each hop waits for
  // the whole tensor (store and forward).
  bool cutThrough = true;
};

/// A level of the hierarchy above groups (groups in a rack, racks in a
/// system): `size` units of the level below, every pair of them joined by
/// `linksPerPair` links. Lanes, rate and latency of 0 take the global links'.
struct TopologyLevel {
  uint32_t size = 0;
  uint32_t linksPerPair = 1;
  uint32_t lanes = 0;
  double laneBytesPerCycle = 0;
  uint32_t latency = 0;
};

struct TopologySpec {
  uint32_t groupSize = 0;       // chips fully connected to each other
  // Groups are joined Dragonfly-style: every chip has this many links to
  // chips of other groups (0: one group only).
  uint32_t globalLinksPerChip = 0;
  uint32_t globalLanes = 0;       // lanes per global link
  double globalLaneBytesPerCycle = 0; // per global lane, one direction
  double globalBytesPerCycle() const {
    return globalLanes * globalLaneBytesPerCycle;
  }
  uint32_t globalLatency = 0;     // cycles per global hop
  // Below the flat Dragonfly's full reach, the groups' spare global ports
  // join the same pairs of groups in parallel (every port cabled); false:
  // one link per pair, as at full reach.
  bool bundleGlobalLinks = true;
  // Past the flat Dragonfly's reach (one global link per pair of groups),
  // groups form racks and racks a system (see Topology.h).
  std::optional<TopologyLevel> rack, system;
  // One-time alignment of the chips' counters before a multi-chip program.
  uint32_t deskewCycles = 0;
};

struct HostSpec {
  double latencyUs = 0;         // fixed cost per host transfer
  double gbPerSecond = 0;       // PCIe bandwidth each way
};

/// The number formats deployments of the chip use (`formats:`), the
/// defaults of `lpx decode`; empty: none stated (the model's own).
struct FormatsSpec {
  std::string weights;     // MatMul weights: fp32, fp16, bf16, fp8e4m3, fp8e5m2, int8
  std::string activations; // everything else float: the same but int8
};

struct ChipSpec {
  std::string name;
  std::string description;
  double clockMHz = 0;
  SramSpec sram;
  VectorSpec vector;
  StreamSpec stream;
  MxmSpec mxm;
  VxmSpec vxm;
  StreamUnitSpec sxm;
  StreamUnitSpec mem;
  LinkSpec link;
  TopologySpec topology;
  HostSpec host;
  FormatsSpec formats;

  /// Vectors needed to hold `bytes` bytes (rounded up).
  uint64_t vectorsFor(uint64_t bytes) const {
    return (bytes + vector.bytes - 1) / vector.bytes;
  }
  /// Bytes per cycle of one node's SRAM, all banks together.
  uint64_t sramBytesPerCycle() const {
    return uint64_t(sram.slices) * sram.banksPerSlice *
           sram.bytesPerCyclePerBank;
  }
  /// Whether the description has a `formats:` section (it is optional).
  bool statesFormats() const {
    return !formats.weights.empty() || !formats.activations.empty();
  }
};

/// Parses and validates a chip description. Unknown keys and impossible
/// values are errors that name the key.
llvm::Expected<ChipSpec> parseChipSpec(llvm::StringRef yamlText,
                                       llvm::StringRef sourceName);
/// The checks parseChipSpec makes, in its order, for a spec edited in memory
/// (see ChipKeys.h): the first impossible value's message, naming its key.
/// Fills the defaults of optional keys left at 0, as the parser does.
llvm::Error validateChipSpec(ChipSpec &spec);
/// Reads a preset name (see presetNames()) or a path to a YAML file.
llvm::Expected<ChipSpec> loadChipSpec(llvm::StringRef presetOrPath);
/// The text loadChipSpec parses: a preset's embedded file or the file's.
llvm::Expected<std::string> readChipDescription(llvm::StringRef presetOrPath);
/// Writes the resolved description back as YAML (what a program embeds).
std::string printChipSpec(const ChipSpec &spec);
/// Names of the built-in presets; the first is the default.
std::vector<std::string> presetNames();
/// FNV-1a hash of a text, used to tie a program to its chip description.
uint64_t hashText(llvm::StringRef text);

} // namespace lpx::isa

#endif
