//===- Metrics.cpp - Summaries of a serving run ---------------------------===//

#include "lpx/serve/Metrics.h"

#include <algorithm>

namespace lpx::serve {

Summary summarize(const QuantileSketch &s) {
  Summary out;
  out.count = s.count();
  out.mean = s.mean();
  out.p50 = s.percentile(50);
  out.p90 = s.percentile(90);
  out.p95 = s.percentile(95);
  out.p99 = s.percentile(99);
  out.max = s.max();
  out.exact = s.exact();
  if (out.count)
    for (int q = 1; q <= 100; ++q)
      out.percentiles.push_back(s.percentile(q));
  return out;
}

double statOf(const Summary &s, Stat stat) {
  switch (stat) {
  case Stat::Mean:
    return s.mean;
  case Stat::P50:
    return s.p50;
  case Stat::P90:
    return s.p90;
  case Stat::P95:
    return s.p95;
  case Stat::P99:
    return s.p99;
  case Stat::Max:
    return s.max;
  }
  return 0;
}

void MetricsCollector::onRequest(const RequestRecord &r) {
  ++totals.requests;
  totals.retries += r.retries;
  if (!any || r.arrival < totals.firstArrival)
    totals.firstArrival = r.arrival;
  any = true;
  if (!r.completed) {
    ++totals.rejected;
    totals.rejectedTooLong += r.tooLong;
    return;
  }
  ++totals.completed;
  totals.outputTokens += r.output;
  totals.lastCompletion = std::max(totals.lastCompletion, r.completion);
  double ttftUs = toUs(r.ttft()), e2eUs = toUs(r.e2e()),
         queueUs = toUs(r.queue());
  double tpotUs = r.output > 1 ? r.tpotNs() / double(kNanosPerUs) : 0.0;
  ttft.add(ttftUs);
  splitSums.queue += double(r.queue());
  splitSums.network += double(r.network);
  splitSums.backoff += double(r.backoff);
  splitSums.hostIo += double(r.hostIo);
  splitSums.compute += double(r.compute());
  ttftSums.queue += double(r.queue());
  ttftSums.network += double(r.network);
  ttftSums.backoff += double(r.backoff);
  ttftSums.hostIo += double(r.hostIoFirst);
  ttftSums.compute += double(r.ttftCompute());
  e2e.add(e2eUs);
  queue.add(queueUs);
  if (r.output > 1) {
    tpot.add(tpotUs);
    const double tokens = double(r.output - 1);
    const double hostIo = double(r.hostIo - r.hostIoFirst) / tokens;
    tpotSums.hostIo += hostIo;
    tpotSums.compute += r.tpotNs() - hostIo;
  }
  if (!slo)
    return;
  bool within = true;
  for (const SloTerm &t : slo->terms) {
    double limit = toUs(t.limit);
    switch (t.metric) {
    case Metric::Ttft:
      within &= ttftUs <= limit;
      break;
    case Metric::Tpot:
      within &= r.output <= 1 || tpotUs <= limit;
      break;
    case Metric::E2e:
      within &= e2eUs <= limit;
      break;
    case Metric::Queue:
      within &= queueUs <= limit;
      break;
    case Metric::SessionE2e:
      break; // a session's, not a request's
    }
  }
  good += within;
}

void MetricsCollector::onSession(const SessionRecord &s) {
  ++totals.sessions;
  if (!s.completed)
    return;
  ++totals.sessionsCompleted;
  sessionE2e.add(toUs(s.e2e()));
}

Results MetricsCollector::results() const {
  Results r = totals;
  r.ttft = summarize(ttft);
  r.tpot = summarize(tpot);
  r.e2e = summarize(e2e);
  r.queue = summarize(queue);
  r.sessionE2e = summarize(sessionE2e);
  if (r.completed) {
    double n = double(r.completed) * double(kNanosPerUs);
    auto mean = [n](const Results::Split &sums) {
      return Results::Split{sums.queue / n, sums.network / n,
                            sums.backoff / n, sums.hostIo / n,
                            sums.compute / n};
    };
    r.e2eSplitUs = mean(splitSums);
    r.ttftSplitUs = mean(ttftSums);
    if (r.tpot.count)
      r.tpotSplitUs = Results::Split{
          0, 0, 0, tpotSums.hostIo / double(r.tpot.count) / kNanosPerUs,
          tpotSums.compute / double(r.tpot.count) / kNanosPerUs};
  }
  Nanos span = r.lastCompletion - r.firstArrival;
  r.tokensPerSecond = span > 0 ? double(r.outputTokens) / toSeconds(span) : 0;
  if (slo) {
    SloOutcome o;
    o.holds = r.completed > 0;
    for (const SloTerm &t : slo->terms) {
      const Summary *s = nullptr;
      switch (t.metric) {
      case Metric::Ttft:
        s = &r.ttft;
        break;
      case Metric::Tpot:
        s = &r.tpot;
        break;
      case Metric::E2e:
        s = &r.e2e;
        break;
      case Metric::Queue:
        s = &r.queue;
        break;
      case Metric::SessionE2e:
        s = &r.sessionE2e;
        break;
      }
      SloOutcome::Term term{t, statOf(*s, t.stat), false};
      term.holds = term.valueUs <= toUs(t.limit);
      o.holds &= term.holds;
      o.terms.push_back(term);
    }
    o.good = good;
    o.goodput = r.requests ? double(good) / double(r.requests) : 0.0;
    r.slo = o;
  }
  return r;
}

} // namespace lpx::serve
