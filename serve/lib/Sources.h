//===- Sources.h - The request sources of each workload (private) ---------===//
#ifndef LPX_SERVE_LIB_SOURCES_H
#define LPX_SERVE_LIB_SOURCES_H

#include "lpx/serve/Workload.h"

namespace lpx::serve {
llvm::Expected<std::unique_ptr<RequestSource>>
makeTraceSource(const std::string &path);
} // namespace lpx::serve

#endif
