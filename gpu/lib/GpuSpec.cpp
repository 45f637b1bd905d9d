//===- GpuSpec.cpp - A GPU described for the analytic model --------------===//
#include "lpx/gpu/GpuSpec.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

using namespace lpx::gpu;

namespace {
struct Preset {
  const char *name;
  const char *text;
};
#include "GpuPresets.inc"

/// Every figure of a description: its section and key, where it goes, the
/// least value it may take and whether the least is allowed.
struct Field {
  const char *section, *key;
  double GpuSpec::*member;
  double least;
  bool leastAllowed, required;
};
constexpr Field kFields[] = {
    {"hbm", "bytes", &GpuSpec::hbmBytes, 0, false, true},
    {"hbm", "bytes_per_second", &GpuSpec::hbmBytesPerSecond, 0, false, true},
    {"flops", "fp16", &GpuSpec::fp16Flops, 0, false, true},
    {"flops", "fp8", &GpuSpec::fp8Flops, 0, false, true},
    {"flops", "fp4", &GpuSpec::fp4Flops, 0, true, false},
    {"nvlink", "bytes_per_second", &GpuSpec::nvlinkBytesPerSecond, 0, false,
     true},
    {"nvlink", "latency_us", &GpuSpec::nvlinkLatencyUs, 0, true, true},
    {"attainable", "compute", &GpuSpec::computeFraction, 0, false, true},
    {"attainable", "bandwidth", &GpuSpec::bandwidthFraction, 0, false, true},
    {"attainable", "launch_us", &GpuSpec::launchUs, 0, true, true},
};

std::string scalar(llvm::yaml::Node *n) {
  llvm::SmallString<32> storage;
  auto *s = llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(n);
  return s ? s->getValue(storage).str() : std::string();
}

llvm::Error invalid(llvm::StringRef source, const llvm::Twine &what) {
  return llvm::createStringError(
      llvm::formatv("GPU description '{0}': {1}", source, what.str()).str());
}

/// One `section.key: value` into `spec`, checked against its field.
llvm::Error setField(GpuSpec &spec, llvm::StringRef section,
                     llvm::StringRef key, llvm::StringRef value,
                     llvm::StringRef source, std::vector<bool> &seen) {
  for (const auto &[i, f] : llvm::enumerate(kFields)) {
    if (section != f.section || key != f.key)
      continue;
    double v = 0;
    if (value.getAsDouble(v) || v < f.least || (v == f.least && !f.leastAllowed) ||
        (section == "attainable" && key != "launch_us" && v > 1))
      return invalid(source, llvm::formatv("{0}.{1} '{2}' is out of range",
                                           section, key, value));
    spec.*f.member = v;
    seen[i] = true;
    return llvm::Error::success();
  }
  return invalid(source, llvm::formatv("unknown key {0}.{1}", section, key));
}
} // namespace

llvm::Expected<GpuSpec> lpx::gpu::parseGpuSpec(llvm::StringRef yaml,
                                               llvm::StringRef source) {
  llvm::SourceMgr sm;
  std::string diag;
  sm.setDiagHandler(
      [](const llvm::SMDiagnostic &d, void *ctx) {
        *static_cast<std::string *>(ctx) = d.getMessage().str();
      },
      &diag);
  llvm::yaml::Stream stream(yaml, sm);
  llvm::yaml::document_iterator doc = stream.begin();
  auto *root = llvm::dyn_cast_or_null<llvm::yaml::MappingNode>(
      doc == stream.end() ? nullptr : doc->getRoot());
  if (!root)
    return invalid(source, diag.empty() ? "not a mapping" : diag);
  GpuSpec spec;
  std::vector<bool> seen(std::size(kFields), false);
  for (llvm::yaml::KeyValueNode &kv : *root) {
    std::string key = scalar(kv.getKey());
    if (key == "name" || key == "description") {
      (key == "name" ? spec.name : spec.description) = scalar(kv.getValue());
      continue;
    }
    auto *section = llvm::dyn_cast_or_null<llvm::yaml::MappingNode>(kv.getValue());
    if (!section)
      return invalid(source, "unknown key or not a section: " + key);
    for (llvm::yaml::KeyValueNode &f : *section)
      if (auto e = setField(spec, key, scalar(f.getKey()),
                            scalar(f.getValue()), source, seen))
        return std::move(e);
  }
  if (!diag.empty())
    return invalid(source, diag);
  if (spec.name.empty())
    return invalid(source, "no name");
  for (const auto &[i, f] : llvm::enumerate(kFields))
    if (f.required && !seen[i])
      return invalid(source, llvm::formatv("no {0}.{1}", f.section, f.key));
  return spec;
}

std::vector<std::string> lpx::gpu::gpuPresetNames() {
  std::vector<std::string> names;
  for (const Preset &p : kPresets)
    names.push_back(p.name);
  return names;
}

llvm::Expected<GpuSpec> lpx::gpu::loadGpuSpec(llvm::StringRef presetOrPath) {
  for (const Preset &p : kPresets)
    if (presetOrPath == p.name)
      return parseGpuSpec(p.text, p.name);
  auto file = llvm::MemoryBuffer::getFile(presetOrPath, /*IsText=*/true);
  if (!file)
    return llvm::createStringError(
        llvm::formatv("unknown GPU '{0}' (presets: {1}; or a description "
                      "file)",
                      presetOrPath, llvm::join(gpuPresetNames(), ", "))
            .str());
  return parseGpuSpec((*file)->getBuffer(), presetOrPath);
}
