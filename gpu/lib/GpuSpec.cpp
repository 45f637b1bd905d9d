//===- GpuSpec.cpp - A GPU described for the analytic model --------------===//
#include "lpx/gpu/GpuSpec.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/YAMLTraits.h"

using namespace lpx::gpu;

namespace {
struct Preset {
  const char *name;
  const char *text;
};
#include "GpuPresets.inc"

struct Hbm {
  double bytes = 0, bytesPerSecond = 0;
};
struct Flops {
  double fp16 = 0, fp8 = 0, fp4 = 0;
};
struct NvLink {
  double bytesPerSecond = 0, latencyUs = 0;
};
struct Attainable {
  double compute = 0, bandwidth = 0, launchUs = 0;
};
struct GpuFile {
  std::string name, description;
  Hbm hbm;
  Flops flops;
  NvLink nvlink;
  Attainable attainable;
};
} // namespace

namespace llvm::yaml {
template <> struct MappingTraits<Hbm> {
  static void mapping(IO &io, Hbm &h) {
    io.mapRequired("bytes", h.bytes);
    io.mapRequired("bytes_per_second", h.bytesPerSecond);
  }
};
template <> struct MappingTraits<Flops> {
  static void mapping(IO &io, Flops &f) {
    io.mapRequired("fp16", f.fp16);
    io.mapRequired("fp8", f.fp8);
    io.mapOptional("fp4", f.fp4);
  }
};
template <> struct MappingTraits<NvLink> {
  static void mapping(IO &io, NvLink &n) {
    io.mapRequired("bytes_per_second", n.bytesPerSecond);
    io.mapRequired("latency_us", n.latencyUs);
  }
};
template <> struct MappingTraits<Attainable> {
  static void mapping(IO &io, Attainable &a) {
    io.mapRequired("compute", a.compute);
    io.mapRequired("bandwidth", a.bandwidth);
    io.mapRequired("launch_us", a.launchUs);
  }
};
template <> struct MappingTraits<GpuFile> {
  static void mapping(IO &io, GpuFile &g) {
    io.mapRequired("name", g.name);
    io.mapOptional("description", g.description);
    io.mapRequired("hbm", g.hbm);
    io.mapRequired("flops", g.flops);
    io.mapRequired("nvlink", g.nvlink);
    io.mapRequired("attainable", g.attainable);
  }
};
} // namespace llvm::yaml

static llvm::Error invalid(llvm::StringRef source, llvm::StringRef what) {
  return llvm::createStringError(
      llvm::formatv("GPU description '{0}': {1}", source, what).str());
}

llvm::Expected<GpuSpec> lpx::gpu::parseGpuSpec(llvm::StringRef yaml,
                                               llvm::StringRef source) {
  GpuFile f;
  std::string diag;
  llvm::yaml::Input in(
      yaml, nullptr,
      [](const llvm::SMDiagnostic &d, void *ctx) {
        *static_cast<std::string *>(ctx) = d.getMessage().str();
      },
      &diag);
  in >> f;
  if (in.error())
    return invalid(source, diag.empty() ? "not a GPU description" : diag);
  auto positive = [](double v) { return v > 0; };
  if (!positive(f.hbm.bytes) || !positive(f.hbm.bytesPerSecond))
    return invalid(source, "hbm.bytes and hbm.bytes_per_second must be > 0");
  if (!positive(f.flops.fp16) || !positive(f.flops.fp8) || f.flops.fp4 < 0)
    return invalid(source, "flops.fp16 and flops.fp8 must be > 0, fp4 >= 0");
  if (!positive(f.nvlink.bytesPerSecond) || f.nvlink.latencyUs < 0)
    return invalid(source, "nvlink.bytes_per_second must be > 0 and "
                           "nvlink.latency_us >= 0");
  for (double v : {f.attainable.compute, f.attainable.bandwidth})
    if (!(v > 0 && v <= 1))
      return invalid(source, "attainable.compute and attainable.bandwidth "
                             "must be in (0, 1]");
  if (f.attainable.launchUs < 0)
    return invalid(source, "attainable.launch_us must be >= 0");
  GpuSpec s;
  s.name = f.name;
  s.description = f.description;
  s.hbmBytes = f.hbm.bytes;
  s.hbmBytesPerSecond = f.hbm.bytesPerSecond;
  s.fp16Flops = f.flops.fp16;
  s.fp8Flops = f.flops.fp8;
  s.fp4Flops = f.flops.fp4;
  s.nvlinkBytesPerSecond = f.nvlink.bytesPerSecond;
  s.nvlinkLatencyUs = f.nvlink.latencyUs;
  s.computeFraction = f.attainable.compute;
  s.bandwidthFraction = f.attainable.bandwidth;
  s.launchUs = f.attainable.launchUs;
  return s;
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
