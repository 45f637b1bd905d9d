//===- TestChip.h - The chip of the GoogleTest suites -----------*- C++ -*-===//
//
// One small chip, deliberately unlike the presets, with round numbers: tests
// derive expected cycle counts from these constants, and runtime tests only
// need its 1 MiB of SRAM per node.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_TEST_TESTCHIP_H
#define LPX_TEST_TESTCHIP_H

#include "llvm/Support/FormatVariadic.h"
#include <cstdint>
#include <string>

namespace lpx::test {

namespace chip {
constexpr double kClockMHz = 500;
constexpr uint64_t kSramBytes = 1 << 20;
// Many small banks, so that tests can put buffers in different banks by
// spacing them 4096 bytes apart: 1 MiB / (256 * 2) = 2048 bytes per bank.
constexpr uint32_t kSramSlices = 256;
constexpr uint32_t kBanksPerSlice = 2;
constexpr uint64_t kBankBytes = kSramBytes / (kSramSlices * kBanksPerSlice);
constexpr uint32_t kVectorBytes = 320;
constexpr uint32_t kMxmPlanes = 2;
constexpr uint32_t kMxmRows = 64;
constexpr uint32_t kMxmCols = 64;
constexpr uint32_t kMxmWeightLoad = 10; // per tile per weight byte
constexpr uint32_t kMxmLatency = 7;
constexpr uint32_t kMxmCyclesInt8 = 1;
constexpr uint32_t kMxmCycles16 = 2;
constexpr uint32_t kMxmCycles32 = 4;
constexpr uint32_t kVxmVectorsPerCycle = 4;
constexpr uint32_t kVxmLatency = 3;
constexpr uint32_t kVxmTranscendentalPasses = 2;
constexpr uint32_t kSxmVectorsPerCycle = 2;
constexpr uint32_t kSxmLatency = 5;
constexpr uint32_t kMemVectorsPerCycle = 8;
constexpr uint32_t kMemLatency = 2;
constexpr uint32_t kLinksPerChip = 4;
constexpr uint32_t kLinkBytesPerCycle = 8;
constexpr uint32_t kLinkLatency = 50;
constexpr uint32_t kFlitPayload = 320;
constexpr uint32_t kFlitBytes = 328;
constexpr double kHostLatencyUs = 10;
constexpr double kHostGBPerSecond = 24;
} // namespace chip

/// The test chip; `deskewCycles` is its topology.deskew_cycles, 0 unless a
/// test is about the deskew.
/// `vxmQueues` is vxm.queues, 1 unless a test is about queues.
inline std::string testChipYaml(uint32_t deskewCycles = 0,
                                uint32_t vxmQueues = 1) {
  using namespace chip;
  return llvm::formatv(
             R"(name: sim-test
description: simulator unit-test chip
clock_mhz: {0}
sram:
  bytes: {1}
  slices: {23}
  banks_per_slice: {24}
vector:
  lanes: {2}
  bytes: {2}
mxm:
  planes: {3}
  rows: {4}
  cols: {5}
  weight_load_cycles: {6}
  latency: {7}
  cycles_per_vector_int8: {8}
  cycles_per_vector_16bit: {9}
  cycles_per_vector_32bit: {10}
vxm:
  vectors_per_cycle: {11}
  latency: {12}
  transcendental_passes: {13}
  queues: {28}
sxm:
  vectors_per_cycle: {14}
  latency: {15}
mem:
  vectors_per_cycle: {16}
  latency: {17}
link:
  per_chip: {18}
  lanes: 1
  lane_bytes_per_cycle: {19}
  latency: {20}
  flit_payload: {21}
  flit_bytes: {22}
topology:
  group_size: 4
  deskew_cycles: {25}
host:
  latency_us: {26}
  gb_per_second: {27}
)",
             kClockMHz, kSramBytes, kVectorBytes, kMxmPlanes, kMxmRows,
             kMxmCols, kMxmWeightLoad, kMxmLatency, kMxmCyclesInt8,
             kMxmCycles16, kMxmCycles32, kVxmVectorsPerCycle, kVxmLatency,
             kVxmTranscendentalPasses, kSxmVectorsPerCycle, kSxmLatency,
             kMemVectorsPerCycle, kMemLatency, kLinksPerChip,
             kLinkBytesPerCycle, kLinkLatency, kFlitPayload, kFlitBytes,
             kSramSlices, kBanksPerSlice, deskewCycles, kHostLatencyUs,
             kHostGBPerSecond, vxmQueues)
      .str();
}

} // namespace lpx::test

#endif
