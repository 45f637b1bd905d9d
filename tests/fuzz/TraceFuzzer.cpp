//===- TraceFuzzer.cpp - Request traces and the serving model's specs -----===//
//
// Input: a request trace (any of lpx CSV, JSONL, Azure, Vidur). Every row it
// yields must satisfy what the reader promises (times not negative and not
// going back, token counts at least 1); a bad line must be an error, never a
// crash. The same bytes also go to the other parsers of untrusted text: the
// service table (the deploy layer's cache), workload, network and SLO specs.
//
//===----------------------------------------------------------------------===//
#include "lpx/serve/Network.h"
#include "lpx/serve/ServiceTable.h"
#include "lpx/serve/Slo.h"
#include "lpx/serve/TraceReader.h"
#include "lpx/serve/Workload.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace lpx::serve;

static void check(bool ok, const char *what) {
  if (ok)
    return;
  llvm::errs() << "fuzz-trace: " << what << "\n";
  std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  if (auto r = TraceReader::fromText(text, "input")) {
    Nanos last = 0;
    for (int i = 0; i < 100000; ++i) {
      auto row = (*r)->next();
      if (!row) {
        llvm::consumeError(row.takeError());
        break;
      }
      if (!*row)
        break;
      check((*row)->arrival >= last, "arrival went back");
      check((*row)->arrival >= 0 && (*row)->tool >= 0, "negative time");
      check((*row)->prompt >= 1 && (*row)->output >= 1, "tokens below 1");
      last = (*row)->arrival;
    }
  } else {
    llvm::consumeError(r.takeError());
  }
  if (auto t = parseServiceTable(text)) {
    auto m = ServiceModel::create(*t);
    check(bool(m), "a table that parsed did not validate");
    check(m->decodeUs(1, 1) > 0, "a time not above 0");
  } else {
    llvm::consumeError(t.takeError());
  }
  llvm::StringRef line = llvm::StringRef(text).split('\n').first;
  if (auto w = parseWorkload(line); !w)
    llvm::consumeError(w.takeError());
  if (auto n = parseNetwork(line); !n)
    llvm::consumeError(n.takeError());
  if (auto s = parseSlo(line); !s)
    llvm::consumeError(s.takeError());
  return 0;
}
