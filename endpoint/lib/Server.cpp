//===- Server.cpp - Routes, limits, signals, shutdown ---------------------===//
//
// Signals are blocked in every thread and taken by one (sigwait), which
// drains and stops the server: a handler running on a signal would have to
// be async-signal-safe, stopping httplib is not.
//
//===----------------------------------------------------------------------===//

#include "Completions.h"
#include "ConnectionPool.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <csignal>
#include <cstdio>
#include <ctime>
#include <pthread.h>
#include <sys/socket.h>

namespace lpx::endpoint {

namespace {

llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The methods a path does not take get 405 with an error object.
void refuseOtherMethods(httplib::Server &svr, const std::string &path,
                        bool isGet) {
  auto refuse = [](const httplib::Request &req, httplib::Response &res) {
    WireError e;
    e.status = 405;
    e.message = "method " + req.method + " is not allowed on " + req.path;
    sendError(res, e);
  };
  if (isGet)
    svr.Post(path, refuse);
  else
    svr.Get(path, refuse);
  svr.Put(path, refuse);
  svr.Delete(path, refuse);
  svr.Patch(path, refuse);
}

void routes(httplib::Server &svr, EndpointState &s) {
  svr.Post("/v1/chat/completions",
           [&s](const httplib::Request &req, httplib::Response &res) {
             handleCompletion(s, req, res, Api::Chat);
           });
  svr.Post("/v1/completions",
           [&s](const httplib::Request &req, httplib::Response &res) {
             handleCompletion(s, req, res, Api::Completions);
           });
  int64_t started = int64_t(std::time(nullptr));
  svr.Get("/v1/models", [&s, started](const httplib::Request &,
                                      httplib::Response &res) {
    res.set_header("X-Lpx-Simulated", "true");
    res.set_content(modelsJson(s.opts.model, started), "application/json");
  });
  svr.Get("/health", [&s](const httplib::Request &, httplib::Response &res) {
    llvm::json::Object o{
        {"status", s.draining ? "draining" : "ok"},
        {"model", s.opts.model},
        {"content", s.content.kind()},
        {"time_scale", s.opts.timeScale},
        {"in_flight", s.driver.inFlight()},
        {"simulated_us",
         double(s.driver.simTime(EngineDriver::Clock::now())) / 1e3},
        {"system_fingerprint", kFingerprint}};
    res.set_header("X-Lpx-Simulated", "true");
    res.set_content(llvm::formatv("{0}", llvm::json::Value(std::move(o))).str(),
                    "application/json");
  });
  for (const char *p : {"/v1/chat/completions", "/v1/completions"})
    refuseOtherMethods(svr, p, false);
  for (const char *p : {"/v1/models", "/health"})
    refuseOtherMethods(svr, p, true);
}

void limits(httplib::Server &svr, EndpointState &s, int &listenFd) {
  const EndpointOptions &o = s.opts;
  size_t threads = std::max<size_t>(o.threads, 1);
  // As many connections may wait as are served; the rest get 503.
  svr.new_task_queue = [threads] { return new ConnectionPool(threads, threads); };
  svr.set_payload_max_length(o.maxBodyBytes);
  svr.set_read_timeout(5, 0);
  svr.set_write_timeout(5, 0);
  svr.set_keep_alive_timeout(2);
  svr.set_keep_alive_max_count(1000);
  svr.set_tcp_nodelay(true); // a token's chunk leaves when it is written
  svr.set_socket_options([&listenFd](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    listenFd = sock;
  });
  size_t maxHeaders = o.maxHeaders;
  svr.set_pre_routing_handler(
      [maxHeaders](const httplib::Request &req, httplib::Response &res) {
        WireError e;
        if (ConnectionPool::refusing()) {
          e.status = 503;
          e.type = "server_error";
          e.message = "too many connections; retry later";
          res.set_header("Connection", "close");
          res.set_header("Retry-After", "1");
        } else if (req.headers.size() > maxHeaders) {
          e.status = 431;
          e.message = "more than " + std::to_string(maxHeaders) + " headers";
        } else {
          return httplib::Server::HandlerResponse::Unhandled;
        }
        sendError(res, e);
        return httplib::Server::HandlerResponse::Handled;
      });
  // The library's own refusals (413, 414, 400, 404) get an error object.
  svr.set_error_handler([](const httplib::Request &req, httplib::Response &res) {
    if (!res.body.empty())
      return;
    WireError e;
    e.status = res.status;
    if (res.status == 404) {
      e.message = "no such path: " + req.path;
      e.code = "not_found";
    } else if (res.status == 413) {
      e.message = "the request body is larger than the server takes";
    } else {
      e.message = "the request was refused (HTTP " +
                  std::to_string(res.status) + ")";
    }
    sendError(res, e);
  });
}

/// Waits for SIGTERM or SIGINT (or the wake-up of a normal end), then drains
/// and stops the server.
void awaitSignal(const sigset_t &set, httplib::Server &svr, EndpointState &s,
                 const std::atomic<bool> &ended, llvm::raw_ostream &log,
                 std::mutex &logMutex) {
  int sig = 0;
  sigwait(&set, &sig);
  // A signal before the server runs stops it as soon as it does.
  while (!svr.is_running() && !ended)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (ended)
    return;
  s.draining = true;
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::seconds(kDrainSeconds);
  while (s.driver.inFlight() > 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  {
    std::lock_guard<std::mutex> lock(logMutex);
    log << "lpx endpoint: " << (sig == SIGINT ? "SIGINT" : "SIGTERM")
        << ": stopped, " << s.driver.inFlight()
        << " request(s) still open closed\n";
    log.flush();
  }
  svr.stop();
}

} // namespace

llvm::Error parseListen(llvm::StringRef text, EndpointOptions &opts) {
  auto [host, port] = text.rsplit(':');
  unsigned value = 0;
  if (host.empty() || port.empty() || port.getAsInteger(10, value) ||
      value > 65535)
    return fail("--listen '" + text + "' is not HOST:PORT (e.g. 127.0.0.1:8000)");
  opts.host = host == "localhost" ? "127.0.0.1" : host.str();
  opts.port = int(value);
  return llvm::Error::success();
}

llvm::Error runEndpoint(const EndpointOptions &opts,
                        const serve::ServiceModel &model,
                        const serve::EngineConfig &config, Content &content,
                        llvm::raw_ostream &log) {
  if (!(opts.timeScale > 0))
    return fail("--time-scale must be positive");
  auto engine = serve::OnlineEngine::create(model, config);
  if (!engine)
    return engine.takeError();
  // Blocked before any thread starts, so every thread inherits the mask.
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  signal(SIGPIPE, SIG_IGN); // a client gone mid-write is an error return

  EngineDriver driver(std::move(*engine), opts.timeScale);
  EndpointState state{opts, model, driver, content};
  httplib::Server svr;
  int listenFd = -1;
  limits(svr, state, listenFd);
  routes(svr, state);
  int port = opts.port;
  bool bound = port == 0 ? (port = svr.bind_to_any_port(opts.host)) > 0
                         : svr.bind_to_port(opts.host, port);
  if (!bound)
    return fail("cannot listen on " + opts.host + ":" +
                llvm::Twine(opts.port) +
                " (address in use, or not an address of this machine)");
  // The library listens with a backlog of 5; 50 clients connecting at once
  // would overflow it (a dropped SYN costs a client a second).
  if (listenFd >= 0)
    ::listen(listenFd, 512);
  std::mutex logMutex;
  char scale[32];
  std::snprintf(scale, sizeof scale, "%g", opts.timeScale);
  {
    std::lock_guard<std::mutex> lock(logMutex);
    log << "lpx endpoint: listening on http://" << opts.host << ":" << port
        << "/v1 (model " << opts.model << ", time scale " << scale
        << ", content " << content.kind() << ")\n";
    log.flush();
  }
  std::atomic<bool> ended{false};
  std::thread signals(
      [&] { awaitSignal(set, svr, state, ended, log, logMutex); });
  bool ok = svr.listen_after_bind();
  ended = true;
  pthread_kill(signals.native_handle(), SIGTERM); // wakes it if still waiting
  signals.join();
  driver.stop();
  if (!ok && !state.draining)
    return fail("the server stopped: accepting connections failed");
  return llvm::Error::success();
}

} // namespace lpx::endpoint
