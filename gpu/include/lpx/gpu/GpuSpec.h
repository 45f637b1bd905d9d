//===- GpuSpec.h - A GPU described for the analytic model -------*- C++ -*-===//
//
// What the analytic model (GpuModel.h) reads of a GPU: HBM size and
// bandwidth, the dense tensor-core peak of each number format, NVLink's
// bandwidth per direction and the latency of one all-reduce, and the
// attainable fractions and per-step launch overhead. The presets are
// gpu/gpus/*.yaml, each figure with its source, embedded at build time.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_GPU_GPUSPEC_H
#define LPX_GPU_GPUSPEC_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace lpx::gpu {

struct GpuSpec {
  std::string name, description;
  double hbmBytes = 0, hbmBytesPerSecond = 0;
  /// Dense peaks, FLOP/s; 0: the format has no tensor-core path.
  double fp16Flops = 0, fp8Flops = 0, fp4Flops = 0;
  double nvlinkBytesPerSecond = 0; // per GPU, per direction
  double nvlinkLatencyUs = 0;      // one small all-reduce
  /// The share of each peak a kernel attains, and the fixed cost of one
  /// step (kernel launches, scheduling, sampling) on top of its kernels.
  double computeFraction = 0, bandwidthFraction = 0, launchUs = 0;
};

/// A preset name (h100-sxm, h200, b200) or a description file.
llvm::Expected<GpuSpec> loadGpuSpec(llvm::StringRef presetOrPath);
llvm::Expected<GpuSpec> parseGpuSpec(llvm::StringRef yaml,
                                     llvm::StringRef source);
std::vector<std::string> gpuPresetNames();

} // namespace lpx::gpu

#endif
