//===- Bindings.cpp - Host tensors bound whole or in pieces ---------------===//
#include "lpx/isa/Bindings.h"
#include "lpx/isa/DType.h"

#include "llvm/ADT/StringMap.h"
#include <algorithm>
#include <cstring>

using namespace lpx::isa;

template <typename... Ts>
static llvm::Error fail(const char *fmt, Ts... args) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), fmt, args...);
}

/// The offset of piece `b` along `axis` (0 when it has no offsets).
static int64_t offsetOf(const pb::Binding &b, size_t axis) {
  return axis < size_t(b.offsets_size()) ? b.offsets(int(axis)) : 0;
}

/// Checks that the pieces of `t` cut at most one axis into a contiguous
/// run, and sets `t.shape` to the whole tensor's shape.
static llvm::Error checkTiling(const pb::Program &p, HostBinding &t) {
  const pb::Buffer &first = p.buffers(int(t.pieces[0]->buffer()));
  const size_t rank = size_t(first.shape_size());
  t.dtype = first.dtype();
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
  }
  t.shape.assign(first.shape().begin(), first.shape().end());
  if (t.pieces.size() == 1) {
    if (t.pieces[0]->offsets_size() &&
        llvm::any_of(t.pieces[0]->offsets(), [](int64_t o) { return o; }))
      return fail("binding %s: a single piece must start at 0",
                  t.name.c_str());
    return llvm::Error::success();
  }
  // The cut axis is the one where offsets differ; every other axis is whole.
  size_t axis = rank;
  for (size_t a = 0; a < rank; ++a)
    for (const pb::Binding *b : t.pieces)
      if (offsetOf(*b, a) != offsetOf(*t.pieces[0], a))
        axis = a;
  if (axis == rank)
    return fail("binding %s: pieces overlap", t.name.c_str());
  std::vector<const pb::Binding *> sorted = t.pieces;
  std::sort(sorted.begin(), sorted.end(), [&](auto *a, auto *b) {
    return offsetOf(*a, axis) < offsetOf(*b, axis);
  });
  int64_t next = 0;
  for (const pb::Binding *b : sorted) {
    const pb::Buffer &buf = p.buffers(int(b->buffer()));
    for (size_t a = 0; a < rank; ++a)
      if (a != axis && (offsetOf(*b, a) != 0 ||
                        buf.shape(int(a)) != first.shape(int(a))))
        return fail("binding %s: pieces must cut one axis only",
                    t.name.c_str());
    if (offsetOf(*b, axis) != next)
      return fail("binding %s: pieces leave a gap or overlap at offset "
                  "%lld of axis %zu",
                  t.name.c_str(), (long long)next, axis);
    next += buf.shape(int(axis));
  }
  t.shape[axis] = next;
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
