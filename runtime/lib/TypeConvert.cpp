//===- TypeConvert.cpp - Cast between element types -----------------------===//
//
// Goes through the compute types (float for f16/bf16), so f32 -> f16 rounds to
// nearest even once; see convertValue for the float -> integer rules.
//
//===----------------------------------------------------------------------===//
#include "ElementTypes.h"
#include "Kernels.h"
#include "lpx/isa/Timing.h"
#include "lpx/runtime/HostTensor.h"

using namespace lpx::rt;
namespace isa = lpx::isa;

llvm::Error lpx::rt::cast(const View &x, const OutView &out) {
  if (x.elements() != out.elements())
    return fail("cast of " + shapeStr(x.shape) + " to " + shapeStr(out.shape) +
                " changes the element count");
  const int64_t n = x.elements();
  return dispatchType(x.dtype, [&](auto From) -> llvm::Error {
    using Ef = decltype(From);
    return dispatchType(out.dtype, [&](auto To) -> llvm::Error {
      using Et = decltype(To);
      for (int64_t i = 0; i < n; ++i)
        Et::store(out.data + i * Et::bytes,
                  convertValue<typename Et::Compute>(
                      Ef::load(x.data + i * Ef::bytes)));
      return llvm::Error::success();
    });
  });
}

llvm::Expected<HostTensor> lpx::rt::convertTensor(const HostTensor &t,
                                                 isa::DType to) {
  if (t.data.size() != isa::TensorDesc{t.dtype, t.shape}.bytes())
    return fail("'" + t.name + "' holds " + llvm::Twine(t.data.size()) +
                " bytes, not " + shapeStr(t.shape) + " of its type");
  HostTensor out{t.name, to, t.shape, {}};
  out.data.assign(isa::TensorDesc{to, t.shape}.bytes(), 0);
  if (llvm::Error e = cast(View{t.dtype, t.shape, t.data.data()},
                           OutView{to, out.shape, out.data.data()}))
    return std::move(e);
  return out;
}
