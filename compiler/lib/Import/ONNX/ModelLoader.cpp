//===- ModelLoader.cpp - Reading ONNX files from disk ---------------------===//
#include "ModelLoader.h"
#include "lpx/Import/ModelLimits.h"

#include "lpx/Import/ShapeOnlyWeights.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "onnx/defs/parser.h"

#include <limits>

using llvm::createStringError;
using llvm::inconvertibleErrorCode;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace lpx::onnximport {

static llvm::Error error(const llvm::Twine &msg) {
  return createStringError(inconvertibleErrorCode(), msg.str());
}

/// Reads a whole file, with the size checks protobuf needs: it cannot parse
/// messages of 2 GiB or more.
static llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readFile(llvm::StringRef file, llvm::StringRef what) {
  fs::file_status st;
  if (std::error_code ec = fs::status(file, st))
    return error("cannot open " + what + " '" + file + "': " + ec.message());
  if (!fs::is_regular_file(st))
    return error(what + " '" + file + "' is not a regular file");
  if (st.getSize() == 0)
    return error(what + " '" + file + "' is empty");
  if (st.getSize() >= uint64_t(std::numeric_limits<int>::max()))
    return error(what + " '" + file + "' is " + llvm::Twine(st.getSize()) +
                 " bytes; protobuf cannot parse 2 GiB or more (store the "
                 "weights as external data)");
  auto buf = llvm::MemoryBuffer::getFile(file, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!buf)
    return error("cannot read " + what + " '" + file +
                 "': " + buf.getError().message());
  return std::move(*buf);
}

/// The ONNX textual format (onnx/defs/parser.h) starts with the model's
/// `<ir_version: ...>` header, possibly after `#` comment lines; a binary
/// ModelProto never starts with '<' or '#'.
static bool isModelText(llvm::StringRef bytes) {
  for (;;) {
    bytes = bytes.ltrim();
    if (!bytes.consume_front("#"))
      return bytes.starts_with("<");
    bytes = bytes.drop_until([](char c) { return c == '\n'; });
  }
}

llvm::Expected<std::unique_ptr<onnx::ModelProto>>
loadModel(llvm::StringRef file) {
  auto buf = readFile(file, "model");
  if (!buf)
    return buf.takeError();
  auto model = std::make_unique<onnx::ModelProto>();
  llvm::StringRef bytes = (*buf)->getBuffer();
  if (isModelText(bytes)) {
    std::string text = bytes.str(); // the parser wants a C string
    onnx::Status st = onnx::OnnxParser::Parse(*model, text.c_str());
    if (!st.IsOK())
      return error("'" + file + "' is not an ONNX model (text format: " +
                   llvm::StringRef(st.ErrorMessage()).trim() + ")");
  } else if (!model->ParseFromArray(bytes.data(), int(bytes.size())))
    return error("'" + file +
                 "' is not an ONNX model (protobuf parse failed: truncated "
                 "or not a ModelProto)");
  // Arbitrary bytes sometimes parse as a message of unknown fields; a model
  // needs at least a graph and an IR version.
  if (!model->has_graph() || model->ir_version() <= 0)
    return error("'" + file + "' is not an ONNX model (no graph or IR version)");
  if (llvm::Error e = checkModelLimits(*model))
    return e;

  llvm::SmallString<256> dir(file);
  path::remove_filename(dir);
  if (dir.empty())
    dir = ".";
  for (onnx::TensorProto &t : *model->mutable_graph()->mutable_initializer())
    if (t.data_location() == onnx::TensorProto::EXTERNAL &&
        !isShapeOnlyTensor(t)) // shape-only weights have nothing to read
      if (llvm::Error e = loadExternalData(t, dir))
        return std::move(e);
  return std::move(model);
}

llvm::Expected<onnx::TensorProto> loadTensorFile(llvm::StringRef file) {
  auto buf = readFile(file, "tensor file");
  if (!buf)
    return buf.takeError();
  onnx::TensorProto t;
  if (!t.ParseFromArray((*buf)->getBufferStart(),
                        int((*buf)->getBufferSize())))
    return error("'" + file + "' is not a TensorProto file");
  if (t.data_location() == onnx::TensorProto::EXTERNAL) {
    llvm::SmallString<256> dir(file);
    path::remove_filename(dir);
    if (llvm::Error e = loadExternalData(t, dir.empty() ? "." : dir.str()))
      return std::move(e);
  }
  return std::move(t);
}

/// Reads `length` bytes of `file` from `offset` into `out`.
static llvm::Error readSlice(llvm::StringRef file, int64_t offset,
                             int64_t length, std::string &out) {
  auto fd = fs::openNativeFileForRead(file);
  if (!fd)
    return fd.takeError();
  out.resize(size_t(length));
  llvm::MutableArrayRef<char> rest(out.data(), out.size());
  llvm::Error result = llvm::Error::success();
  while (!rest.empty()) {
    auto n = fs::readNativeFileSlice(*fd, rest, uint64_t(offset));
    if (!n || *n == 0) {
      result = n ? error("the file ends early") : n.takeError();
      break;
    }
    rest = rest.drop_front(*n);
    offset += int64_t(*n);
  }
  fs::closeFile(*fd);
  if (result)
    out.clear();
  return result;
}

llvm::Error loadExternalData(onnx::TensorProto &t, llvm::StringRef modelDir) {
  std::string location;
  int64_t offset = 0, length = -1;
  for (const auto &kv : t.external_data()) {
    auto asInt = [&](int64_t &out) -> llvm::Error {
      if (llvm::StringRef(kv.value()).getAsInteger(10, out) || out < 0)
        return error("initializer '" + t.name() + "': external data " +
                     kv.key() + " '" + kv.value() +
                     "' is not a non-negative integer");
      return llvm::Error::success();
    };
    if (kv.key() == "location")
      location = kv.value();
    else if (kv.key() == "offset") {
      if (auto e = asInt(offset))
        return e;
    } else if (kv.key() == "length") {
      if (auto e = asInt(length))
        return e;
    }
  }
  std::string what = "initializer '" + t.name() + "': external data '" +
                     location + "'";
  if (location.empty())
    return error("initializer '" + t.name() +
                 "' has external data without a location");
  // The model decides which files we read, so keep it inside its folder.
  if (path::is_absolute(location) || path::is_absolute(location, path::Style::windows))
    return error(what + " is an absolute path; external data must be "
                        "relative to the model's folder");
  for (auto it = path::begin(location), e = path::end(location); it != e; ++it)
    if (*it == "..")
      return error(what + " leaves the model's folder ('..')");

  llvm::SmallString<256> realDir, realFile, joined(modelDir);
  path::append(joined, location);
  if (fs::real_path(modelDir, realDir))
    return error("cannot resolve the model folder '" + modelDir + "'");
  if (std::error_code ec = fs::real_path(joined, realFile))
    return error(what + " cannot be opened: " + ec.message());
  llvm::StringRef prefix = realDir;
  if (!llvm::StringRef(realFile).starts_with(prefix) ||
      realFile.size() <= prefix.size() ||
      !path::is_separator(realFile[prefix.size()]))
    return error(what + " resolves to '" + realFile +
                 "', outside the model's folder");

  fs::file_status st;
  if (std::error_code ec = fs::status(realFile, st))
    return error(what + " cannot be opened: " + ec.message());
  if (!fs::is_regular_file(st))
    return error(what + " is not a regular file");
  uint64_t size = st.getSize();
  if (uint64_t(offset) > size)
    return error(what + ": offset " + llvm::Twine(offset) +
                 " is past the end of the file (" + llvm::Twine(size) +
                 " bytes)");
  if (length < 0)
    length = int64_t(size - offset);
  if (uint64_t(offset) + uint64_t(length) > size)
    return error(what + ": offset " + llvm::Twine(offset) + " + length " +
                 llvm::Twine(length) + " exceeds the file size (" +
                 llvm::Twine(size) + " bytes)");
  // Only the tensor's bytes are read, straight into raw_data (whose bytes
  // the importer's blob then takes): external data files can be large.
  if (llvm::Error e = readSlice(realFile, offset, length, *t.mutable_raw_data()))
    return error(what + " cannot be read: " + llvm::toString(std::move(e)));
  t.clear_external_data();
  t.set_data_location(onnx::TensorProto::DEFAULT);
  return llvm::Error::success();
}

} // namespace lpx::onnximport
