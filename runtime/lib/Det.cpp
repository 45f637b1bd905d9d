//===- Det.cpp - Determinants of small matrices ---------------------------===//
//
// Gaussian elimination with partial pivoting in double precision: at step k
// the row with the largest |a[i][k]| (i >= k) becomes the pivot row (a swap
// flips the sign); the determinant is the signed product of the pivots,
// rounded once on store. A zero pivot column gives 0.
//
//===----------------------------------------------------------------------===//
#include "ElementTypes.h"
#include "Kernels.h"

#include <cmath>
#include <vector>

using namespace lpx::rt;
namespace isa = lpx::isa;

llvm::Error lpx::rt::det(const View &x, const OutView &out) {
  const size_t r = x.shape.size();
  if (r < 2 || x.shape[r - 1] != x.shape[r - 2] ||
      out.shape != x.shape.drop_back(2))
    return fail("det of " + shapeStr(x.shape) + " cannot give " +
                shapeStr(out.shape));
  if (!isa::isFloat(x.dtype) || x.dtype != out.dtype)
    return fail("det needs a floating-point operand and result of its type");
  const int64_t n = x.shape[r - 1], batch = out.elements();
  return dispatchType(x.dtype, [&](auto E) -> llvm::Error {
    using Et = decltype(E);
    if constexpr (!isFloatElem<Et>) {
      return fail("det needs a floating-point type");
    } else {
      std::vector<double> a(size_t(n * n));
      for (int64_t b = 0; b < batch; ++b) {
        for (int64_t i = 0; i < n * n; ++i)
          a[i] = double(Et::load(x.data + (b * n * n + i) * Et::bytes));
        double d = 1;
        for (int64_t k = 0; k < n && d != 0; ++k) {
          int64_t p = k;
          for (int64_t i = k + 1; i < n; ++i)
            if (std::fabs(a[i * n + k]) > std::fabs(a[p * n + k]))
              p = i;
          if (a[p * n + k] == 0) {
            d = 0;
            break;
          }
          if (p != k) {
            for (int64_t j = 0; j < n; ++j)
              std::swap(a[k * n + j], a[p * n + j]);
            d = -d;
          }
          const double pivot = a[k * n + k];
          d *= pivot;
          for (int64_t i = k + 1; i < n; ++i) {
            const double f = a[i * n + k] / pivot;
            for (int64_t j = k; j < n; ++j)
              a[i * n + j] -= f * a[k * n + j];
          }
        }
        Et::store(out.data + b * Et::bytes, static_cast<typename Et::Compute>(d));
      }
      return llvm::Error::success();
    }
  });
}
