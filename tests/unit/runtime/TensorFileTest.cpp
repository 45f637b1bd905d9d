//===- TensorFileTest.cpp - TensorProto reading and writing ---------------===//
#include "lpx/runtime/TensorFile.h"
#include "TestProgram.h"
#include "onnx/onnx_pb.h" // defines ONNX_API, then includes onnx-ml.pb.h
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace lpx::rt::test;

namespace {
const std::string kData = LPX_ONNX_TESTDATA;

std::string nodeFile(const std::string &test, const std::string &file) {
  return kData + "/node/" + test + "/test_data_set_0/" + file;
}

// A fresh temporary directory, removed with its files at scope exit.
struct TempDir {
  llvm::SmallString<128> path;
  TempDir() {
    std::error_code ec =
        llvm::sys::fs::createUniqueDirectory("lpx-runtime-test", path);
    EXPECT_FALSE(ec) << ec.message();
  }
  ~TempDir() { llvm::sys::fs::remove_directories(path); }
  std::string file(const std::string &name) const {
    llvm::SmallString<128> p(path);
    llvm::sys::path::append(p, name);
    return std::string(p);
  }
};

void writeBytes(const std::string &path, llvm::StringRef bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  ASSERT_FALSE(ec) << ec.message();
  os << bytes;
}

std::string errorOf(llvm::Expected<HostTensor> r) {
  if (r)
    return "";
  return llvm::toString(r.takeError());
}

std::string serialized(const onnx::TensorProto &tp) {
  std::string s;
  tp.SerializeToString(&s);
  return s;
}
} // namespace

TEST(TensorFile, ReadsOnnxTestData) {
  auto t = readTensorProto(nodeFile("test_add", "input_0.pb"));
  ASSERT_TRUE(bool(t)) << llvm::toString(t.takeError());
  EXPECT_EQ(t->dtype, DType::F32);
  EXPECT_EQ(t->shape, (std::vector<int64_t>{3, 4, 5}));
  EXPECT_EQ(t->data.size(), 3u * 4 * 5 * 4);
}

TEST(TensorFile, ReadsInputsAndOutputsOfATestDirectory) {
  std::string dir = kData + "/node/test_add/test_data_set_0";
  auto in = readTestDataDir(dir, "input");
  ASSERT_TRUE(bool(in)) << llvm::toString(in.takeError());
  ASSERT_EQ(in->size(), 2u);
  auto out = readTestDataDir(dir, "output");
  ASSERT_TRUE(bool(out)) << llvm::toString(out.takeError());
  ASSERT_EQ(out->size(), 1u);
  // output = input_0 + input_1, element by element.
  auto a = valuesOf<float>((*in)[0].data), b = valuesOf<float>((*in)[1].data),
       c = valuesOf<float>((*out)[0].data);
  ASSERT_EQ(c.size(), 60u);
  for (size_t i = 0; i < c.size(); ++i)
    EXPECT_FLOAT_EQ(c[i], a[i] + b[i]);
  auto none = readTestDataDir(kData + "/no/such/dir", "input");
  EXPECT_FALSE(bool(none));
  llvm::consumeError(none.takeError());
}

TEST(TensorFile, TruncatedOrGarbageFileIsAnError) {
  auto whole = llvm::MemoryBuffer::getFile(nodeFile("test_add", "input_0.pb"));
  ASSERT_TRUE(bool(whole));
  llvm::StringRef bytes = (*whole)->getBuffer();
  TempDir tmp;
  std::string half = tmp.file("half.pb");
  writeBytes(half, bytes.take_front(bytes.size() / 2));
  std::string err = errorOf(readTensorProto(half));
  EXPECT_NE(err, "");
  EXPECT_NE(err.find("half.pb"), std::string::npos) << err;

  std::string garbage = tmp.file("garbage.pb");
  writeBytes(garbage, "\xff\xff\xff\xff this is not a tensor");
  EXPECT_NE(errorOf(readTensorProto(garbage)), "");
  EXPECT_NE(errorOf(readTensorProto(tmp.file("missing.pb"))), "");
}

TEST(TensorFile, TypedFields) {
  onnx::TensorProto f;
  f.set_data_type(onnx::TensorProto::FLOAT);
  f.add_dims(2);
  f.add_float_data(1.5f);
  f.add_float_data(-2.0f);
  auto tf = parseTensorProto(serialized(f), "f");
  ASSERT_TRUE(bool(tf)) << llvm::toString(tf.takeError());
  EXPECT_EQ(valuesOf<float>(tf->data), (std::vector<float>{1.5f, -2.0f}));

  // int32_data carries int8, bool and f16 (as bit patterns), one per entry.
  onnx::TensorProto i8;
  i8.set_data_type(onnx::TensorProto::INT8);
  i8.add_dims(3);
  for (int v : {-128, 0, 127})
    i8.add_int32_data(v);
  auto ti8 = parseTensorProto(serialized(i8), "i8");
  ASSERT_TRUE(bool(ti8)) << llvm::toString(ti8.takeError());
  EXPECT_EQ(valuesOf<int8_t>(ti8->data), (std::vector<int8_t>{-128, 0, 127}));

  onnx::TensorProto h;
  h.set_data_type(onnx::TensorProto::FLOAT16);
  h.add_dims(1);
  h.add_dims(2);
  h.add_int32_data(0x3C00);
  h.add_int32_data(0xC000);
  auto th = parseTensorProto(serialized(h), "h");
  ASSERT_TRUE(bool(th)) << llvm::toString(th.takeError());
  EXPECT_EQ(th->dtype, DType::F16);
  EXPECT_EQ(valuesOf<uint16_t>(th->data), (std::vector<uint16_t>{0x3C00, 0xC000}));

  onnx::TensorProto bl;
  bl.set_data_type(onnx::TensorProto::BOOL);
  bl.add_dims(2);
  bl.add_int32_data(1);
  bl.add_int32_data(0);
  auto tb = parseTensorProto(serialized(bl), "b");
  ASSERT_TRUE(bool(tb)) << llvm::toString(tb.takeError());
  EXPECT_EQ(tb->data, (std::vector<uint8_t>{1, 0}));

  onnx::TensorProto i64;
  i64.set_data_type(onnx::TensorProto::INT64);
  i64.add_int64_data(-5); // a scalar: no dims, one element
  auto ti64 = parseTensorProto(serialized(i64), "i64");
  ASSERT_TRUE(bool(ti64)) << llvm::toString(ti64.takeError());
  EXPECT_TRUE(ti64->shape.empty());
  EXPECT_EQ(valuesOf<int64_t>(ti64->data), (std::vector<int64_t>{-5}));

  onnx::TensorProto u32;
  u32.set_data_type(onnx::TensorProto::UINT32);
  u32.add_dims(1);
  u32.add_uint64_data(4000000000u);
  auto tu32 = parseTensorProto(serialized(u32), "u32");
  ASSERT_TRUE(bool(tu32)) << llvm::toString(tu32.takeError());
  EXPECT_EQ(valuesOf<uint32_t>(tu32->data), (std::vector<uint32_t>{4000000000u}));

  onnx::TensorProto d;
  d.set_data_type(onnx::TensorProto::DOUBLE);
  d.add_dims(1);
  d.add_double_data(0.1);
  auto td = parseTensorProto(serialized(d), "d");
  ASSERT_TRUE(bool(td)) << llvm::toString(td.takeError());
  EXPECT_EQ(valuesOf<double>(td->data), (std::vector<double>{0.1}));
}

TEST(TensorFile, RejectsStringsNegativeDimsAndSizeMismatch) {
  onnx::TensorProto s;
  s.set_data_type(onnx::TensorProto::STRING);
  s.add_dims(1);
  s.add_string_data("hi");
  EXPECT_NE(errorOf(parseTensorProto(serialized(s), "s")).find("string"),
            std::string::npos);

  onnx::TensorProto neg;
  neg.set_data_type(onnx::TensorProto::FLOAT);
  neg.add_dims(-2);
  EXPECT_NE(errorOf(parseTensorProto(serialized(neg), "n")).find("negative"),
            std::string::npos);

  onnx::TensorProto raw;
  raw.set_data_type(onnx::TensorProto::FLOAT);
  raw.add_dims(3);
  raw.set_raw_data(std::string(8, '\0'));
  std::string err = errorOf(parseTensorProto(serialized(raw), "raw"));
  EXPECT_NE(err.find("raw_data holds 8 bytes"), std::string::npos) << err;

  onnx::TensorProto typed;
  typed.set_data_type(onnx::TensorProto::FLOAT);
  typed.add_dims(3);
  typed.add_float_data(1);
  err = errorOf(parseTensorProto(serialized(typed), "typed"));
  EXPECT_NE(err.find("1 elements of data for shape [3]"), std::string::npos)
      << err;

  onnx::TensorProto none; // data_type 0
  EXPECT_NE(errorOf(parseTensorProto(serialized(none), "none")), "");
}

TEST(TensorFile, WriteThenReadRoundTrips) {
  TempDir tmp;
  HostTensor t = tensor<int16_t>("x", DType::I16, {2, 2}, {1, -2, 3, -4});
  std::string path = tmp.file("x.pb");
  ASSERT_FALSE(bool(writeTensorProto(t, path)));
  EXPECT_FALSE(llvm::sys::fs::exists(path + ".tmp"));
  auto back = readTensorProto(path);
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(back->name, "x");
  EXPECT_EQ(back->dtype, DType::I16);
  EXPECT_EQ(back->shape, t.shape);
  EXPECT_EQ(back->data, t.data);

  HostTensor bad = t;
  bad.data.pop_back();
  llvm::Error e = writeTensorProto(bad, tmp.file("bad.pb"));
  EXPECT_TRUE(bool(e));
  llvm::consumeError(std::move(e));
  EXPECT_FALSE(llvm::sys::fs::exists(tmp.file("bad.pb")));
}

TEST(TensorFile, AWrittenTestDirectoryReadsBackInOrder) {
  TempDir tmp;
  std::vector<HostTensor> outs = {
      tensor<int16_t>("a", DType::I16, {2}, {1, -2}),
      tensor<int16_t>("b", DType::I16, {1}, {7})};
  ASSERT_FALSE(bool(writeTestDataDir(tmp.path, "output", outs)));
  EXPECT_TRUE(llvm::sys::fs::exists(tmp.file("output_1.pb")));
  auto back = readTestDataDir(tmp.path, "output");
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  ASSERT_EQ(back->size(), 2u);
  EXPECT_EQ((*back)[0].name, "a");
  EXPECT_EQ((*back)[1].data, outs[1].data);
}
