//===- ServiceTable.h - Simulated service times of a deployment -*- C++ -*-===//
//
// The one place the serving model takes a time from. The deploy layer fills a
// ServiceTable with simulated times of one deployment (model, chip, chips,
// placement, formats, context): the decode step of one group of sequences at
// (batch, context) points, the prefill at (prompt, batch) points, the host I/O
// per request, the pipeline's stages and the sequences whose KV caches the free
// SRAM holds. Between simulated points the ServiceModel interpolates, as
// `kInterpolation` states; nothing else in the library invents a time.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_SERVE_SERVICETABLE_H
#define LPX_SERVE_SERVICETABLE_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lpx::serve {

/// One simulated decode step: `batch` sequences of one group, each attending
/// over `context` KV positions, through every stage.
struct DecodePoint {
  int64_t batch = 0;
  int64_t context = 0;
  double us = 0;
};

/// One simulated prefill. With `chunk` 0: `batch` prompts of `prompt` tokens
/// each, whole. With `chunk` C > 0 (the table's `prefillChunk`): one chunk of C
/// tokens of each of `batch` prompts, whose last token is at position `prompt`
/// (so attention reads `prompt` positions).
struct PrefillPoint {
  int64_t prompt = 0;
  int64_t batch = 0;
  int64_t chunk = 0;
  double us = 0;
};

struct ServiceTable {
  /// What the times are of (model, chip, placement, formats): for reports.
  std::string deployment;
  /// "simulated" when every point was compiled and simulated, "synthetic" for
  /// a hand-made table (tests, benchmarks).
  std::string source = "simulated";
  /// The deploy layer's cache key of everything the table depends on (lpx
  /// version included), kept in the file so a cache entry read back can be
  /// checked against the key it was looked up by; empty when not cached.
  std::string cacheKey;
  std::vector<DecodePoint> decode;
  std::vector<PrefillPoint> prefill;
  /// The chunk of chunked prefill (0: prompts are prefilled whole).
  int64_t prefillChunk = 0;
  /// Host I/O of one request's prefill (prompt in, logits out), per request.
  double prefillHostIoUs = 0;
  /// Host I/O of one sequence's decode step (token in, logits out): it lies on
  /// the path to the next step of that sequence's group, outside the stages.
  double stepHostIoUs = 0;
  /// Pipeline stages; a stage works on one group at a time. `stageShare[s]` is
  /// the share of a step (or prefill) for which stage s is occupied; the
  /// shares sum to 1 (a group passes through the stages one after another).
  int64_t stages = 1;
  std::vector<double> stageShare{1.0};
  /// Each stage's share of a prefill or chunk, from its own simulation (a
  /// chunk's weight-bound layers spread differently over the stages than a
  /// step's); empty: stageShare's.
  std::vector<double> prefillStageShare;
  /// The most sequences whose KV caches the free SRAM holds at once.
  int64_t maxSequences = 1;
};

/// The interpolation between simulated points, as reports print it.
extern const char *const kInterpolation;

/// A damaged or inconsistent table is an error naming what is wrong: every
/// time finite and positive, grids complete (every batch at every context),
/// no duplicates, shares positive and summing to 1.
llvm::Error validate(const ServiceTable &table);

llvm::json::Value toJson(const ServiceTable &table);
/// Reads and validates; unknown keys and a different interpolation are errors.
llvm::Expected<ServiceTable> serviceTableFromJson(const llvm::json::Value &v);
llvm::Expected<ServiceTable> parseServiceTable(llvm::StringRef jsonText);

/// A complete grid of times over two axes, interpolated piecewise linearly in
/// each (bilinear in a cell), clamped up to the first value of each axis.
class TimeGrid {
public:
  TimeGrid() = default;
  TimeGrid(std::vector<int64_t> xs, std::vector<int64_t> ys,
           std::vector<double> us)
      : xs(std::move(xs)), ys(std::move(ys)), us(std::move(us)) {}
  bool empty() const { return us.empty(); }
  double at(int64_t x, int64_t y) const;
  int64_t maxX() const { return xs.back(); }
  int64_t maxY() const { return ys.back(); }
  const std::vector<int64_t> &xAxis() const { return xs; }
  const std::vector<int64_t> &yAxis() const { return ys; }
  double point(size_t i, size_t j) const { return us[i * ys.size() + j]; }

private:
  std::vector<int64_t> xs, ys;
  std::vector<double> us;
};

/// A validated table, indexed for interpolation.
class ServiceModel {
public:
  static llvm::Expected<ServiceModel> create(ServiceTable table);

  /// One group's decode step of `batch` sequences whose longest context is
  /// `context` positions. Requires batch <= maxDecodeBatch(), context <=
  /// maxContext().
  double decodeUs(int64_t batch, int64_t context) const {
    return decodeGrid.at(batch, context);
  }
  /// A whole prefill of `batch` prompts padded to `prompt` tokens.
  double prefillUs(int64_t prompt, int64_t batch) const {
    return prefillGrid.at(prompt, batch);
  }
  /// One chunk (table.prefillChunk tokens) ending at position `end`.
  double prefillChunkUs(int64_t end, int64_t batch) const {
    return chunkGrid.at(end, batch);
  }
  bool hasChunkedPrefill() const { return !chunkGrid.empty(); }
  /// The chunks of one prompt's positions `from` to `to`, one after another,
  /// each a chunk of prefillChunk tokens timed at its end (the last one
  /// padded to a whole chunk, as the chunked policy times it).
  double chunkedPrefillUs(int64_t from, int64_t to) const;

  /// The value interpolated for a simulated point from its neighbours with the
  /// point itself held out: along context between the neighbouring contexts
  /// at the same batch if the point is inside the context axis, else along
  /// batch. An error for a point that is not in the table or has no
  /// neighbours on both sides of either axis.
  llvm::Expected<double> heldOutDecodeUs(int64_t batch, int64_t context) const;
  llvm::Expected<double> heldOutPrefillUs(int64_t prompt, int64_t batch) const;

  int64_t maxDecodeBatch() const { return decodeGrid.maxX(); }
  int64_t maxContext() const { return decodeGrid.maxY(); }
  /// The longest prompt the table times: chunked, up to the last chunk's end.
  int64_t maxPrompt() const {
    return chunkGrid.empty() ? prefillGrid.maxX() : chunkGrid.maxX();
  }
  /// The longest prompt timed whole (chunked tables: those of one chunk).
  int64_t maxWholePrompt() const { return prefillGrid.maxX(); }
  int64_t maxPrefillBatch() const { return prefillGrid.maxY(); }
  const ServiceTable &table() const { return data; }

private:
  ServiceTable data;
  TimeGrid decodeGrid;  // batch x context
  TimeGrid prefillGrid; // prompt x batch (chunk 0)
  TimeGrid chunkGrid;   // end position x batch (chunk = prefillChunk)
};

} // namespace lpx::serve

#endif // LPX_SERVE_SERVICETABLE_H
