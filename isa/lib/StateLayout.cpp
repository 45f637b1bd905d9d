//===- StateLayout.cpp - The resident state a program expects -------------===//
#include "lpx/isa/StateLayout.h"
#include "lpx/isa/Bindings.h"
#include "lpx/isa/DType.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

using namespace lpx::isa;

namespace {

llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

/// "f16[1,2,64,8] in 1 piece: node 0 @4096" and the like.
std::string describe(const pb::Program &p, const HostBinding &t) {
  std::string s = std::string(dtypeName(static_cast<DType>(t.dtype))) +
                  shapeText(t.shape) + " in " + std::to_string(t.pieces.size()) +
                  (t.pieces.size() == 1 ? " piece:" : " pieces:");
  for (const pb::Binding *piece : t.pieces) {
    const pb::Buffer &b = p.buffers(int(piece->buffer()));
    s += llvm::formatv(" node {0} @{1}", b.node(), b.addr()).str();
    if (piece->offsets_size())
      s += " offsets " + shapeText({piece->offsets().begin(),
                                    piece->offsets().end()});
  }
  return s;
}

bool samePieces(const pb::Program &pa, const HostBinding &a,
                const pb::Program &pb, const HostBinding &b) {
  if (a.dtype != b.dtype || a.shape != b.shape ||
      a.pieces.size() != b.pieces.size())
    return false;
  for (size_t i = 0; i < a.pieces.size(); ++i) {
    const pb::Binding &x = *a.pieces[i], &y = *b.pieces[i];
    const pb::Buffer &bx = pa.buffers(int(x.buffer()));
    const pb::Buffer &by = pb.buffers(int(y.buffer()));
    if (bx.node() != by.node() || bx.addr() != by.addr() ||
        bx.bytes() != by.bytes() ||
        !std::equal(x.offsets().begin(), x.offsets().end(),
                    y.offsets().begin(), y.offsets().end()))
      return false;
  }
  return true;
}

} // namespace

llvm::Error lpx::isa::checkSameState(const pb::Program &a,
                                     llvm::StringRef aName,
                                     const pb::Program &b,
                                     llvm::StringRef bName) {
  auto sa = groupBindings(a, a.states());
  if (!sa)
    return sa.takeError();
  auto sb = groupBindings(b, b.states());
  if (!sb)
    return sb.takeError();
  llvm::StringMap<const HostBinding *> inB;
  for (const HostBinding &t : *sb)
    inB[t.name] = &t;
  for (const HostBinding &t : *sa) {
    const HostBinding *other = inB.lookup(t.name);
    if (!other)
      return fail(llvm::formatv("state '{0}' of {1} is not in {2}", t.name,
                                aName, bName));
    if (!samePieces(a, t, b, *other))
      return fail(llvm::formatv("state '{0}' is {1} in {2} but {3} in {4}",
                                t.name, describe(a, t), aName,
                                describe(b, *other), bName));
  }
  if (sb->size() != sa->size())
    for (const HostBinding &t : *sb)
      if (!llvm::any_of(*sa, [&](const HostBinding &x) { return x.name == t.name; }))
        return fail(llvm::formatv("state '{0}' of {1} is not in {2}", t.name,
                                  bName, aName));
  return llvm::Error::success();
}
