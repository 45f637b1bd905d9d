//===- Bindings.cpp - Host tensors bound whole or in pieces ---------------===//
#include "lpx/isa/Bindings.h"
#include "lpx/isa/DType.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include <algorithm>
#include <set>
#include <cstring>
#include <limits>

using namespace lpx::isa;

template <typename... Ts>
static llvm::Error fail(const char *fmt, Ts... args) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), fmt, args...);
}

/// The offset of piece `b` along `axis` (0 when it has no offsets).
static int64_t offsetOf(const pb::Binding &b, size_t axis) {
  return axis < size_t(b.offsets_size()) ? b.offsets(int(axis)) : 0;
}

std::optional<std::string>
lpx::isa::tileGrid(llvm::ArrayRef<PieceBox> pieces,
                   std::vector<int64_t> &whole) {
  if (pieces.empty())
    return std::string("no pieces");
  const size_t rank = pieces[0].shape.size();
  for (const PieceBox &b : pieces)
    if (b.shape.size() != rank || b.offsets.size() != rank)
      return std::string("pieces differ in rank");
  // Along each axis the distinct starting offsets cut it into cells; each
  // piece must span exactly one cell per axis, and each cell of the grid
  // must hold exactly one piece.
  whole.assign(rank, 0);
  std::vector<std::vector<int64_t>> cuts(rank);
  for (size_t a = 0; a < rank; ++a) {
    for (const PieceBox &b : pieces) {
      if (b.offsets[a] < 0 || b.shape[a] < 0 ||
          b.offsets[a] > std::numeric_limits<int64_t>::max() - b.shape[a])
        return "offset " + std::to_string(b.offsets[a]) + " of axis " +
               std::to_string(a) + " out of range";
      cuts[a].push_back(b.offsets[a]);
      whole[a] = std::max(whole[a], b.offsets[a] + b.shape[a]);
    }
    llvm::sort(cuts[a]);
    cuts[a].erase(std::unique(cuts[a].begin(), cuts[a].end()), cuts[a].end());
    if (cuts[a][0] != 0)
      return "no piece starts at 0 on axis " + std::to_string(a);
  }
  // Cells in the grid; more than the pieces (counted without overflow)
  // means a gap.
  uint64_t count = 1;
  for (size_t a = 0; a < rank; ++a) {
    count *= cuts[a].size();
    if (count > pieces.size())
      return std::string("pieces leave a gap");
  }
  std::set<std::vector<size_t>> cells;
  for (const PieceBox &b : pieces) {
    std::vector<size_t> cell(rank);
    for (size_t a = 0; a < rank; ++a) {
      auto it = llvm::lower_bound(cuts[a], b.offsets[a]);
      cell[a] = size_t(it - cuts[a].begin());
      int64_t end = std::next(it) == cuts[a].end() ? whole[a] : *std::next(it);
      if (b.offsets[a] + b.shape[a] != end)
        return "pieces leave a gap or overlap at offset " +
               std::to_string(b.offsets[a]) + " of axis " + std::to_string(a);
    }
    if (!cells.insert(cell).second)
      return std::string("pieces overlap");
  }
  if (cells.size() != count)
    return std::string("pieces leave a gap");
  return std::nullopt;
}

/// Checks that the pieces of `t` tile the whole tensor as a grid, and sets
/// `t.shape` to the whole tensor's shape.
static llvm::Error checkTiling(const pb::Program &p, HostBinding &t) {
  const pb::Buffer &first = p.buffers(int(t.pieces[0]->buffer()));
  const size_t rank = size_t(first.shape_size());
  t.dtype = first.dtype();
  std::vector<std::vector<int64_t>> offsets;
  std::vector<PieceBox> boxes;
  offsets.reserve(t.pieces.size());
  for (const pb::Binding *b : t.pieces) {
    const pb::Buffer &buf = p.buffers(int(b->buffer()));
    if (buf.dtype() != t.dtype || size_t(buf.shape_size()) != rank)
      return fail("binding %s: pieces differ in element type or rank",
                  t.name.c_str());
    if (b->offsets_size() && size_t(b->offsets_size()) != rank)
      return fail("binding %s: offsets of rank %d for a rank-%zu buffer",
                  t.name.c_str(), b->offsets_size(), rank);
    for (int64_t o : b->offsets())
      if (o < 0)
        return fail("binding %s: negative offset", t.name.c_str());
    offsets.emplace_back(rank);
    for (size_t a = 0; a < rank; ++a)
      offsets.back()[a] = offsetOf(*b, a);
    boxes.push_back({llvm::ArrayRef<int64_t>(buf.shape().data(), rank),
                     offsets.back()});
  }
  if (auto why = tileGrid(boxes, t.shape))
    return fail("binding %s: %s", t.name.c_str(), why->c_str());
  return llvm::Error::success();
}

llvm::Expected<std::vector<HostBinding>> lpx::isa::groupBindings(
    const pb::Program &p,
    const google::protobuf::RepeatedPtrField<pb::Binding> &list) {
  std::vector<HostBinding> out;
  llvm::StringMap<size_t> index;
  for (const pb::Binding &b : list) {
    auto [it, fresh] = index.try_emplace(b.name(), out.size());
    if (fresh)
      out.push_back({b.name(), {}, {}, 0});
    out[it->second].pieces.push_back(&b);
  }
  for (HostBinding &t : out)
    if (llvm::Error e = checkTiling(p, t))
      return std::move(e);
  return out;
}

void lpx::isa::copyPiece(const pb::Program &p, const pb::Binding &b,
                         const std::vector<int64_t> &shape, uint8_t *whole,
                         uint8_t *piece, bool toPiece) {
  const pb::Buffer &buf = p.buffers(int(b.buffer()));
  const size_t rank = shape.size();
  const uint64_t eb = dtypeBytes(static_cast<DType>(buf.dtype()));
  if (rank == 0 || buf.bytes() == 0) {
    toPiece ? std::memcpy(piece, whole, buf.bytes())
            : std::memcpy(whole, piece, buf.bytes());
    return;
  }
  // Row-major strides of the whole tensor, in elements.
  std::vector<uint64_t> stride(rank, 1);
  for (size_t a = rank - 1; a > 0; --a)
    stride[a - 1] = stride[a] * uint64_t(shape[a]);
  const uint64_t run = uint64_t(buf.shape(int(rank - 1))) * eb;
  std::vector<int64_t> idx(rank, 0); // index of the run's first element
  for (uint64_t done = 0; done < buf.bytes(); done += run) {
    uint64_t at = 0;
    for (size_t a = 0; a < rank; ++a)
      at += uint64_t(idx[a] + offsetOf(b, a)) * stride[a];
    toPiece ? std::memcpy(piece + done, whole + at * eb, run)
            : std::memcpy(whole + at * eb, piece + done, run);
    for (size_t a = rank - 1; a-- > 0;) { // next run: odometer over outer axes
      if (++idx[a] < buf.shape(int(a)))
        break;
      idx[a] = 0;
    }
  }
}
