//===- ModelCheck.h - Is the file a well-formed ONNX model at all? -*- C++ -*-===//
//
// Problems that make `lpx coverage` fail with exit 2 before any support
// analysis: a broken model is bad input, not a model with unsupported
// operators. Private to lpx_deploy (Coverage.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_MODELCHECK_H
#define LPX_DEPLOY_MODELCHECK_H

#include "onnx/onnx_pb.h"
#include "llvm/Support/Error.h"
#include <string>

namespace lpx::deploy {

/// The importer's name for a node (see ONNXImporter.h).
std::string nodeName(const onnx::NodeProto &n, int index);

/// Every structural problem is an error naming it ("'PATH' is not a valid
/// model: ..."); a well-formed model passes, whatever operators it uses.
llvm::Error checkModel(const onnx::ModelProto &model, const std::string &path);

} // namespace lpx::deploy

#endif
