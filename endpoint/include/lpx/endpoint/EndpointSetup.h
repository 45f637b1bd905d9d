//===- EndpointSetup.h - `lpx endpoint` from its command-line words -*- C++ -*-===//
//
// The options as given, checked (one error naming the option), and the run:
// the deployment's service table (as `lpx serve` builds or reads it), the
// text source, the server.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ENDPOINT_ENDPOINTSETUP_H
#define LPX_ENDPOINT_ENDPOINTSETUP_H

#include "lpx/deploy/ServeRun.h"
#include "lpx/deploy/WordOptions.h"
#include "lpx/endpoint/Server.h"

namespace lpx::endpoint {

struct EndpointWords {
  std::string listen = "127.0.0.1:8000", timeScale = "1", maxBatch = "8",
              policy = "chunked", queue, prefillChunk, cacheDir,
              content, // greedy | synthetic; empty: greedy for a tiny preset
      defaultMaxTokens = "16", threads = "64", maxBody = "1048576";
};

struct EndpointSetup {
  deploy::ServeSetup serve; ///< the engine's options and the table's chunk
  EndpointOptions options;
  std::string content;
};

llvm::Error parseEndpointWords(const EndpointWords &w, EndpointSetup &s);

/// The options of `lpx endpoint` beside the deployment's, with their help.
llvm::ArrayRef<deploy::WordOption<EndpointWords>> endpointWordOptions();

/// Serves `table` until a signal (runEndpoint) with the text `s.content`
/// names: greedy runs `run`'s model, chip and placement on the CPU runtime
/// at the table's context. A preset too large to run cannot be greedy.
llvm::Error serveDeployment(const serve::ServiceTable &table,
                            const EndpointSetup &s,
                            deploy::DecodeRunOptions run,
                            llvm::raw_ostream &log);

} // namespace lpx::endpoint

#endif // LPX_ENDPOINT_ENDPOINTSETUP_H
