//===- Conv.cpp - Convolution, transposed convolution and pooling ---------===//
//
// [N, C, spatial...] tensors with any number of spatial dims. Convolution is
// im2col + an Eigen matrix product: f64 accumulates in double, the other
// floating types in float, rounded once on store; pooling and transposed
// convolution are direct loops in double. Integer convolution (int32
// operands, or int8 operands with an int32 result: the matrix unit's integer
// mode) accumulates with wrapping arithmetic in the result's width, like
// integer matmul.
// Attribute layouts are those of Opcodes.def.
//
//===----------------------------------------------------------------------===//
#include "ElementTypes.h"
#include "Kernels.h"
#include <Eigen/Core>

using namespace lpx::rt;
namespace isa = lpx::isa;

namespace {
/// Every element of a view as T (any numeric type); a view already stored
/// as T is copied whole.
template <typename T>
llvm::Expected<std::vector<T>> loadAs(const View &v, const char *what) {
  std::vector<T> out;
  llvm::Error e = dispatchNumericType(what, v.dtype, [&](auto E) -> llvm::Error {
    using Et = decltype(E);
    out.resize(static_cast<size_t>(v.elements()));
    if constexpr (std::is_same_v<typename Et::Storage, T>)
      std::memcpy(out.data(), v.data, out.size() * sizeof(T));
    else
      for (size_t i = 0; i < out.size(); ++i)
        out[i] = static_cast<T>(Et::load(v.data + i * Et::bytes));
    return llvm::Error::success();
  });
  if (e)
    return std::move(e);
  return out;
}

/// Every element of an integer view as uint64 (two's complement), so that
/// sums and products wrap instead of overflowing.
std::vector<uint64_t> loadWrapping(const View &v) {
  std::vector<uint64_t> out;
  llvm::consumeError(dispatchType(v.dtype, [&](auto E) -> llvm::Error {
    using Et = decltype(E);
    if constexpr (std::is_integral_v<typename Et::Compute>) {
      out.reserve(static_cast<size_t>(v.elements()));
      for (int64_t i = 0, n = v.elements(); i < n; ++i)
        out.push_back(static_cast<uint64_t>(
            static_cast<int64_t>(Et::load(v.data + i * Et::bytes))));
    }
    return llvm::Error::success();
  }));
  return out;
}

/// Stores wrapped sums, truncated to the integer result's width.
llvm::Error storeWrapping(const std::vector<uint64_t> &v, const OutView &out) {
  return dispatchType(out.dtype, [&](auto E) -> llvm::Error {
    using Et = decltype(E);
    using C = typename Et::Compute;
    if constexpr (std::is_integral_v<C> && !std::is_same_v<C, bool>) {
      using U = std::make_unsigned_t<C>;
      for (size_t i = 0; i < v.size(); ++i)
        Et::store(out.data + i * Et::bytes,
                  static_cast<C>(static_cast<U>(v[i])));
      return llvm::Error::success();
    } else {
      return fail("integer conv needs an integer result");
    }
  });
}

template <typename T>
llvm::Error storeAs(const std::vector<T> &v, const OutView &out) {
  return dispatchType(out.dtype, [&](auto E) -> llvm::Error {
    using Et = decltype(E);
    using C = typename Et::Compute;
    if constexpr (std::is_same_v<typename Et::Storage, T>)
      std::memcpy(out.data, v.data(), v.size() * sizeof(T));
    else
      for (size_t i = 0; i < v.size(); ++i)
        Et::store(out.data + i * Et::bytes, static_cast<C>(v[i]));
    return llvm::Error::success();
  });
}

/// Row-major multi-index of `flat` in `shape`.
void decode(int64_t flat, llvm::ArrayRef<int64_t> shape, int64_t *idx) {
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    idx[d] = shape[d] ? flat % shape[d] : 0;
    flat = shape[d] ? flat / shape[d] : 0;
  }
}

struct Window {
  llvm::ArrayRef<int64_t> in, kernel, strides, dilations, padLo, padHi;
};

/// Checks a [N, C, spatial...] result against the floor / ceil window count.
llvm::Error checkExtents(const char *what, const Window &w,
                         llvm::ArrayRef<int64_t> outSp, bool allowCeil) {
  for (size_t d = 0; d < w.in.size(); ++d) {
    if (w.strides[d] < 1 || w.dilations[d] < 1 || w.kernel[d] < 1)
      return fail(llvm::Twine(what) +
                  ": kernel, strides and dilations must be positive");
    int64_t span = w.dilations[d] * (w.kernel[d] - 1) + 1;
    int64_t room = w.in[d] + w.padLo[d] + w.padHi[d] - span;
    int64_t floor = room < 0 ? -1 : room / w.strides[d] + 1;
    if (floor < 0 ||
        (outSp[d] != floor && !(allowCeil && outSp[d] == floor + 1)))
      return fail(llvm::Twine(what) + ": result spatial dim " +
                  llvm::Twine(d) + " is " + llvm::Twine(outSp[d]) +
                  ", expected " + llvm::Twine(floor));
  }
  return llvm::Error::success();
}
} // namespace

namespace {
/// Input offset (within one channel plane) that every (kernel tap, result
/// position) pair reads, or -1 where the tap falls in the padding.
std::vector<int64_t> tapOffsets(const Window &win,
                                llvm::ArrayRef<int64_t> outSp) {
  const int64_t s = static_cast<int64_t>(win.in.size());
  const int64_t kVol = product(win.kernel), outVol = product(outSp);
  std::vector<int64_t> offsets(static_cast<size_t>(kVol * outVol));
  std::vector<int64_t> oi(s), ki(s);
  for (int64_t kp = 0; kp < kVol; ++kp) {
    decode(kp, win.kernel, ki.data());
    for (int64_t op = 0; op < outVol; ++op) {
      decode(op, outSp, oi.data());
      int64_t flat = 0;
      bool inside = true;
      for (int64_t d = 0; d < s && inside; ++d) {
        int64_t p = oi[d] * win.strides[d] - win.padLo[d] +
                    ki[d] * win.dilations[d];
        inside = p >= 0 && p < win.in[d];
        flat = flat * win.in[d] + p;
      }
      offsets[kp * outVol + op] = inside ? flat : -1;
    }
  }
  return offsets;
}

/// A 1x1 kernel with unit strides and no padding reads the input as it is.
bool readsInputDirectly(const Window &win) {
  for (size_t d = 0; d < win.in.size(); ++d)
    if (win.kernel[d] != 1 || win.strides[d] != 1 || win.padLo[d] != 0 ||
        win.padHi[d] != 0)
      return false;
  return true;
}

/// The convolution proper as im2col + one Eigen matrix product per image and
/// group: [Mg, Cg*kVol] weights times [Cg*kVol, outVol] gathered input
/// columns, written over `res` ([N, M, outVol]). T is the accumulation type
/// (float, double, or uint64 that wraps); `b` may be null.
template <typename T>
void convolve(const T *x, const T *w, const T *b, T *res, const Window &win,
              llvm::ArrayRef<int64_t> outSp, int64_t N, int64_t C, int64_t M,
              int64_t group) {
  using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const int64_t inVol = product(win.in), kVol = product(win.kernel),
                outVol = product(outSp);
  const int64_t Cg = C / group, Mg = M / group, rows = Cg * kVol;
  const bool direct = readsInputDirectly(win);
  std::vector<int64_t> taps;
  // Reused across calls: a fresh multi-megabyte buffer per convolution
  // costs more in page faults than the gather itself.
  static thread_local std::vector<T> col;
  if (!direct) {
    taps = tapOffsets(win, outSp);
    col.resize(static_cast<size_t>(rows * outVol));
  }
  for (int64_t n = 0; n < N; ++n)
    for (int64_t g = 0; g < group; ++g) {
      const T *xg = x + (n * C + g * Cg) * inVol;
      if (!direct)
        for (int64_t c = 0; c < Cg; ++c)
          for (int64_t kp = 0; kp < kVol; ++kp) {
            const int64_t *tap = taps.data() + kp * outVol;
            T *dst = col.data() + (c * kVol + kp) * outVol;
            const T *plane = xg + c * inVol;
            for (int64_t op = 0; op < outVol; ++op)
              dst[op] = tap[op] < 0 ? T(0) : plane[tap[op]];
          }
      Eigen::Map<const Mat> wg(w + g * Mg * rows, Mg, rows);
      Eigen::Map<const Mat> xcol(direct ? xg : col.data(), rows, outVol);
      Eigen::Map<Mat> r(res + (n * M + g * Mg) * outVol, Mg, outVol);
      r.noalias() = wg * xcol;
      if (b)
        r.colwise() += Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, 1>>(
            b + g * Mg, Mg);
    }
}

template <typename T> bool isAlignedFor(const uint8_t *p) {
  return reinterpret_cast<uintptr_t>(p) % alignof(T) == 0;
}

/// The elements of `v` as T: in place when stored as T at T's alignment,
/// otherwise converted into `copy`.
template <typename T>
llvm::Expected<const T *> elementsAs(const View &v, std::vector<T> &copy,
                                     const char *what) {
  if (v.dtype == isa::DType::F32 && std::is_same_v<T, float> &&
      isAlignedFor<T>(v.data))
    return reinterpret_cast<const T *>(v.data);
  if constexpr (std::is_same_v<T, float>)
    if (v.widened) // a reduced-format constant, widened at load
      return v.widened;
  if (v.dtype == isa::DType::F64 && std::is_same_v<T, double> &&
      isAlignedFor<T>(v.data))
    return reinterpret_cast<const T *>(v.data);
  auto loaded = loadAs<T>(v, what);
  if (!loaded)
    return loaded.takeError();
  copy = std::move(*loaded);
  return copy.data();
}

/// True when every list holds one entry per spatial dimension.
template <typename... Lists> bool perSpatialDim(int64_t s, const Lists &...l) {
  return ((int64_t(l.size()) == s) && ...);
}

/// The number of spatial dimensions of a conv-family instruction: input,
/// weight and result of one rank, at least 3 (batch, channels, spatial).
llvm::Expected<int64_t> spatialDims(const char *op, const View &x,
                                    const View &w, const OutView &out) {
  const int64_t rank = static_cast<int64_t>(out.shape.size());
  if (rank < 3 || int64_t(x.shape.size()) != rank ||
      int64_t(w.shape.size()) != rank)
    return fail(llvm::Twine(op) +
                ": input, weight and result need the same rank >= 3");
  return rank - 2;
}
} // namespace

llvm::Error lpx::rt::conv(llvm::ArrayRef<View> in,
                          const isa::pb::ConvAttrs &attrs,
                          const OutView &out) {
  const View &x = in[0], &w = in[1];
  auto spatial = spatialDims("conv", x, w, out);
  if (!spatial)
    return spatial.takeError();
  const int64_t s = *spatial;
  if (!perSpatialDim(s, attrs.strides(), attrs.dilations(), attrs.pads_begin(),
                     attrs.pads_end()))
    return fail("conv needs strides, dilations and pads per spatial "
                "dimension");
  // Floating-point convolution in one type; integer convolution in int32,
  // or int8 operands into an int32 result (a bias is then int32 too).
  const bool int8Acc32 = out.dtype == isa::DType::I32 &&
                         x.dtype == isa::DType::I8 &&
                         w.dtype == isa::DType::I8;
  const bool integer = out.dtype == isa::DType::I32;
  if (!isa::isFloat(out.dtype) && !integer)
    return fail("conv needs a floating-point or int32 result");
  for (size_t i = 0; i < in.size(); ++i) {
    bool factor = i < 2;
    if (auto e = expectType("operand", in[i].dtype,
                            factor && int8Acc32 ? isa::DType::I8 : out.dtype))
      return e;
  }
  const int64_t group = attrs.group();
  const int64_t N = x.shape[0], C = x.shape[1], M = w.shape[0];
  if (group < 1 || w.shape[1] * group != C || M % group || out.shape[0] != N ||
      out.shape[1] != M)
    return fail("conv of " + shapeStr(x.shape) + " by " + shapeStr(w.shape) +
                " with group " + llvm::Twine(group) + " cannot give " +
                shapeStr(out.shape));
  if (in.size() == 3 && (in[2].shape.size() != 1 || in[2].shape[0] != M))
    return fail("conv bias must be [" + llvm::Twine(M) + "]");
  Window win{x.shape.drop_front(2),       w.shape.drop_front(2),
             arrayOf(attrs.strides()),    arrayOf(attrs.dilations()),
             arrayOf(attrs.pads_begin()), arrayOf(attrs.pads_end())};
  llvm::ArrayRef<int64_t> outSp = out.shape.drop_front(2);
  if (auto e = checkExtents("conv", win, outSp, /*allowCeil=*/false))
    return e;
  if (integer) {
    std::vector<uint64_t> vb;
    if (in.size() == 3)
      vb = loadWrapping(in[2]);
    std::vector<uint64_t> res(static_cast<size_t>(out.elements()));
    convolve(loadWrapping(x).data(), loadWrapping(w).data(),
             vb.empty() ? nullptr : vb.data(), res.data(), win, outSp, N, C, M,
             group);
    return storeWrapping(res, out);
  }
  // f64 accumulates in double, the other float types in float (f16, bf16
  // and fp8 results round once on store). f32 and f64 operands and results
  // are used where they are.
  auto floating = [&](auto zero) -> llvm::Error {
    using T = decltype(zero);
    std::vector<T> cx, cw, cb, res;
    auto px = elementsAs<T>(x, cx, "conv");
    if (!px) return px.takeError();
    auto pw = elementsAs<T>(w, cw, "conv");
    if (!pw) return pw.takeError();
    const T *pb = nullptr;
    if (in.size() == 3) {
      auto b = elementsAs<T>(in[2], cb, "conv");
      if (!b) return b.takeError();
      pb = *b;
    }
    const bool inPlace = out.dtype == (std::is_same_v<T, float>
                                           ? isa::DType::F32
                                           : isa::DType::F64) &&
                         isAlignedFor<T>(out.data);
    if (!inPlace)
      res.resize(static_cast<size_t>(out.elements()));
    T *pr = inPlace ? reinterpret_cast<T *>(out.data) : res.data();
    convolve(*px, *pw, pb, pr, win, outSp, N, C, M, group);
    return inPlace ? llvm::Error::success() : storeAs(res, out);
  };
  return out.dtype == isa::DType::F64 ? floating(0.0) : floating(0.0f);
}

llvm::Error lpx::rt::convTranspose(llvm::ArrayRef<View> in,
                                   const isa::pb::ConvAttrs &attrs,
                                   const OutView &out) {
  const View &x = in[0], &w = in[1];
  auto spatial = spatialDims("conv_transpose", x, w, out);
  if (!spatial)
    return spatial.takeError();
  const int64_t s = *spatial;
  if (!perSpatialDim(s, attrs.strides(), attrs.dilations(), attrs.pads_begin(),
                     attrs.pads_end(), attrs.output_padding()))
    return fail("conv_transpose needs strides, dilations, pads and "
                "output_padding per spatial dimension");
  if (!isa::isFloat(out.dtype))
    return fail("conv_transpose needs a floating-point result");
  for (const View &v : in)
    if (auto e = expectType("operand", v.dtype, out.dtype))
      return e;
  const int64_t group = attrs.group();
  const int64_t N = x.shape[0], C = x.shape[1];
  if (group < 1 || w.shape[0] != C || C % group)
    return fail("conv_transpose of " + shapeStr(x.shape) + " by " +
                shapeStr(w.shape) + " with group " + llvm::Twine(group) +
                ": the weight must be [C, M/group, kernel...]");
  const int64_t Cg = C / group, Mg = w.shape[1], M = Mg * group;
  if (out.shape[0] != N || out.shape[1] != M)
    return fail("conv_transpose of " + shapeStr(x.shape) + " by " +
                shapeStr(w.shape) + " with group " + llvm::Twine(group) +
                " cannot give " + shapeStr(out.shape));
  if (in.size() == 3 && (in[2].shape.size() != 1 || in[2].shape[0] != M))
    return fail("conv_transpose bias must be [" + llvm::Twine(M) + "]");
  llvm::ArrayRef<int64_t> inSp = x.shape.drop_front(2),
                          kernel = w.shape.drop_front(2),
                          strides = arrayOf(attrs.strides()),
                          dilations = arrayOf(attrs.dilations()),
                          padLo = arrayOf(attrs.pads_begin()),
                          padHi = arrayOf(attrs.pads_end()),
                          outPad = arrayOf(attrs.output_padding());
  llvm::ArrayRef<int64_t> outSp = out.shape.drop_front(2);
  for (int64_t d = 0; d < s; ++d) {
    if (strides[d] < 1 || dilations[d] < 1)
      return fail("conv_transpose: strides and dilations must be positive");
    int64_t want = strides[d] * (inSp[d] - 1) +
                   dilations[d] * (kernel[d] - 1) + 1 + outPad[d] - padLo[d] -
                   padHi[d];
    if (outSp[d] != want)
      return fail("conv_transpose: result spatial dim " + llvm::Twine(d) +
                  " is " + llvm::Twine(outSp[d]) + ", expected " +
                  llvm::Twine(want));
  }
  auto vx = loadAs<double>(x, "conv_transpose");
  if (!vx) return vx.takeError();
  auto vw = loadAs<double>(w, "conv_transpose");
  if (!vw) return vw.takeError();
  std::vector<double> vb(static_cast<size_t>(M), 0.0);
  if (in.size() == 3) {
    auto b = loadAs<double>(in[2], "conv_transpose");
    if (!b) return b.takeError();
    vb = *b;
  }
  const int64_t inVol = product(inSp), kVol = product(kernel),
                outVol = product(outSp);
  std::vector<double> res(static_cast<size_t>(out.elements()));
  for (int64_t n = 0; n < N; ++n)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t op = 0; op < outVol; ++op)
        res[(n * M + m) * outVol + op] = vb[m];
  // Scatter form: every (input position, kernel tap) pair lands on one
  // result position, or outside the result.
  std::vector<int64_t> ii(s), ki(s);
  for (int64_t ip = 0; ip < inVol; ++ip) {
    decode(ip, inSp, ii.data());
    for (int64_t kp = 0; kp < kVol; ++kp) {
      decode(kp, kernel, ki.data());
      int64_t flat = 0;
      bool inside = true;
      for (int64_t d = 0; d < s && inside; ++d) {
        int64_t p = ii[d] * strides[d] + ki[d] * dilations[d] - padLo[d];
        inside = p >= 0 && p < outSp[d];
        flat = flat * outSp[d] + p;
      }
      if (!inside)
        continue;
      for (int64_t n = 0; n < N; ++n)
        for (int64_t m = 0; m < M; ++m) {
          const int64_t g = m / Mg, mg = m % Mg;
          double acc = 0;
          for (int64_t c = 0; c < Cg; ++c)
            acc += (*vx)[((n * C + g * Cg + c) * inVol) + ip] *
                   (*vw)[(((g * Cg + c) * Mg + mg) * kVol) + kp];
          res[(n * M + m) * outVol + flat] += acc;
        }
    }
  }
  return storeAs(res, out);
}

llvm::Error lpx::rt::pool(const View &x, const isa::pb::PoolAttrs &attrs,
                          const OutView &out) {
  const int64_t rank = static_cast<int64_t>(out.shape.size()), s = rank - 2;
  if (s < 1 || int64_t(x.shape.size()) != rank)
    return fail("pool: input and result need the same rank >= 3");
  if (!perSpatialDim(s, attrs.kernel(), attrs.strides(), attrs.dilations(),
                     attrs.pads_begin(), attrs.pads_end()))
    return fail("pool needs kernel, strides, dilations and pads per spatial "
                "dimension");
  if (auto e = expectType("operand", x.dtype, out.dtype))
    return e;
  const bool average = attrs.kind() == isa::pb::POOL_AVG;
  const bool includePad = attrs.count_include_pad();
  if (average && !isa::isFloat(out.dtype))
    return fail("average pooling needs a floating-point type");
  if (out.shape[0] != x.shape[0] || out.shape[1] != x.shape[1])
    return fail("pool of " + shapeStr(x.shape) + " cannot give " +
                shapeStr(out.shape));
  Window win{x.shape.drop_front(2),       arrayOf(attrs.kernel()),
             arrayOf(attrs.strides()),    arrayOf(attrs.dilations()),
             arrayOf(attrs.pads_begin()), arrayOf(attrs.pads_end())};
  llvm::ArrayRef<int64_t> outSp = out.shape.drop_front(2);
  if (auto e = checkExtents("pool", win, outSp, /*allowCeil=*/true))
    return e;
  auto vx = loadAs<double>(x, "pool");
  if (!vx) return vx.takeError();
  const int64_t planes = x.shape[0] * x.shape[1];
  const int64_t inVol = product(win.in), kVol = product(win.kernel),
                outVol = product(outSp);
  std::vector<double> res(static_cast<size_t>(out.elements()));
  std::vector<int64_t> oi(s), ki(s);
  for (int64_t op = 0; op < outVol; ++op) {
    decode(op, outSp, oi.data());
    // Input offsets of the window's real elements, and how many positions
    // fall in the padded input (for count_include_pad).
    std::vector<int64_t> offsets;
    int64_t padded = 0;
    for (int64_t kp = 0; kp < kVol; ++kp) {
      decode(kp, win.kernel, ki.data());
      int64_t flat = 0;
      bool inside = true, inPadded = true;
      for (int64_t d = 0; d < s; ++d) {
        int64_t p = oi[d] * win.strides[d] - win.padLo[d] +
                    ki[d] * win.dilations[d];
        inside = inside && p >= 0 && p < win.in[d];
        inPadded = inPadded && p >= -win.padLo[d] &&
                   p < win.in[d] + win.padHi[d];
        flat = flat * win.in[d] + p;
      }
      padded += inPadded;
      if (inside)
        offsets.push_back(flat);
    }
    for (int64_t pl = 0; pl < planes; ++pl) {
      const double *src = vx->data() + pl * inVol;
      double v;
      if (average) {
        double sum = 0;
        for (int64_t f : offsets)
          sum += src[f];
        int64_t count = includePad ? padded : int64_t(offsets.size());
        v = count ? sum / double(count) : 0.0;
      } else {
        v = -std::numeric_limits<double>::infinity();
        for (int64_t f : offsets)
          v = std::max(v, src[f]);
      }
      res[pl * outVol + op] = v;
    }
  }
  return storeAs(res, out);
}
