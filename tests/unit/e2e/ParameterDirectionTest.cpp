//===- ParameterDirectionTest.cpp - A better chip is never slower ---------===//
//
// For every numeric chip parameter (isa::numericParameterKeys(), so a new
// parameter cannot be forgotten), compiles the Llama decode step for 2 nodes
// of tsp-v1 on a less and a more capable setting of that parameter alone and
// checks that the more capable chip does not take longer (simulated seconds,
// so the clock counts too). Parameters the model exercises must make it
// strictly faster; the others are listed below with the reason they cannot.
//
// A violation means the compiler's heuristics or the cost model reward a
// worse chip: a what-if sweep over that parameter would mislead.
//
//===----------------------------------------------------------------------===//
#include "lpx/Driver/Compile.h"
#include "lpx/isa/ChipOverrides.h"
#include "lpx/isa/Program.h"
#include "lpx/sim/Simulator.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iostream>
#include <map>
#include <optional>

using namespace lpx;

namespace {

const char *const kChip = "tsp-v1";
const unsigned kNodes = 2; // so links and the deskew are on the critical path

/// How a parameter becomes more capable, and whether the model must notice.
struct Direction {
  const char *key;
  /// "x2" doubles, "/2" halves (integers round down); anything else is the
  /// literal more capable value. When the base value is already the best
  /// possible (a rate of 1 cycle per vector), `less` names a worse value and
  /// the base is the more capable one.
  const char *more;
  const char *less; // nullptr: the base value is the less capable one
  bool strict;      // the model exercises it: time must strictly drop
  const char *why;  // for strict == false: why time cannot move
};

// Throughput parameters the decode step does not need: the list scheduler
// overlaps all other work with its dependency chain.
const char *const kChainBound =
    "the list scheduler runs the D=64 decode step at its dependency chain: "
    "the chain's streams are one or two vectors (one cycle either way) and "
    "the work off the chain is overlapped already";

const char *const kBeyondFlat =
    "racks and systems are wired only past the flat Dragonfly's 264 chips; "
    "2 nodes are one group";

// clang-format off
const Direction kDirections[] = {
  {"clock_mhz", "x2", nullptr, true, ""},
  {"sram.bytes", "x2", nullptr, false,
   "capacity only: the 148 KB of weights fit one node either way, so the "
   "placement and the schedule do not change"},
  // The bank layout decides which streams conflict (a hazard, never a
  // delay: the simulator does not stall) and the SRAM-bandwidth lower bound;
  // the cost model itself never reads it.
  {"sram.slices", "x2", nullptr, false,
   "bank layout: checked for conflicts, not timed"},
  {"sram.banks_per_slice", "x2", nullptr, false,
   "bank layout: more banks raise the SRAM bandwidth, but 176 banks x 320 "
   "bytes already outpace any one instruction's streams"},
  {"sram.bytes_per_cycle_per_bank", "x2", nullptr, false,
   "56 KB per cycle of SRAM bandwidth already outpaces any one "
   "instruction's streams (it moves the SRAM-bandwidth lower bound only)"},
  {"vector.lanes", "x2", nullptr, false,
   "tsp-v1's lanes are one byte wide: every element already fills whole "
   "lanes, so narrower lanes cannot take more elements per cycle"},
  // Since a plane's last tile streams alone (no install behind it), the
  // matmuls' streams are on the critical path: their vectors, the SXM's
  // rate and the embedding's gather now count.
  {"vector.bytes", "x2", nullptr, true, ""},
  {"stream.transport_cycles", "/2", nullptr, true, ""},
  {"stream.registers_per_direction", "x2", nullptr, false,
   "only a check on the description: tsp-v1's 4 unit queues may chain 16 "
   "streams, within 2 x 32 either way"},
  {"mxm.planes", "x2", nullptr, false,
   "every weight matrix of the decode step is at most one 320x320 tile per "
   "plane already (D=64), so more planes have no tiles to take"},
  {"mxm.rows", "x2", nullptr, false,
   "the reduction dimension (64) already fits one tile"},
  {"mxm.cols", "x2", nullptr, false,
   "the output dimension already fits one tile"},
  {"mxm.weight_load_cycles", "/2", nullptr, true, ""},
  {"mxm.latency", "/2", nullptr, true, ""},
  {"mxm.cycles_per_vector_int8", "1", "2", false,
   "the model is float32: no int8 matmul"},
  {"mxm.cycles_per_vector_16bit", "/2", nullptr, false,
   "the model is float32: no 16-bit matmul"},
  {"mxm.cycles_per_vector_32bit", "/2", nullptr, true, ""},
  {"mxm.cycles_per_vector_fp8", "1", "2", false,
   "the model is float32: no fp8 matmul"},
  // Independent matmuls (q/k/v, gate/up) overlap; one-tile weights lose
  // nothing by having 2 planes per queue instead of 4.
  {"mxm.queues", "x2", nullptr, true, ""},
  {"vxm.vectors_per_cycle", "x2", nullptr, false,
   "every vector operand of the D=64 decode step takes one cycle at 4 "
   "vectors per cycle, and 16 ALUs per lane keep even the 7-pass softmax "
   "at one cycle"},
  {"vxm.latency", "/2", nullptr, true, ""},
  {"vxm.queues", "x2", nullptr, false, kChainBound},
  {"vxm.latencies.exp", "/2", nullptr, false,
   "the decode step has no exp (softmax is its own operation)"},
  {"vxm.latencies.tanh", "/2", nullptr, false,
   "the decode step has no tanh"},
  {"vxm.latencies.sigmoid", "/2", nullptr, false,
   "SwiGLU's sigmoid waits for the longer up-projection chain"},
  {"vxm.latencies.div", "/2", nullptr, true, ""},
  {"vxm.latencies.sqrt", "/2", nullptr, true, ""},
  {"vxm.latencies.reciprocal", "/2", nullptr, false,
   "the decode step divides instead"},
  {"vxm.transcendental_passes", "/2", nullptr, false,
   "16 ALUs per lane run 4 passes of 4 vectors per cycle: the streams, "
   "not the passes, limit the rate"},
  {"vxm.alus_per_lane", "x2", nullptr, false,
   "16 ALUs per lane already keep up with 4 vectors per cycle of every "
   "operation the decode step uses"},
  {"sxm.vectors_per_cycle", "x2", nullptr, true, ""},
  {"sxm.latency", "/2", nullptr, true, ""},
  {"sxm.queues", "x2", nullptr, false, kChainBound},
  {"sxm.latencies.transpose", "/2", nullptr, true, ""},
  {"sxm.latencies.gather", "/2", nullptr, true, ""},
  {"mem.vectors_per_cycle", "x2", nullptr, false, kChainBound},
  {"mem.latency", "/2", nullptr, true, ""},
  {"mem.queues", "x2", nullptr, false,
   "the decode step's copies are never ready at the same time"},
  // More local links per chip are more parallel links per pair of a
  // group (isa::localLinksPerPeer), over which a transfer deals its flits.
  {"link.per_chip", "x2", nullptr, true, ""},
  {"link.lanes", "x2", nullptr, true, ""},
  {"link.lane_bytes_per_cycle", "x2", nullptr, true, ""},
  {"link.latency", "/2", nullptr, true, ""},
  // Less framing per flit: payload up to the flit size, or flit down to it.
  {"link.flit_payload", "328", nullptr, false,
   "every send of the decode step takes as many flits at 328 payload bytes "
   "as at 320 (one flit, or 7 for the repeated V)"},
  // The repeated V (v_rep) crosses as 7 flits, on the critical path since
  // the matmuls stopped paying a last install.
  {"link.flit_bytes", "320", nullptr, true, ""},
  {"topology.group_size", "x2", nullptr, false,
   "2 nodes are one group either way"},
  {"topology.global_links_per_chip", "x2", nullptr, false,
   "2 nodes are one group: no global links are used"},
  {"topology.global_lanes", "x2", nullptr, false,
   "2 nodes are one group: no global links are used"},
  {"topology.global_lane_bytes_per_cycle", "x2", nullptr, false,
   "2 nodes are one group: no global links are used"},
  {"topology.global_latency", "/2", nullptr, false,
   "2 nodes are one group: no global links are used"},
  {"topology.deskew_cycles", "/2", nullptr, true, ""},
  // Racks and systems: 0 lanes, rate or latency mean "as the global links",
  // so their more capable values are literals.
  {"topology.rack.size", "x2", nullptr, false, kBeyondFlat},
  {"topology.rack.links_per_pair", "x2", nullptr, false, kBeyondFlat},
  {"topology.rack.lanes", "8", nullptr, false, kBeyondFlat},
  {"topology.rack.lane_bytes_per_cycle", "10", nullptr, false, kBeyondFlat},
  {"topology.rack.latency", "100", nullptr, false, kBeyondFlat},
  {"topology.system.size", "x2", nullptr, false, kBeyondFlat},
  {"topology.system.links_per_pair", "x2", nullptr, false, kBeyondFlat},
  {"topology.system.lanes", "8", nullptr, false, kBeyondFlat},
  {"topology.system.lane_bytes_per_cycle", "10", nullptr, false, kBeyondFlat},
  {"topology.system.latency", "100", nullptr, false, kBeyondFlat},
  {"host.latency_us", "/2", nullptr, false,
   "host transfers are reported apart from the cycle count (they are the "
   "one non-deterministic part of a run)"},
  {"host.gb_per_second", "x2", nullptr, false,
   "host transfers are reported apart from the cycle count"},
};
// clang-format on

const Direction *directionOf(llvm::StringRef key) {
  for (const Direction &d : kDirections)
    if (key == d.key)
      return &d;
  return nullptr;
}

std::string scaled(const std::string &base, llvm::StringRef how) {
  double v = std::stod(base);
  bool integer = base.find_first_of(".eE") == std::string::npos;
  double r = how == "x2" ? v * 2 : how == "/2" ? v / 2 : std::stod(how.str());
  std::string out;
  llvm::raw_string_ostream os(out);
  if (integer)
    os << uint64_t(std::floor(r));
  else
    os << llvm::format("%.6g", r);
  return os.str();
}

struct Timed {
  double seconds = 0;
  uint64_t cycles = 0;
};

/// Compiles the decode step for `chip` and simulates it; no hazards allowed.
std::optional<Timed> timeOn(const isa::ChipSpec &chip) {
  auto ctx = makeCompilerContext();
  std::string diags;
  mlir::ScopedDiagnosticHandler h(ctx.get(), [&](mlir::Diagnostic &d) {
    diags += d.str() + "\n";
    return mlir::success();
  });
  auto program = compileToProgram(
      *ctx, std::string(LPX_SOURCE_DIR) + "/models/llama_step/model.onnx",
      ImportOptions{}, CompileOptions{kNodes}, chip);
  if (failed(program)) {
    ADD_FAILURE() << "compile failed: " << diags;
    return std::nullopt;
  }
  auto result = sim::simulate(*program);
  if (!result) {
    ADD_FAILURE() << llvm::toString(result.takeError());
    return std::nullopt;
  }
  EXPECT_TRUE(result->hazards.empty())
      << result->hazardCount << " hazards, first: "
      << result->hazards.front().message;
  return Timed{result->seconds, result->totalCycles};
}

isa::ChipSpec withSetting(const std::string &key, const std::string &value) {
  auto chip = isa::loadChipWithOverrides(kChip, {key + "=" + value});
  EXPECT_TRUE(bool(chip)) << llvm::toString(chip.takeError());
  return *chip;
}

TEST(ParameterDirection, TableCoversEveryParameter) {
  std::vector<std::string> keys = isa::numericParameterKeys();
  ASSERT_FALSE(keys.empty());
  for (const std::string &k : keys)
    EXPECT_NE(directionOf(k), nullptr)
        << "new chip parameter '" << k << "': add it to kDirections with "
        << "its more capable direction";
  for (const Direction &d : kDirections)
    EXPECT_NE(std::find(keys.begin(), keys.end(), d.key), keys.end())
        << "kDirections names '" << d.key << "', which is not a parameter";
}

// The sweep relies on these: units, validation and the description note all
// come from the one chip parser.
TEST(ParameterDirection, OverridesGoThroughTheParser) {
  auto chip = isa::loadChipWithOverrides(
      kChip, {"sram.bytes=128MiB", "link.latency=108", "clock_mhz=1200"});
  ASSERT_TRUE(bool(chip)) << llvm::toString(chip.takeError());
  EXPECT_EQ(chip->sram.bytes, 128ull << 20);
  EXPECT_EQ(chip->link.latency, 108u);
  EXPECT_EQ(chip->clockMHz, 1200);
  EXPECT_NE(chip->description.find(
                "(modified: sram.bytes=128MiB, link.latency=108, "
                "clock_mhz=1200)"),
            std::string::npos)
      << chip->description;

  auto base = isa::loadChipSpec(kChip);
  ASSERT_TRUE(bool(base));
  isa::ChipSpec spec = *base;
  llvm::Error err = isa::applyOverride(spec, "mxm.planes", "0");
  ASSERT_TRUE(bool(err));
  EXPECT_EQ(llvm::toString(std::move(err)),
            "invalid value '0' for chip parameter 'mxm.planes': mxm.planes "
            "must be positive");
  EXPECT_EQ(spec.mxm.planes, base->mxm.planes) << "unchanged on error";
  err = isa::applyOverride(spec, "link.latncy", "1");
  ASSERT_TRUE(bool(err));
  EXPECT_NE(llvm::toString(std::move(err)).find("link has: per_chip"),
            std::string::npos);
}

class ParameterDirection : public ::testing::TestWithParam<std::string> {};

TEST_P(ParameterDirection, MoreCapableIsNotSlower) {
  const std::string &key = GetParam();
  const Direction *dir = directionOf(key);
  ASSERT_NE(dir, nullptr) << "see TableCoversEveryParameter";
  auto base = isa::loadChipSpec(kChip);
  ASSERT_TRUE(bool(base));
  std::string baseValue = isa::parameterValue(*base, key);
  std::string lessValue = dir->less ? dir->less : baseValue;
  std::string moreValue = dir->less ? baseValue : scaled(baseValue, dir->more);
  ASSERT_NE(lessValue, moreValue) << key;

  std::optional<Timed> less = timeOn(withSetting(key, lessValue));
  std::optional<Timed> more = timeOn(withSetting(key, moreValue));
  ASSERT_TRUE(less && more);
  std::string what = key + ": " + lessValue + " -> " + moreValue + " gives " +
                     std::to_string(less->cycles) + " -> " +
                     std::to_string(more->cycles) + " cycles";
  RecordProperty("change", what);
  std::cout << "[ change   ] " << what << "\n";
  EXPECT_LE(more->seconds, less->seconds) << "a more capable chip is slower: "
                                          << what;
  if (dir->strict)
    EXPECT_LT(more->seconds, less->seconds)
        << "the decode step exercises " << key
        << " but the more capable value is not faster: " << what;
  else
    EXPECT_EQ(more->seconds, less->seconds)
        << key << " was listed as unable to move time (" << dir->why
        << ") but it did: " << what << "; mark it strict";
}

std::string testName(const ::testing::TestParamInfo<std::string> &info) {
  std::string name = info.param;
  for (char &c : name)
    if (!isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(EveryParameter, ParameterDirection,
                         ::testing::ValuesIn(isa::numericParameterKeys()),
                         testName);

} // namespace
