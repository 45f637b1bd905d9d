//===- Tensors.cpp - ONNX tensors and element types -----------------------===//
#include "Tensors.h"

#include "lpx/Dialect/Graph/IR/ShapeOnly.h"
#include "lpx/Import/ShapeOnlyWeights.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Endian.h"

using namespace mlir;
using llvm::createStringError;
using llvm::inconvertibleErrorCode;
using onnx::TensorProto;

namespace lpx::onnximport {

std::string dataTypeName(int32_t onnxType) {
  if (TensorProto::DataType_IsValid(onnxType))
    return TensorProto::DataType_Name(
        static_cast<TensorProto::DataType>(onnxType));
  return "<data type " + std::to_string(onnxType) + ">";
}

llvm::Expected<Type> elementTypeOf(MLIRContext &ctx, int32_t onnxType) {
  auto sint = [&](unsigned w) { return IntegerType::get(&ctx, w); };
  auto uint = [&](unsigned w) {
    return IntegerType::get(&ctx, w, IntegerType::Unsigned);
  };
  switch (onnxType) {
  case TensorProto::FLOAT: return Float32Type::get(&ctx);
  case TensorProto::FLOAT16: return Float16Type::get(&ctx);
  case TensorProto::BFLOAT16: return BFloat16Type::get(&ctx);
  case TensorProto::DOUBLE: return Float64Type::get(&ctx);
  case TensorProto::INT8: return sint(8);
  case TensorProto::INT16: return sint(16);
  case TensorProto::INT32: return sint(32);
  case TensorProto::INT64: return sint(64);
  case TensorProto::UINT8: return uint(8);
  case TensorProto::UINT16: return uint(16);
  case TensorProto::UINT32: return uint(32);
  case TensorProto::UINT64: return uint(64);
  case TensorProto::BOOL: return sint(1);
  default:
    return createStringError(inconvertibleErrorCode(),
                             "element type " + dataTypeName(onnxType) +
                                 " is not supported");
  }
}

/// Bytes per element in the little-endian buffer; 0 for unsupported types.
static unsigned elementBytes(int32_t onnxType) {
  switch (onnxType) {
  case TensorProto::BOOL:
  case TensorProto::INT8:
  case TensorProto::UINT8: return 1;
  case TensorProto::FLOAT16:
  case TensorProto::BFLOAT16:
  case TensorProto::INT16:
  case TensorProto::UINT16: return 2;
  case TensorProto::FLOAT:
  case TensorProto::INT32:
  case TensorProto::UINT32: return 4;
  case TensorProto::DOUBLE:
  case TensorProto::INT64:
  case TensorProto::UINT64: return 8;
  default: return 0;
  }
}

int64_t product(llvm::ArrayRef<int64_t> dims) {
  int64_t p = 1;
  for (int64_t d : dims)
    if (__builtin_mul_overflow(p, d, &p))
      return kTooManyElements;
  return p;
}

std::string shapeString(llvm::ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "x" : "") + std::to_string(shape[i]);
  return s;
}

int64_t TensorBytes::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

/// Appends `v` truncated to `width` bytes, little-endian.
static void appendLE(std::string &out, uint64_t v, unsigned width) {
  for (unsigned i = 0; i < width; ++i)
    out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

llvm::Expected<TensorBytes> decodeTensor(const TensorProto &t) {
  auto fail = [&](const llvm::Twine &msg) {
    return createStringError(inconvertibleErrorCode(),
                             "tensor '" + t.name() + "': " + msg.str());
  };
  TensorBytes out;
  out.dataType = t.data_type();
  for (int64_t d : t.dims()) {
    if (d < 0)
      return fail("negative dim " + llvm::Twine(d));
    out.shape.push_back(d);
  }
  if (isShapeOnlyTensor(t))
    return fail(llvm::Twine("is shape-only (external data '") +
                kShapeOnlyLocation +
                "'): it has no values, and this use needs them");
  if (t.data_location() == TensorProto::EXTERNAL)
    return fail("external data was not loaded");
  unsigned width = elementBytes(out.dataType);
  if (width == 0)
    return fail("element type " + dataTypeName(out.dataType) +
                " is not supported");
  // Dims come from the file: a product that overflows is an error, not a
  // wrapped size.
  int64_t n = 1, bytes = 0;
  for (int64_t d : out.shape)
    if (__builtin_mul_overflow(n, d, &n))
      return fail("dims " + shapeString(out.shape) + " overflow int64");
  if (__builtin_mul_overflow(n, int64_t(width), &bytes))
    return fail("dims " + shapeString(out.shape) + " of " +
                dataTypeName(out.dataType) + " overflow int64 bytes");
  uint64_t wantBytes = uint64_t(bytes);

  auto sizeMismatch = [&](llvm::StringRef field, uint64_t have,
                          uint64_t want, llvm::StringRef unit) {
    return fail(field + " holds " + llvm::Twine(have) + " " + unit +
                " but shape " + shapeString(out.shape) + " of " +
                dataTypeName(out.dataType) + " needs " + llvm::Twine(want));
  };

  if (t.has_raw_data()) {
    if (t.raw_data().size() != wantBytes)
      return sizeMismatch("raw_data", t.raw_data().size(), wantBytes, "bytes");
    // ONNX raw_data is little-endian, as is every host we build on.
    out.borrowed = t.raw_data();
    if (out.dataType == TensorProto::BOOL) {
      // Normalise to 0/1 so the bool attribute API sees what numpy saw.
      out.owned.assign(t.raw_data());
      for (char &c : out.owned)
        c = c != 0;
      out.borrowed = llvm::StringRef();
    }
    return std::move(out);
  }

  // Reserve only once the count matches: the dims may claim terabytes.
  auto checkCount = [&](int have) -> llvm::Error {
    if (have != n)
      return sizeMismatch("the typed data field", have, n, "values");
    out.owned.reserve(wantBytes);
    return llvm::Error::success();
  };
  switch (out.dataType) {
  case TensorProto::FLOAT:
    if (auto e = checkCount(t.float_data_size()))
      return std::move(e);
    for (float f : t.float_data())
      appendLE(out.owned, llvm::bit_cast<uint32_t>(f), 4);
    break;
  case TensorProto::DOUBLE:
    if (auto e = checkCount(t.double_data_size()))
      return std::move(e);
    for (double d : t.double_data())
      appendLE(out.owned, llvm::bit_cast<uint64_t>(d), 8);
    break;
  case TensorProto::INT64:
    if (auto e = checkCount(t.int64_data_size()))
      return std::move(e);
    for (int64_t v : t.int64_data())
      appendLE(out.owned, uint64_t(v), 8);
    break;
  case TensorProto::UINT32:
  case TensorProto::UINT64:
    if (auto e = checkCount(t.uint64_data_size()))
      return std::move(e);
    for (uint64_t v : t.uint64_data())
      appendLE(out.owned, v, width);
    break;
  default:
    // INT32, INT16, INT8, UINT16, UINT8, BOOL, and the bit patterns of
    // FLOAT16 and BFLOAT16 all live in int32_data.
    if (auto e = checkCount(t.int32_data_size()))
      return std::move(e);
    for (int32_t v : t.int32_data())
      appendLE(out.owned,
               out.dataType == TensorProto::BOOL ? uint64_t(v != 0)
                                                 : uint64_t(uint32_t(v)),
               width);
    break;
  }
  return std::move(out);
}

llvm::Expected<DenseElementsAttr> toElementsAttr(MLIRContext &ctx,
                                                 const TensorBytes &t) {
  auto elt = elementTypeOf(ctx, t.dataType);
  if (!elt)
    return elt.takeError();
  auto type = RankedTensorType::get(t.shape, *elt);
  if (t.dataType == TensorProto::BOOL) {
    // i1 is bit-packed in a raw buffer; the bool API does the packing.
    SmallVector<bool> bits(t.bytes().begin(), t.bytes().end());
    return DenseElementsAttr::get(type, ArrayRef<bool>(bits));
  }
  return DenseElementsAttr::getFromRawBuffer(
      type, ArrayRef<char>(t.bytes().data(), t.bytes().size()));
}

llvm::Expected<ElementsAttr> shapeOnlyAttr(MLIRContext &ctx,
                                           const TensorProto &t) {
  auto fail = [&](const llvm::Twine &msg) {
    return createStringError(inconvertibleErrorCode(),
                             "tensor '" + t.name() + "': " + msg.str());
  };
  SmallVector<int64_t> shape;
  int64_t n = 1;
  for (int64_t d : t.dims()) {
    if (d < 0)
      return fail("negative dim " + llvm::Twine(d));
    if (__builtin_mul_overflow(n, d, &n))
      return fail("dims overflow int64");
    shape.push_back(d);
  }
  auto elt = elementTypeOf(ctx, t.data_type());
  if (!elt)
    return fail(llvm::toString(elt.takeError()));
  return graph::shapeOnlyElements(RankedTensorType::get(shape, *elt),
                                  t.name());
}

/// The ONNX data type of an element type elementTypeOf makes; 0 for others.
static int32_t onnxTypeOf(Type t) {
  if (t.isF32()) return TensorProto::FLOAT;
  if (t.isF16()) return TensorProto::FLOAT16;
  if (t.isBF16()) return TensorProto::BFLOAT16;
  if (t.isF64()) return TensorProto::DOUBLE;
  auto i = dyn_cast<IntegerType>(t);
  if (!i)
    return 0;
  bool u = i.isUnsigned();
  switch (i.getWidth()) {
  case 1: return TensorProto::BOOL;
  case 8: return u ? TensorProto::UINT8 : TensorProto::INT8;
  case 16: return u ? TensorProto::UINT16 : TensorProto::INT16;
  case 32: return u ? TensorProto::UINT32 : TensorProto::INT32;
  case 64: return u ? TensorProto::UINT64 : TensorProto::INT64;
  default: return 0;
  }
}

llvm::Expected<TensorProto> toTensorProto(DenseElementsAttr attr) {
  int32_t type = onnxTypeOf(attr.getElementType());
  unsigned width = elementBytes(type);
  if (!type || !width)
    return createStringError(inconvertibleErrorCode(),
                             "no ONNX data type for a constant of this type");
  TensorProto t;
  t.set_data_type(type);
  for (int64_t d : attr.getType().getShape())
    t.add_dims(d);
  std::string raw;
  raw.reserve(size_t(attr.getNumElements()) * width);
  if (isa<FloatType>(attr.getElementType()))
    for (const APFloat &f : attr.getValues<APFloat>())
      appendLE(raw, f.bitcastToAPInt().getZExtValue(), width);
  else
    for (const APInt &v : attr.getValues<APInt>())
      appendLE(raw, v.getZExtValue(), width);
  t.set_raw_data(std::move(raw));
  return t;
}

llvm::Expected<std::vector<int64_t>> toInt64s(const TensorBytes &t) {
  using namespace llvm::support;
  std::vector<int64_t> out;
  int64_t n = t.numElements();
  out.reserve(n);
  const char *p = t.bytes().data();
  for (int64_t i = 0; i < n; ++i) {
    switch (t.dataType) {
    case TensorProto::BOOL:
    case TensorProto::UINT8: out.push_back(uint8_t(p[i])); break;
    case TensorProto::INT8: out.push_back(int8_t(p[i])); break;
    case TensorProto::INT16:
      out.push_back(int16_t(endian::read16le(p + 2 * i)));
      break;
    case TensorProto::UINT16: out.push_back(endian::read16le(p + 2 * i)); break;
    case TensorProto::INT32:
      out.push_back(int32_t(endian::read32le(p + 4 * i)));
      break;
    case TensorProto::UINT32: out.push_back(endian::read32le(p + 4 * i)); break;
    case TensorProto::INT64:
    case TensorProto::UINT64:
      out.push_back(int64_t(endian::read64le(p + 8 * i)));
      break;
    default:
      return createStringError(inconvertibleErrorCode(),
                               "expected integers, got " +
                                   dataTypeName(t.dataType));
    }
  }
  return out;
}

} // namespace lpx::onnximport
