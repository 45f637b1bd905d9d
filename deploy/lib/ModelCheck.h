//===- ModelCheck.h - Is the file a well-formed ONNX model at all? -*- C++ -*-===//
//
// Private to lpx_deploy: coverage's structure checks of a parsed model
// (the ONNX checker, tensor sizes, external data within the model's folder).
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_LIB_MODELCHECK_H
#define LPX_DEPLOY_LIB_MODELCHECK_H

#include "onnx/onnx_pb.h"
#include "llvm/Support/Error.h"
#include <string>

namespace lpx::deploy {

/// The importer's name for a node (see ONNXImporter.h).
inline std::string nodeName(const onnx::NodeProto &n, int index) {
  return n.name().empty() ? n.op_type() + "_" + std::to_string(index)
                          : n.name();
}

/// Fails with one line naming what is wrong with the model read from
/// `path`.
llvm::Error checkModel(const onnx::ModelProto &model, const std::string &path);

} // namespace lpx::deploy

#endif
