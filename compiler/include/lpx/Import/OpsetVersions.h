//===- OpsetVersions.h - Default-domain op versions after opset 17 -*- C++ -*-===//
//
// ONNX 1.12 (Debian 12) has schemas up to opset 17. Models at opsets 18 to 23
// are imported by rewriting every node whose schema changed after 17 to its
// opset-17 form, or new ops to opset-17 decompositions, before ONNX's checker
// and shape inference see the model (OpsetDowngrade.cpp). This is the one
// table of what changed and how the importer handles it; coverage reads it.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_IMPORT_OPSETVERSIONS_H
#define LPX_IMPORT_OPSETVERSIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <vector>

namespace lpx {

/// The opset ONNX 1.12's checker and shape inference know.
constexpr int64_t kCheckedOpset = 17;
/// The newest default-domain opset whose new op versions the importer reads.
constexpr int64_t kNewestOpset = 23;
/// The newest opset the table knows: a model at an opset up to this one has
/// its nodes of versions past kNewestOpset reported one by one (the rest
/// import); past it, the whole model is refused.
constexpr int64_t kNewestKnownOpset = 28;

/// The ai.onnx.ml opset ONNX 1.12's schemas know.
constexpr int64_t kCheckedMlOpset = 3;
/// The newest ai.onnx.ml opset: ONNX's releases pair default-domain opsets
/// 18 and 19 with ai.onnx.ml 3, 20 with 4, and 21 to 23 with 5 (onnx/
/// helper.py's VERSION_TABLE). lpx compiles no ai.onnx.ml op: a model
/// imports whatever its ai.onnx.ml opset, and each node of that domain is
/// reported as not supported, with its version.
constexpr int64_t kNewestMlOpset = 5;

enum class VersionHandling {
  TypesOnly,   ///< only new element types: the opset-17 schema checks it
  Rewritten,   ///< the new form is rewritten to the opset-17 form
  Decomposed,  ///< a new op, decomposed into opset-17 ops
  Unsupported, ///< recognised, not supported (reported per node)
};

struct OpVersionEntry {
  const char *op;
  int since;
  VersionHandling how;
  const char *note; ///< what the rewrite does or what is not supported
};

/// Every default-domain op version of opsets 18 to kNewestKnownOpset.
llvm::ArrayRef<OpVersionEntry> newerOpVersions();

/// The version of `op` a model at `opset` uses, when it is newer than 17
/// (null when the op is unchanged since opset 17 or unknown).
const OpVersionEntry *newerOpVersion(llvm::StringRef op, int64_t opset);

/// Every ai.onnx.ml op version of ml opsets 4 and 5 (ONNX 1.12 knows 1
/// to 3); all Unsupported.
llvm::ArrayRef<OpVersionEntry> newerMlOpVersions();

/// The version of ai.onnx.ml op `op` a model at ai.onnx.ml `mlOpset` uses,
/// when it is newer than 3 (null otherwise).
const OpVersionEntry *newerMlOpVersion(llvm::StringRef op, int64_t mlOpset);

/// The element types (ONNX names: "float", "int8", ...) an op new since
/// opset 17 takes, as its schema says; empty for other ops.
std::vector<llvm::StringRef> newOpElementTypes(llvm::StringRef op);

/// "types only", "rewritten", ... for reports.
llvm::StringRef handlingName(VersionHandling how);

} // namespace lpx

#endif
