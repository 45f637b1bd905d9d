//===- ServiceTable.cpp - Validation and interpolation of service times ---===//

#include "lpx/serve/ServiceTable.h"
#include "Fail.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <map>

using llvm::Error;
using llvm::Expected;

namespace lpx::serve {

const char *const kInterpolation =
    "piecewise-linear in batch and in context (prompt), bilinear inside a "
    "cell, clamped up to the smallest simulated point";

static Error fail(const std::string &msg) {
  return failAbout("service table", msg);
}

static bool goodTime(double us) { return std::isfinite(us) && us > 0; }

namespace {
/// Points keyed by (x, y), collected and checked to form a complete grid.
struct GridBuilder {
  const char *what;
  const char *xName;
  const char *yName;
  std::map<std::pair<int64_t, int64_t>, double> points;

  Error add(int64_t x, int64_t y, double us) {
    if (x < 1 || y < 1)
      return fail(std::string(what) + " point has " + xName + " " +
                  std::to_string(x) + ", " + yName + " " + std::to_string(y) +
                  " (both must be at least 1)");
    if (!goodTime(us))
      return fail(std::string(what) + " point (" + xName + " " +
                  std::to_string(x) + ", " + yName + " " + std::to_string(y) +
                  ") has time " + std::to_string(us) +
                  " us (must be finite and above 0)");
    if (!points.emplace(std::make_pair(x, y), us).second)
      return fail(std::string(what) + " point (" + xName + " " +
                  std::to_string(x) + ", " + yName + " " + std::to_string(y) +
                  ") appears twice");
    return Error::success();
  }

  Expected<TimeGrid> build() const {
    std::vector<int64_t> xs, ys;
    for (auto &[k, v] : points) {
      xs.push_back(k.first);
      ys.push_back(k.second);
    }
    llvm::sort(xs);
    xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
    llvm::sort(ys);
    ys.erase(std::unique(ys.begin(), ys.end()), ys.end());
    std::vector<double> us;
    for (int64_t x : xs)
      for (int64_t y : ys) {
        auto it = points.find({x, y});
        if (it == points.end())
          return fail(std::string(what) + " points are not a complete grid: (" +
                      xName + " " + std::to_string(x) + ", " + yName + " " +
                      std::to_string(y) + ") is missing");
        us.push_back(it->second);
      }
    return TimeGrid(std::move(xs), std::move(ys), std::move(us));
  }
};

struct Grids {
  TimeGrid decode, prefill, chunk;
};
} // namespace

static Expected<Grids> buildGrids(const ServiceTable &t) {
  if (t.decode.empty())
    return fail("no decode points");
  GridBuilder decode{"decode", "batch", "context", {}};
  for (const DecodePoint &p : t.decode)
    if (Error e = decode.add(p.batch, p.context, p.us))
      return std::move(e);
  if (t.prefillChunk < 0)
    return fail("prefill_chunk is negative");
  GridBuilder whole{"prefill", "prompt", "batch", {}};
  GridBuilder chunk{"chunked prefill", "end position", "batch", {}};
  for (const PrefillPoint &p : t.prefill) {
    if (p.chunk == 0) {
      if (Error e = whole.add(p.prompt, p.batch, p.us))
        return std::move(e);
    } else if (p.chunk == t.prefillChunk) {
      if (p.prompt < p.chunk)
        return fail("chunked prefill point ends at position " +
                    std::to_string(p.prompt) + ", before its chunk of " +
                    std::to_string(p.chunk) + " tokens");
      if (Error e = chunk.add(p.prompt, p.batch, p.us))
        return std::move(e);
    } else {
      return fail("prefill point has chunk " + std::to_string(p.chunk) +
                  "; the table's prefill_chunk is " +
                  std::to_string(t.prefillChunk) + " (or 0 for a whole prompt)");
    }
  }
  if (whole.points.empty())
    return fail("no whole-prompt prefill points (chunk 0)");
  if (t.prefillChunk > 0 && chunk.points.empty())
    return fail("prefill_chunk is " + std::to_string(t.prefillChunk) +
                " but no prefill point has that chunk");
  Grids g;
  auto d = decode.build();
  if (!d)
    return d.takeError();
  g.decode = std::move(*d);
  auto w = whole.build();
  if (!w)
    return w.takeError();
  g.prefill = std::move(*w);
  if (!chunk.points.empty()) {
    auto c = chunk.build();
    if (!c)
      return c.takeError();
    g.chunk = std::move(*c);
  }
  return g;
}

/// `idle`: an entry may be 0 (a stage a prefill's program leaves idle, as
/// tiny-llama's chunk on tp 1 pp 5 leaves the fifth).
static Error checkShares(const std::vector<double> &shares, int64_t stages,
                         const std::string &key, bool idle) {
  if (int64_t(shares.size()) != stages)
    return fail(key + " has " + std::to_string(shares.size()) +
                " entries for " + std::to_string(stages) + " stages");
  double sum = 0;
  for (double s : shares) {
    if (!std::isfinite(s) || s < 0 || (s == 0 && !idle))
      return fail("a " + key + " entry is not above 0");
    sum += s;
  }
  if (std::fabs(sum - 1.0) > 1e-6)
    return fail(key + " sums to " + std::to_string(sum) + ", not 1");
  return Error::success();
}

static Error checkScalars(const ServiceTable &t) {
  if (!std::isfinite(t.prefillHostIoUs) || t.prefillHostIoUs < 0)
    return fail("prefill_host_io_us must be finite and not negative");
  if (!std::isfinite(t.stepHostIoUs) || t.stepHostIoUs < 0)
    return fail("step_host_io_us must be finite and not negative");
  if (t.stages < 1)
    return fail("stages must be at least 1");
  if (Error e = checkShares(t.stageShare, t.stages, "stage_share", false))
    return e;
  if (!t.prefillStageShare.empty())
    if (Error e = checkShares(t.prefillStageShare, t.stages,
                              "prefill_stage_share", true))
      return e;
  if (t.maxSequences < 1)
    return fail("max_sequences must be at least 1");
  return Error::success();
}

Error validate(const ServiceTable &table) {
  if (Error e = checkScalars(table))
    return e;
  auto g = buildGrids(table);
  return g ? Error::success() : g.takeError();
}

/// The segment [i, i+1] of a sorted axis holding v, clamped below to the first
/// point (a program compiled for more runs a smaller shape padded) and above
/// to the last (callers check the bound first).
static std::pair<size_t, double> locate(const std::vector<int64_t> &axis,
                                        int64_t v) {
  if (axis.size() == 1 || v <= axis.front())
    return {0, 0.0};
  if (v >= axis.back())
    return {axis.size() - 2, 1.0};
  size_t i = size_t(std::upper_bound(axis.begin(), axis.end(), v) -
                    axis.begin()) -
             1;
  double f = double(v - axis[i]) / double(axis[i + 1] - axis[i]);
  return {i, f};
}

double TimeGrid::at(int64_t x, int64_t y) const {
  auto [i, fx] = locate(xs, x);
  auto [j, fy] = locate(ys, y);
  size_t i1 = xs.size() == 1 ? i : i + 1;
  size_t j1 = ys.size() == 1 ? j : j + 1;
  double a = point(i, j) + fy * (point(i, j1) - point(i, j));
  double b = point(i1, j) + fy * (point(i1, j1) - point(i1, j));
  return a + fx * (b - a);
}

/// Linear interpolation of a held-out point from its two neighbours.
static Expected<double> heldOut(const TimeGrid &g, int64_t x, int64_t y,
                                const char *what) {
  const auto &xs = g.xAxis();
  const auto &ys = g.yAxis();
  auto ix = std::find(xs.begin(), xs.end(), x);
  auto iy = std::find(ys.begin(), ys.end(), y);
  if (ix == xs.end() || iy == ys.end())
    return fail(std::string("(") + std::to_string(x) + ", " +
                std::to_string(y) + ") is not a simulated " + what + " point");
  size_t i = size_t(ix - xs.begin()), j = size_t(iy - ys.begin());
  if (j > 0 && j + 1 < ys.size()) {
    double f = double(y - ys[j - 1]) / double(ys[j + 1] - ys[j - 1]);
    return g.point(i, j - 1) + f * (g.point(i, j + 1) - g.point(i, j - 1));
  }
  if (i > 0 && i + 1 < xs.size()) {
    double f = double(x - xs[i - 1]) / double(xs[i + 1] - xs[i - 1]);
    return g.point(i - 1, j) + f * (g.point(i + 1, j) - g.point(i - 1, j));
  }
  return fail(std::string("the ") + what + " point (" + std::to_string(x) +
              ", " + std::to_string(y) +
              ") is on the grid's edge in both axes: nothing to interpolate it "
              "from");
}

Expected<double> ServiceModel::heldOutDecodeUs(int64_t batch,
                                               int64_t context) const {
  return heldOut(decodeGrid, batch, context, "decode");
}

Expected<double> ServiceModel::heldOutPrefillUs(int64_t prompt,
                                                int64_t batch) const {
  return heldOut(prefillGrid, prompt, batch, "prefill");
}

double ServiceModel::chunkedPrefillUs(int64_t from, int64_t to) const {
  const int64_t c = data.prefillChunk;
  double us = 0;
  for (int64_t done = from; done < to; done += c)
    us += prefillChunkUs(std::max(std::min(done + c, to), c), 1);
  return us;
}

Expected<ServiceModel> ServiceModel::create(ServiceTable table) {
  if (Error e = checkScalars(table))
    return std::move(e);
  auto grids = buildGrids(table);
  if (!grids)
    return grids.takeError();
  ServiceModel m;
  m.data = std::move(table);
  m.decodeGrid = std::move(grids->decode);
  m.prefillGrid = std::move(grids->prefill);
  m.chunkGrid = std::move(grids->chunk);
  return m;
}

} // namespace lpx::serve
