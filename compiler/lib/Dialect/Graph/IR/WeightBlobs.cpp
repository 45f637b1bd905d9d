//===- WeightBlobs.cpp - Weight values held once, in releasable blobs -----===//
#include "lpx/Dialect/Graph/IR/WeightBlobs.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MemAlloc.h"

#include <atomic>

using namespace mlir;

namespace {

/// Enough for any element type the chip holds (and for SIMD copies).
constexpr size_t kAlign = 64;

std::atomic<uint64_t> liveBytes{0};

/// The deleter of every blob made here: frees with `release` and keeps
/// the count of live bytes.
AsmResourceBlob::DeleterFn counted(std::function<void()> release) {
  return [release = std::move(release)](void *, size_t size, size_t) {
    liveBytes -= size;
    release();
  };
}

DenseResourceElementsAttr makeResource(ShapedType type, StringRef name,
                                       AsmResourceBlob blob) {
  liveBytes += blob.getData().size();
  // The manager renames on collision; callers pass unique names (derived
  // names add a suffix to a unique one).
  return DenseResourceElementsAttr::get(type, name, std::move(blob));
}

/// The blob entry of a resource constant, null for anything else.
DialectResourceBlobManager::BlobEntry *
entryOf(Attribute value) {
  auto r = dyn_cast_or_null<DenseResourceElementsAttr>(value);
  return r ? r.getRawHandle().getResource() : nullptr;
}

size_t alignmentOf(const char *p) {
  auto addr = reinterpret_cast<uintptr_t>(p);
  return std::min<size_t>(kAlign, size_t(1) << llvm::countr_zero(addr | kAlign));
}

} // namespace

bool lpx::graph::isBlobWeight(Attribute value) {
  auto *entry = entryOf(value);
  return entry && entry->getBlob() && !entry->getBlob()->getData().empty();
}

std::optional<ArrayRef<char>> lpx::graph::weightBytes(ElementsAttr value) {
  if (auto *entry = entryOf(value))
    if (AsmResourceBlob *blob = entry->getBlob())
      return blob->getData();
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense || dense.isSplat() ||
      dense.getElementType().getIntOrFloatBitWidth() % 8 != 0)
    return std::nullopt;
  return dense.getRawData();
}

lpx::graph::WeightBuffer::WeightBuffer(size_t bytes)
    : ptr(static_cast<char *>(llvm::allocate_buffer(bytes, kAlign))),
      size(bytes) {}

lpx::graph::WeightBuffer::~WeightBuffer() {
  if (ptr)
    llvm::deallocate_buffer(ptr, size, kAlign);
}

ElementsAttr lpx::graph::WeightBuffer::take(ShapedType type,
                                            StringRef name) && {
  char *p = std::exchange(ptr, nullptr);
  size_t n = size;
  AsmResourceBlob blob(ArrayRef<char>(p, n), kAlign,
                       counted([p, n] { llvm::deallocate_buffer(p, n, kAlign); }),
                       /*dataIsMutable=*/false);
  return cast<ElementsAttr>(makeResource(type, name, std::move(blob)));
}

ElementsAttr lpx::graph::blobFromString(ShapedType type, StringRef name,
                                        std::unique_ptr<std::string> bytes) {
  std::string *s = bytes.release();
  AsmResourceBlob blob(ArrayRef<char>(s->data(), s->size()),
                       alignmentOf(s->data()), counted([s] { delete s; }),
                       /*dataIsMutable=*/false);
  return cast<ElementsAttr>(makeResource(type, name, std::move(blob)));
}

ElementsAttr lpx::graph::blobViewing(ShapedType type, StringRef name,
                                     ArrayRef<char> bytes) {
  AsmResourceBlob blob(bytes, alignmentOf(bytes.data()), counted([] {}),
                       /*dataIsMutable=*/false);
  return cast<ElementsAttr>(makeResource(type, name, std::move(blob)));
}

void lpx::graph::adoptBlob(ElementsAttr value,
                           std::unique_ptr<std::string> bytes) {
  auto *entry = entryOf(value);
  assert(entry && entry->getBlob() &&
         entry->getBlob()->getData().size() == bytes->size() &&
         "adopting bytes for a blob of another size");
  std::string *s = bytes.release();
  liveBytes += s->size(); // the view's deleter subtracts its size
  entry->setBlob(AsmResourceBlob(ArrayRef<char>(s->data(), s->size()),
                                 alignmentOf(s->data()),
                                 counted([s] { delete s; }),
                                 /*dataIsMutable=*/false));
}

std::string lpx::graph::derivedName(ElementsAttr from,
                                    const llvm::Twine &suffix) {
  auto r = dyn_cast<DenseResourceElementsAttr>(from);
  return ((r ? r.getRawHandle().getKey() : StringRef("weight")) + suffix)
      .str();
}

ElementsAttr lpx::graph::deriveWeight(
    ElementsAttr from, ShapedType type, const llvm::Twine &suffix,
    llvm::function_ref<void(llvm::MutableArrayRef<char>)> fill) {
  size_t bytes =
      size_t(type.getNumElements()) * (type.getElementTypeBitWidth() / 8);
  if (isBlobWeight(from)) {
    WeightBuffer out(bytes);
    fill(out.data());
    return std::move(out).take(type, derivedName(from, suffix));
  }
  std::vector<char> out(bytes);
  fill(out);
  return cast<ElementsAttr>(DenseElementsAttr::getFromRawBuffer(type, out));
}

bool lpx::graph::isSliceableWeight(ElementsAttr value) {
  bool wholeBytes = value.getElementType().getIntOrFloatBitWidth() % 8 == 0;
  if (auto dense = dyn_cast<DenseElementsAttr>(value))
    return dense.isSplat() || wholeBytes;
  return isa<DenseResourceElementsAttr>(value) && wholeBytes;
}

SmallVector<ElementsAttr> lpx::graph::blobWeightsUnder(Operation *root) {
  SmallVector<ElementsAttr> out;
  root->walk([&](ConstantOp c) {
    if (isBlobWeight(c.getValue()))
      out.push_back(c.getValue());
  });
  return out;
}

void lpx::graph::releaseWeight(ElementsAttr value) {
  if (auto *entry = entryOf(value))
    if (entry->getBlob())
      entry->setBlob(AsmResourceBlob()); // runs the old blob's deleter
}

void lpx::graph::releaseUnusedWeights(Operation *root,
                                      ArrayRef<ElementsAttr> replaced) {
  if (llvm::none_of(replaced, isBlobWeight))
    return;
  llvm::DenseSet<Attribute> held;
  root->walk([&](ConstantOp c) { held.insert(c.getValue()); });
  // Two attributes of different types may share a blob (a reshape keeps
  // the bytes), so a blob is held if any constant names its entry.
  llvm::DenseSet<void *> heldEntries;
  for (Attribute a : held)
    if (auto *entry = entryOf(a))
      heldEntries.insert(entry);
  for (ElementsAttr value : replaced)
    if (auto *entry = entryOf(value); entry && !heldEntries.contains(entry))
      releaseWeight(value);
}

lpx::graph::WeightHolders::WeightHolders(Operation *root) {
  root->walk([&](ConstantOp c) { hold(c.getValue()); });
}

void lpx::graph::WeightHolders::hold(ElementsAttr value) {
  if (auto *entry = entryOf(value))
    ++count[entry];
}

void lpx::graph::WeightHolders::drop(ElementsAttr value) {
  auto *entry = entryOf(value);
  if (!entry)
    return;
  // A blob never counted is left alone: freeing it could pull the bytes
  // from under a holder made without hold().
  auto it = count.find(entry);
  if (it == count.end() || --it->second > 0)
    return;
  count.erase(it);
  releaseWeight(value);
}

void lpx::graph::WeightHolders::setValue(Operation *constant,
                                         ElementsAttr next) {
  auto c = cast<ConstantOp>(constant);
  ElementsAttr old = c.getValue();
  hold(next);
  c.setValueAttr(next);
  c.getResult().setType(cast<RankedTensorType>(next.getType()));
  drop(old);
}

uint64_t lpx::graph::liveWeightBlobBytes() { return liveBytes; }
