//===- TensorFile.h - ONNX TensorProto files --------------------*- C++ -*-===//
//
// Test data in the layout of the ONNX backend tests: a directory holding
// input_0.pb, input_1.pb, ... and output_0.pb, ..., each one serialized
// onnx.TensorProto.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_RUNTIME_TENSORFILE_H
#define LPX_RUNTIME_TENSORFILE_H

#include "lpx/runtime/HostTensor.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <vector>

namespace lpx::rt {

/// Parses a serialized TensorProto, from raw_data or from the typed fields
/// (float_data, int32_data, int64_data, double_data, uint64_data). String,
/// external and unsupported element types are errors, as are truncated files
/// and data whose size does not match the dimensions.
llvm::Expected<HostTensor> readTensorProto(llvm::StringRef path);

/// Same, from bytes already in memory; `sourceName` is used in messages.
llvm::Expected<HostTensor> parseTensorProto(llvm::StringRef bytes,
                                            llvm::StringRef sourceName);

/// Writes `t` as a TensorProto with raw_data. Writes a temporary file and
/// renames it, so a failure never leaves a partial file.
llvm::Error writeTensorProto(const HostTensor &t, llvm::StringRef path);

/// Reads `dir`/`prefix`_0.pb, `prefix`_1.pb, ... until one is missing.
/// `prefix` is "input" or "output". A missing directory is an error; a
/// directory without matching files gives an empty list.
llvm::Expected<std::vector<HostTensor>> readTestDataDir(llvm::StringRef dir,
                                                        llvm::StringRef prefix);

/// Writes `tensors` as `dir`/`prefix`_0.pb, `prefix`_1.pb, ..., the files
/// readTestDataDir reads; the first that fails is the error.
llvm::Error writeTestDataDir(llvm::StringRef dir, llvm::StringRef prefix,
                             const std::vector<HostTensor> &tensors);

} // namespace lpx::rt

#endif
