//===- WeightBlobs.h - Weight values held once, in releasable blobs -*- C++ -*-===//
//
// A weight with data is an lpx_graph.constant whose value is a
// `dense_resource<name>` with a blob in the context's resource manager
// (docs/architecture.md, "Weights in memory"). Unlike a DenseElementsAttr,
// which MLIR uniques and never frees, a blob can be released: each pass that
// derives a weight from another (transpose, format conversion, slicing)
// makes the new blob and then releases the old one once no constant holds
// it, so a weight's bytes are in memory once. The importer makes a blob of
// every initializer of kBlobMinBytes or more (the size from which
// `strip_weights.py` makes a weight shape-only, so a model folds the same
// constants with data as without); small constants (shapes, axes, scalars),
// which folds read, stay dense.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DIALECT_GRAPH_IR_WEIGHTBLOBS_H
#define LPX_DIALECT_GRAPH_IR_WEIGHTBLOBS_H

#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace lpx::graph {

/// Constants with data of at least this many bytes are held in blobs.
inline constexpr uint64_t kBlobMinBytes = 1024;

/// True for a constant whose values are in a blob (a dense_resource with
/// data); false for dense and shape-only constants.
bool isBlobWeight(mlir::Attribute value);

/// The bytes of a weight's values, little-endian, one element after the
/// other: a blob's data or a non-splat dense attribute's raw data (whole
/// bytes per element only). None for splats, i1, shape-only constants.
std::optional<llvm::ArrayRef<char>> weightBytes(mlir::ElementsAttr value);

/// Writable bytes for a new weight, aligned for any element type; `take`
/// turns them into a blob-held constant (no copy).
class WeightBuffer {
public:
  explicit WeightBuffer(size_t bytes);
  ~WeightBuffer();
  WeightBuffer(WeightBuffer &&other)
      : ptr(std::exchange(other.ptr, nullptr)), size(other.size) {}
  WeightBuffer(const WeightBuffer &) = delete;
  llvm::MutableArrayRef<char> data() { return {ptr, size}; }
  /// The constant of `type` holding these bytes, labelled `name`.
  mlir::ElementsAttr take(mlir::ShapedType type, llvm::StringRef name) &&;

private:
  char *ptr;
  size_t size;
};

/// A blob-held constant of `type` holding `bytes`, which it takes (no copy).
mlir::ElementsAttr blobFromString(mlir::ShapedType type, llvm::StringRef name,
                                  std::unique_ptr<std::string> bytes);

/// A blob-held constant of `type` viewing `bytes`, which the caller keeps
/// alive until it calls adoptBlob (or the constant is released).
mlir::ElementsAttr blobViewing(mlir::ShapedType type, llvm::StringRef name,
                               llvm::ArrayRef<char> bytes);

/// Makes the blob of `value` (made by blobViewing) own `bytes`, which hold
/// the same values and which it takes.
void adoptBlob(mlir::ElementsAttr value, std::unique_ptr<std::string> bytes);

/// A constant of `type` derived from `from`, whose bytes `fill` writes: in
/// a blob named from `from` and `suffix` when `from` is in one, else dense.
mlir::ElementsAttr
deriveWeight(mlir::ElementsAttr from, mlir::ShapedType type,
             const llvm::Twine &suffix,
             llvm::function_ref<void(llvm::MutableArrayRef<char>)> fill);

/// Values that can be cut or moved by copying bytes: whole-byte elements
/// (dense, in a blob or shape-only), or a dense splat.
bool isSliceableWeight(mlir::ElementsAttr value);

/// The constants under `root` whose values are in blobs, for
/// releaseUnusedWeights once a pass has replaced them.
llvm::SmallVector<mlir::ElementsAttr> blobWeightsUnder(mlir::Operation *root);

/// The name of a weight derived from `from` (`from`'s name and `suffix`).
std::string derivedName(mlir::ElementsAttr from, const llvm::Twine &suffix);

/// Frees the blobs of `replaced` that no constant under `root` holds any
/// more. Passes call it after replacing weights (a blob belongs to one
/// function; lpx never shares one between functions or modules).
void releaseUnusedWeights(mlir::Operation *root,
                          llvm::ArrayRef<mlir::ElementsAttr> replaced);

/// The constants that hold each blob under a root, counted, so that a pass
/// frees a weight's old bytes as soon as its last holder takes new ones,
/// not at the pass's end (when all old and new copies would be alive).
class WeightHolders {
public:
  explicit WeightHolders(mlir::Operation *root);
  /// One more constant holds `value`.
  void hold(mlir::ElementsAttr value);
  /// One constant less holds `value` (erased, or given another value); the
  /// blob is freed when none is left.
  void drop(mlir::ElementsAttr value);
  /// Gives `c` the value `next` (its result type follows), then drops the
  /// old one.
  void setValue(mlir::Operation *constant, mlir::ElementsAttr next);

private:
  llvm::DenseMap<void *, int64_t> count;
};

/// Frees the blob of `value` whatever holds it (the importer, for
/// constants it made and then erased).
void releaseWeight(mlir::ElementsAttr value);

/// Bytes of weight blobs made in this process and not yet freed (blobs the
/// IR parser makes are not counted).
uint64_t liveWeightBlobBytes();

} // namespace lpx::graph

#endif
