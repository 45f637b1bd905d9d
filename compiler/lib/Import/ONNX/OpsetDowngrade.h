//===- OpsetDowngrade.h - Opsets 18 to 23 to opset 17 -----------*- C++ -*-===//
//
// ONNX 1.12's checker and shape inference stop at opset 17. A model at a
// newer default-domain opset has each node whose schema changed rewritten to
// its opset-17 form and each op new since 17 decomposed into opset-17 ops
// (the table in lpx/Import/OpsetVersions.h), then imports as an opset-17
// model. What ONNX 1.12 cannot check about the newer forms, the rewrites do.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_LIB_IMPORT_ONNX_OPSETDOWNGRADE_H
#define LPX_LIB_IMPORT_ONNX_OPSETDOWNGRADE_H

#include "onnx/onnx_pb.h"

#include <string>
#include <vector>

namespace lpx::onnximport {

/// A node the rewrite could not bring to opset 17: its name (as the importer
/// names it), op type, since-version and the one-line reason.
struct DowngradeProblem {
  std::string node, opType;
  int version;
  std::string reason;
};

/// Rewrites `model` (default-domain opset `opset`, 18 to kNewestOpset) to
/// opset 17 and IR version 8 in place. Unnamed nodes are named first, as the
/// importer names them, so messages name the model's nodes. Returns the
/// nodes that could not be rewritten; the model is then only partly
/// rewritten.
std::vector<DowngradeProblem> downgradeToOpset17(onnx::ModelProto &model,
                                                 int64_t opset);

/// Whether `op` has a rewrite to opset 17 (every Rewritten or Decomposed
/// entry of the table must).
bool hasNodeRewrite(const std::string &op);

/// The message of a problem: "node 'X' (Op-19): reason".
std::string problemMessage(const DowngradeProblem &p);

} // namespace lpx::onnximport

#endif
