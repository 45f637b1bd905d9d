//===- TensorFile.cpp - ONNX TensorProto files ----------------------------===//
#include "lpx/runtime/TensorFile.h"
#include "Shape.h"
#include "onnx/onnx_pb.h" // defines ONNX_API, then includes onnx-ml.pb.h
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <cstring>

using namespace lpx::rt;
namespace isa = lpx::isa;
using lpx::isa::DType;

namespace {
// Appends `n` values, each converted to S and written little-endian (the
// hosts this runs on are little-endian, as is raw_data).
template <typename S, typename Field>
void appendAs(std::vector<uint8_t> &out, const Field &field) {
  size_t at = out.size();
  out.resize(at + field.size() * sizeof(S));
  for (int i = 0; i < field.size(); ++i) {
    S s = static_cast<S>(field.Get(i));
    std::memcpy(out.data() + at + i * sizeof(S), &s, sizeof(S));
  }
}
} // namespace

// ONNX keeps small integer, bool and 16-bit float types in int32_data, one
// element per entry (16-bit floats as their bit pattern).
static llvm::Error typedData(const onnx::TensorProto &tp, DType t,
                             std::vector<uint8_t> &out) {
  switch (t) {
  case DType::F32: appendAs<float>(out, tp.float_data()); break;
  case DType::F64: appendAs<double>(out, tp.double_data()); break;
  case DType::I64: appendAs<int64_t>(out, tp.int64_data()); break;
  case DType::U32: appendAs<uint32_t>(out, tp.uint64_data()); break;
  case DType::U64: appendAs<uint64_t>(out, tp.uint64_data()); break;
  case DType::I32: appendAs<int32_t>(out, tp.int32_data()); break;
  case DType::I16: appendAs<int16_t>(out, tp.int32_data()); break;
  case DType::U16:
  case DType::F16:
  case DType::BF16: appendAs<uint16_t>(out, tp.int32_data()); break;
  case DType::I8: appendAs<int8_t>(out, tp.int32_data()); break;
  case DType::U8:
  case DType::F8E4M3: // ONNX stores 8-bit floats' bit patterns in int32_data
  case DType::F8E5M2: appendAs<uint8_t>(out, tp.int32_data()); break;
  case DType::Bool:
    for (int i = 0; i < tp.int32_data_size(); ++i)
      out.push_back(tp.int32_data(i) != 0);
    break;
  case DType::Undefined:
    return fail("undefined element type");
  }
  return llvm::Error::success();
}

llvm::Expected<HostTensor> lpx::rt::parseTensorProto(llvm::StringRef bytes,
                                                     llvm::StringRef name) {
  std::string src = name.str();
  if (bytes.size() > static_cast<size_t>(INT32_MAX))
    return fail(src + ": file too large for a TensorProto");
  onnx::TensorProto tp;
  if (!tp.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    return fail(src + ": not a valid TensorProto (truncated or corrupt)");
  if (tp.data_type() == onnx::TensorProto::STRING)
    return fail(src + ": string tensors are not supported");
  auto dtype = isa::dtypeFromOnnx(tp.data_type());
  if (!dtype)
    return fail(src + ": unsupported element type " +
                llvm::Twine(tp.data_type()));
  if (tp.data_location() == onnx::TensorProto::EXTERNAL)
    return fail(src + ": external tensor data is not supported");
  if (tp.has_segment())
    return fail(src + ": segmented tensors are not supported");

  HostTensor t;
  t.name = tp.name();
  t.dtype = *dtype;
  uint64_t elems = 1;
  for (int64_t d : tp.dims()) {
    if (d < 0)
      return fail(src + ": negative dimension " + llvm::Twine(d));
    if (d != 0 && elems > (UINT64_MAX / 16) / static_cast<uint64_t>(d))
      return fail(src + ": tensor size overflows");
    elems *= static_cast<uint64_t>(d);
    t.shape.push_back(d);
  }
  const uint64_t want = elems * isa::dtypeBytes(*dtype);
  if (tp.has_raw_data()) {
    const std::string &raw = tp.raw_data();
    if (raw.size() != want)
      return fail(src + ": raw_data holds " + llvm::Twine(raw.size()) +
                  " bytes, shape " + shapeStr(t.shape) + " of " +
                  std::string(isa::dtypeName(*dtype)) + " needs " +
                  llvm::Twine(want));
    t.data.assign(raw.begin(), raw.end());
  } else {
    if (llvm::Error e = typedData(tp, *dtype, t.data))
      return fail(src + ": " + llvm::toString(std::move(e)));
    if (t.data.size() != want)
      return fail(src + ": " +
                  llvm::Twine(t.data.size() / isa::dtypeBytes(*dtype)) +
                  " elements of data for shape " + shapeStr(t.shape) + " (" +
                  llvm::Twine(elems) + " elements)");
  }
  return t;
}

llvm::Expected<HostTensor> lpx::rt::readTensorProto(llvm::StringRef path) {
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file)
    return fail("cannot read '" + path + "': " + file.getError().message());
  return parseTensorProto((*file)->getBuffer(), path);
}

llvm::Error lpx::rt::writeTensorProto(const HostTensor &t,
                                      llvm::StringRef path) {
  unsigned width = isa::dtypeBytes(t.dtype);
  if (width == 0)
    return fail("cannot write '" + path + "': unsupported element type");
  for (int64_t d : t.shape)
    if (d < 0)
      return fail("cannot write '" + path + "': negative dimension");
  if (t.data.size() != t.elements() * width)
    return fail("cannot write '" + path + "': " + llvm::Twine(t.data.size()) +
                " bytes of data for shape " + shapeStr(t.shape));
  onnx::TensorProto tp;
  tp.set_name(t.name);
  tp.set_data_type(static_cast<int32_t>(t.dtype));
  for (int64_t d : t.shape)
    tp.add_dims(d);
  tp.set_raw_data(t.data.data(), t.data.size());
  std::string bytes;
  if (!tp.SerializeToString(&bytes))
    return fail("cannot write '" + path + "': serialization failed");

  llvm::SmallString<256> tmp(path);
  tmp += ".tmp";
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(tmp, ec);
    if (ec)
      return fail("cannot write '" + path + "': " + ec.message());
    os << bytes;
    os.close();
    if (os.has_error()) {
      os.clear_error();
      llvm::sys::fs::remove(tmp);
      return fail("cannot write '" + path + "'");
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(tmp, path)) {
    llvm::sys::fs::remove(tmp);
    return fail("cannot write '" + path + "': " + ec.message());
  }
  return llvm::Error::success();
}

llvm::Expected<std::vector<HostTensor>>
lpx::rt::readTestDataDir(llvm::StringRef dir, llvm::StringRef prefix) {
  if (!llvm::sys::fs::is_directory(dir))
    return fail("'" + dir + "' is not a directory");
  std::vector<HostTensor> out;
  for (unsigned i = 0;; ++i) {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, prefix + "_" + llvm::Twine(i) + ".pb");
    if (!llvm::sys::fs::exists(path))
      break;
    auto t = readTensorProto(path);
    if (!t)
      return t.takeError();
    out.push_back(std::move(*t));
  }
  return out;
}

llvm::Error lpx::rt::writeTestDataDir(llvm::StringRef dir,
                                      llvm::StringRef prefix,
                                      const std::vector<HostTensor> &tensors) {
  for (size_t i = 0; i < tensors.size(); ++i) {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, prefix + "_" + llvm::Twine(i) + ".pb");
    if (auto e = writeTensorProto(tensors[i], path))
      return e;
  }
  return llvm::Error::success();
}
