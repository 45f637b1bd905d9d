//===- Completions.h - One completion request (private) ---------*- C++ -*-===//
#ifndef LPX_ENDPOINT_LIB_COMPLETIONS_H
#define LPX_ENDPOINT_LIB_COMPLETIONS_H

#include "lpx/endpoint/EngineDriver.h"
#include "lpx/endpoint/OpenAiWire.h"
#include "lpx/endpoint/Server.h"

#include <httplib.h>

#include <atomic>

namespace lpx::endpoint {

/// What every handler shares.
struct EndpointState {
  const EndpointOptions &opts;
  const serve::ServiceModel &model;
  EngineDriver &driver;
  Content &content;
  std::atomic<bool> draining{false};
  std::atomic<int64_t> nextId{0};
};

/// The error object as the response (status, JSON body).
void sendError(httplib::Response &res, const WireError &e);

/// POST /v1/chat/completions or /v1/completions.
void handleCompletion(EndpointState &s, const httplib::Request &req,
                      httplib::Response &res, Api api);

} // namespace lpx::endpoint

#endif
