//===- ChipSpec.cpp - Reading and writing chip descriptions ---------------===//
#include "lpx/isa/ChipSpec.h"
#include "ChipValidate.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace lpx::isa;
using llvm::yaml::IO;
using llvm::yaml::MappingTraits;

namespace {
// The preset files, embedded at build time from isa/chips/*.yaml.
struct Preset {
  const char *name;
  const char *text;
};
#include "ChipPresets.inc"
} // namespace

std::optional<uint64_t> lpx::isa::parseByteSize(llvm::StringRef text) {
  text = text.trim();
  size_t digits = 0;
  while (digits < text.size() && llvm::isDigit(text[digits]))
    ++digits;
  uint64_t n;
  if (digits == 0 || text.take_front(digits).getAsInteger(10, n))
    return std::nullopt;
  llvm::StringRef unit = text.drop_front(digits).trim();
  static const std::pair<const char *, uint64_t> units[] = {
      {"", 1},           {"B", 1},          {"KB", 1000},
      {"MB", 1000000},   {"GB", 1000000000}, {"KiB", 1ull << 10},
      {"MiB", 1ull << 20}, {"GiB", 1ull << 30}};
  for (auto [name, scale] : units)
    if (unit == name) {
      if (n > UINT64_MAX / scale)
        return std::nullopt;
      return n * scale;
    }
  return std::nullopt;
}

namespace llvm::yaml {

/// A byte count as YAML sees it: written as a plain number, read with units.
struct ByteSize {
  uint64_t value = 0;
};

template <> struct ScalarTraits<ByteSize> {
  static void output(const ByteSize &v, void *, raw_ostream &os) {
    os << v.value;
  }
  static StringRef input(StringRef text, void *, ByteSize &v) {
    std::optional<uint64_t> n = parseByteSize(text);
    if (!n)
      return "expected a byte count such as 230686720, 220MiB or 500MB";
    v.value = *n;
    return StringRef();
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};

template <> struct MappingTraits<StreamSpec> {
  static void mapping(IO &io, StreamSpec &s) {
    io.mapRequired("transport_cycles", s.transportCycles);
    // Written always, so `lpx chip show` says whether a chip chains.
    io.mapOptional("chaining", s.chaining);
    io.mapOptional("registers_per_direction", s.registersPerDirection);
  }
};

template <> struct MappingTraits<SramSpec> {
  static void mapping(IO &io, SramSpec &s) {
    ByteSize bytes{s.bytes};
    io.mapRequired("bytes", bytes);
    s.bytes = bytes.value;
    io.mapRequired("slices", s.slices);
    io.mapRequired("banks_per_slice", s.banksPerSlice);
    io.mapOptional("bytes_per_cycle_per_bank", s.bytesPerCyclePerBank);
  }
  static std::string validate(IO &, SramSpec &s) {
    return lpx::isa::validate::sram(s);
  }
};

template <> struct MappingTraits<VectorSpec> {
  static void mapping(IO &io, VectorSpec &s) {
    io.mapRequired("lanes", s.lanes);
    io.mapRequired("bytes", s.bytes);
  }
  static std::string validate(IO &, VectorSpec &s) {
    return lpx::isa::validate::vector(s);
  }
};

template <> struct MappingTraits<MxmSpec> {
  static void mapping(IO &io, MxmSpec &s) {
    io.mapRequired("planes", s.planes);
    io.mapRequired("rows", s.rows);
    io.mapRequired("cols", s.cols);
    io.mapRequired("weight_load_cycles", s.weightLoadCycles);
    io.mapRequired("latency", s.latency);
    io.mapRequired("cycles_per_vector_int8", s.cyclesPerVectorInt8);
    io.mapRequired("cycles_per_vector_16bit", s.cyclesPerVector16);
    io.mapRequired("cycles_per_vector_32bit", s.cyclesPerVector32);
    io.mapOptional("cycles_per_vector_fp8", s.cyclesPerVectorFp8);
    io.mapOptional("queues", s.queues);
    io.mapOptional("either_operand_stationary", s.eitherOperandStationary);
  }
  static std::string validate(IO &, MxmSpec &s) {
    return lpx::isa::validate::mxm(s);
  }
};

/// A per-operation latency table: any number of `name: cycles` entries.
template <> struct CustomMappingTraits<std::map<std::string, uint32_t>> {
  static void inputOne(IO &io, StringRef key,
                       std::map<std::string, uint32_t> &m) {
    io.mapRequired(key.str().c_str(), m[key.str()]);
  }
  static void output(IO &io, std::map<std::string, uint32_t> &m) {
    for (auto &[name, cycles] : m)
      io.mapRequired(name.c_str(), cycles);
  }
};

/// Keys shared by the streaming units (vxm, sxm, mem).
static void mapStreamUnit(IO &io, StreamUnitSpec &s) {
  io.mapRequired("vectors_per_cycle", s.vectorsPerCycle);
  io.mapRequired("latency", s.latency);
  io.mapOptional("queues", s.queues);
  if (!io.outputting() || !s.latencies.empty())
    io.mapOptional("latencies", s.latencies);
}

template <> struct MappingTraits<StreamUnitSpec> {
  // Used for sxm and mem; the key prefix in messages comes from the context.
  static void mapping(IO &io, StreamUnitSpec &s) { mapStreamUnit(io, s); }
};

template <> struct MappingTraits<VxmSpec> {
  static void mapping(IO &io, VxmSpec &s) {
    mapStreamUnit(io, s);
    io.mapRequired("transcendental_passes", s.transcendentalPasses);
    io.mapOptional("alus_per_lane", s.alusPerLane);
  }
  static std::string validate(IO &, VxmSpec &s) {
    return lpx::isa::validate::vxm(s);
  }
};

template <> struct MappingTraits<LinkSpec> {
  static void mapping(IO &io, LinkSpec &s) {
    io.mapRequired("per_chip", s.perChip);
    io.mapRequired("lanes", s.lanes);
    io.mapRequired("lane_bytes_per_cycle", s.laneBytesPerCycle);
    io.mapRequired("latency", s.latency);
    io.mapRequired("flit_payload", s.flitPayload);
    io.mapRequired("flit_bytes", s.flitBytes);
    io.mapOptional("cut_through", s.cutThrough);
  }
  static std::string validate(IO &, LinkSpec &s) {
    return lpx::isa::validate::link(s);
  }
};

template <> struct MappingTraits<TopologyLevel> {
  static void mapping(IO &io, TopologyLevel &s) {
    io.mapRequired("size", s.size);
    // Optional, but always printed so `--set` can reach them (0: as the
    // global links).
    io.mapOptional("links_per_pair", s.linksPerPair);
    io.mapOptional("lanes", s.lanes);
    io.mapOptional("lane_bytes_per_cycle", s.laneBytesPerCycle);
    io.mapOptional("latency", s.latency);
  }
};

template <> struct MappingTraits<TopologySpec> {
  static void mapping(IO &io, TopologySpec &s) {
    io.mapRequired("group_size", s.groupSize);
    io.mapOptional("global_links_per_chip", s.globalLinksPerChip);
    io.mapOptional("global_lanes", s.globalLanes);
    io.mapOptional("global_lane_bytes_per_cycle", s.globalLaneBytesPerCycle);
    io.mapOptional("global_latency", s.globalLatency);
    io.mapOptional("deskew_cycles", s.deskewCycles);
    io.mapOptional("bundle_global_links", s.bundleGlobalLinks);
    io.mapOptional("rack", s.rack);
    io.mapOptional("system", s.system);
  }
  static std::string validate(IO &, TopologySpec &s) {
    return lpx::isa::validate::topology(s);
  }
};

template <> struct MappingTraits<HostSpec> {
  static void mapping(IO &io, HostSpec &s) {
    io.mapRequired("latency_us", s.latencyUs);
    io.mapRequired("gb_per_second", s.gbPerSecond);
  }
  static std::string validate(IO &, HostSpec &s) {
    return lpx::isa::validate::host(s);
  }
};

template <> struct MappingTraits<FormatsSpec> {
  static void mapping(IO &io, FormatsSpec &s) {
    io.mapRequired("weights", s.weights);
    io.mapRequired("activations", s.activations);
  }
  static std::string validate(IO &, FormatsSpec &s) {
    return lpx::isa::validate::formats(s);
  }
};

template <> struct MappingTraits<ChipSpec> {
  static void mapping(IO &io, ChipSpec &s) {
    io.mapRequired("name", s.name);
    io.mapOptional("description", s.description, std::string());
    io.mapRequired("clock_mhz", s.clockMHz);
    io.mapRequired("sram", s.sram);
    io.mapRequired("vector", s.vector);
    io.mapOptional("stream", s.stream);
    io.mapRequired("mxm", s.mxm);
    io.mapRequired("vxm", s.vxm);
    io.mapRequired("sxm", s.sxm);
    io.mapRequired("mem", s.mem);
    io.mapRequired("link", s.link);
    io.mapRequired("topology", s.topology);
    io.mapRequired("host", s.host);
    // A chip that states no formats prints none, so it reads back.
    if (!io.outputting() || s.statesFormats())
      io.mapOptional("formats", s.formats);
  }
  static std::string validate(IO &, ChipSpec &s) {
    return lpx::isa::validate::chip(s);
  }
};

} // namespace llvm::yaml

namespace {
// Collects the YAML parser's diagnostics as one line naming file, line and key.
struct DiagCollector {
  std::string message;
  static void handle(const llvm::SMDiagnostic &d, void *ctx) {
    auto *self = static_cast<DiagCollector *>(ctx);
    if (!self->message.empty())
      return; // keep the first, it is the cause
    self->message = llvm::formatv("{0}:{1}: {2}", d.getFilename(),
                                  d.getLineNo(), d.getMessage())
                        .str();
  }
};
} // namespace

llvm::Expected<ChipSpec> lpx::isa::parseChipSpec(llvm::StringRef yamlText,
                                                 llvm::StringRef sourceName) {
  // YAML is UTF-8 text, and the description travels in the program's proto3
  // string, which protobuf refuses to parse otherwise.
  if (!llvm::json::isUTF8(yamlText))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        (sourceName + ": chip description is not UTF-8 text").str());
  DiagCollector diags;
  ChipSpec spec;
  auto buffer = llvm::MemoryBuffer::getMemBuffer(yamlText, sourceName,
                                                 /*RequiresNullTerminator=*/false);
  llvm::yaml::Input in(buffer->getMemBufferRef(), nullptr,
                       &DiagCollector::handle, &diags);
  // A text without a document (empty, only comments) or with a node the
  // reader cannot represent (an alias, `*x`) leaves it on no node, and LLVM's
  // YAML reader crashes reporting the missing keys there (found by fuzz-chip).
  if (!in.setCurrentDocument() || in.error())
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        diags.message.empty()
            ? (sourceName + ": empty chip description (no YAML document)").str()
            : diags.message);
  // What `in >> spec` does after its own setCurrentDocument (a second call
  // would read the stream again).
  llvm::yaml::EmptyContext ctx;
  llvm::yaml::yamlize(in, spec, true, ctx);
  if (in.error() || !diags.message.empty()) {
    std::string msg = diags.message.empty()
                          ? ("invalid chip description " + sourceName).str()
                          : diags.message;
    return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
  }
  return spec;
}

llvm::Expected<std::string>
lpx::isa::readChipDescription(llvm::StringRef presetOrPath) {
  for (const Preset &p : kPresets)
    if (presetOrPath == p.name)
      return std::string(p.text);
  auto file = llvm::MemoryBuffer::getFile(presetOrPath, /*IsText=*/true);
  if (!file) {
    std::string names;
    for (const Preset &p : kPresets)
      names += (names.empty() ? "" : ", ") + std::string(p.name);
    return llvm::createStringError(
        file.getError(), "cannot read chip description '%s': %s (presets: %s)",
        presetOrPath.str().c_str(), file.getError().message().c_str(),
        names.c_str());
  }
  return (*file)->getBuffer().str();
}

llvm::Expected<ChipSpec> lpx::isa::loadChipSpec(llvm::StringRef presetOrPath) {
  auto text = readChipDescription(presetOrPath);
  if (!text)
    return text.takeError();
  return parseChipSpec(*text, presetOrPath);
}

std::string lpx::isa::printChipSpec(const ChipSpec &spec) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::yaml::Output out(os);
  ChipSpec copy = spec;
  out << copy;
  return os.str();
}

std::vector<std::string> lpx::isa::presetNames() {
  std::vector<std::string> names;
  for (const Preset &p : kPresets)
    names.push_back(p.name);
  return names;
}

uint64_t lpx::isa::hashText(llvm::StringRef text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

uint32_t MxmSpec::cyclesPerVector(DType a, DType b) const {
  const unsigned width = std::max(dtypeBytes(a), dtypeBytes(b));
  const auto fp8 = [](DType t) {
    return t == DType::F8E4M3 || t == DType::F8E5M2;
  };
  if (width <= 1)
    return fp8(a) || fp8(b) ? cyclesPerVectorFp8 : cyclesPerVectorInt8;
  return width == 2 ? cyclesPerVector16 : cyclesPerVector32;
}
