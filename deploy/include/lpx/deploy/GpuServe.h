//===- GpuServe.h - A GPU deployment under the same load --------*- C++ -*-===//
//
// `lpx serve --compare GPU[:tp=N]`: the analytic GPU model's times at the
// points of the LPX deployment's service table (every decode step and
// prefill point), as a service table of its own (source "analytic"), served
// with the same workload, policy and seed; the P99s of both printed side by
// side.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_GPUSERVE_H
#define LPX_DEPLOY_GPUSERVE_H

#include "lpx/deploy/GpuCompare.h"
#include "lpx/deploy/ServeRun.h"

namespace lpx::deploy {

/// The GPU's analytic times at `lpx`'s points: a decode step of each
/// (batch, context), a prefill of each (prompt, batch, chunk); no host I/O
/// apart (the launch overhead is in every step), one stage, as many
/// sequences as the HBM left after the weights holds caches of the
/// largest context for.
serve::ServiceTable analyticServiceTable(const serve::ServiceTable &lpx,
                                         const gpu::GpuDeployment &d,
                                         const gpu::ModelShape &shape,
                                         int64_t context);

/// Serves `setup` on the LPX table (its report, files and all, as
/// serveAndReport), then on the analytic table of `compare` (no files),
/// and prints both (JSON: the LPX report with the GPU's under `compare`).
llvm::Error serveWithComparison(const CachedTable &table,
                                const DeploymentArgs &deployment,
                                llvm::StringRef compare, int64_t context,
                                const ServeSetup &setup, bool json,
                                llvm::raw_ostream &os);

} // namespace lpx::deploy

#endif
