//===- ModelLoader.h - Reading ONNX files from disk -------------*- C++ -*-===//
//
// Everything that touches the file system: the model file, TensorProto files
// of folded inputs, and external-data initializers. Errors are one-line
// llvm::Errors; the driver turns them into diagnostics at the file location.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_LIB_IMPORT_ONNX_MODELLOADER_H
#define LPX_LIB_IMPORT_ONNX_MODELLOADER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include "onnx/onnx_pb.h"

#include <memory>

namespace lpx::onnximport {

/// Reads and parses a model, binary protobuf or the ONNX textual format
/// (onnx/defs/parser.h, as onnx.printer writes it); rejects missing, empty,
/// truncated or non-ONNX files and models without a graph. External data of the initializers is
/// read into raw_data, so nothing later needs the file system.
llvm::Expected<std::unique_ptr<onnx::ModelProto>>
loadModel(llvm::StringRef path);

/// Reads a serialized TensorProto (an ONNX test-data `.pb` file).
llvm::Expected<onnx::TensorProto> loadTensorFile(llvm::StringRef path);

/// Replaces the external-data reference of `t` by its bytes, read from a file
/// inside `modelDir`. Absolute locations and locations that leave the folder
/// (`..`, or a symlink pointing outside) are rejected.
llvm::Error loadExternalData(onnx::TensorProto &t, llvm::StringRef modelDir);

} // namespace lpx::onnximport

#endif
