//===- Coverage.h - Can this model run on the chip, and what blocks it? --===//
//
// The analysis behind `lpx coverage`: every node of a model with its op
// type, domain and opset version and a status backed by the compiler itself
// (the importer's per-node diagnostics, the program's instructions), plus
// what a portable model needs: chips and the predicted latency of one
// inference from compiling and simulating it.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_COVERAGE_H
#define LPX_DEPLOY_COVERAGE_H

#include "lpx/Import/ONNXImporter.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace lpx::deploy {

enum class NodeStatus { Supported, Folded, Unsupported };

struct NodeCoverage {
  std::string name;
  std::string opType;
  std::string domain;  // "" for the default ONNX domain
  int opsetVersion = 0; // since-version of the schema the model's opset picks
  NodeStatus status = NodeStatus::Supported;
  std::string reason;  // why it is unsupported
  /// The name the compiler's diagnostics give the node (inside a subgraph
  /// the importer's own, not the listed path).
  std::string importName;
  /// Unsupported only because an operand that must be known at compile time
  /// (a shape, axes) is computed at run time: its op type is not missing.
  bool runTimeShape() const {
    return reason.find("must be a compile-time constant: ") != std::string::npos;
  }
};

struct PortCost {
  std::string chip;
  unsigned nodes = 0;       // chips the weights need
  uint64_t weightBytes = 0;
  uint64_t cycles = 0;
  double seconds = 0;       // compute time at the chip's clock
  double hostSeconds = 0;   // host I/O, outside the cycle count
};

struct ModelCoverage {
  std::string model;
  int opset = 0;
  std::vector<NodeCoverage> nodes;
  std::vector<std::string> modelErrors; // problems not tied to one node
  std::optional<PortCost> cost;         // when the compile succeeded
  std::string costError;                // why the cost could not be computed
  unsigned supported() const;
  unsigned folded() const;
  /// Op types lpx does not compile at all (a foreign domain, or not in
  /// the importer's table).
  std::vector<std::string> missingOpTypes() const;
  /// Supported op types used with a shape or attribute that is not:
  /// "Conv (the window does not fit spatial dim 0)", one per distinct use.
  std::vector<std::string> unsupportedUses() const;
  bool portable() const;
};

/// Analyses one model. An unreadable or malformed file is an error; an
/// unsupported model is a normal result.
llvm::Expected<ModelCoverage> analyzeModel(const std::string &path,
                                           const ImportOptions &import,
                                           const std::string &chip);

/// Analyses each of `paths` on `chip` (a preset or file, loaded first: a
/// bad chip is the error before any model is read); the first model that
/// is an error ends it.
llvm::Expected<std::vector<ModelCoverage>>
analyzeModels(const std::vector<std::string> &paths,
              const ImportOptions &import, const std::string &chip);

} // namespace lpx::deploy

#endif
