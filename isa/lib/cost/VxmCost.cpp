//===- VxmCost.cpp - Cost of vector-unit instructions ---------------------===//
//
// The plain elementwise opcodes are priced in Timing.cpp by their ALU passes
// alone; the entries here read attributes or shapes.
//
//===----------------------------------------------------------------------===//
#include "UnitCost.h"
#include "lpx/isa/Attributes.h"
#include "lpx/isa/ElementwiseFunctions.h"

#include <algorithm>

using namespace lpx::isa;
using namespace lpx::isa::cost;

// The ALU passes of a generic opcode's function (ElementwiseFunctions.def);
// unknown ids were rejected by the verifier.
Cost lpx::isa::cost::functionCost(const Streams &s) {
  int64_t id = functionIdOf(s.attrs);
  const FnInfo *fn = s.op == Opcode::Unary    ? unaryFnInfo(id)
                     : s.op == Opcode::Binary ? binaryFnInfo(id)
                     : s.op == Opcode::Reduce ? reduceFnInfo(id)
                                              : argReduceFnInfo(id);
  uint64_t passes = !fn ? 1
                    : fn->passes == kTranscendentalPasses
                        ? s.chip.vxm.transcendentalPasses
                        : fn->passes;
  if (s.op == Opcode::Unary && fn && fn->convertsType())
    passes = rescalePasses(s, UnaryFn(id), passes);
  return s.vectorOp(passes);
}

// quantize and dequantize are priced by the steps they take, each one ALU
// pass as the plain opcodes (cast, mul, add, round, clip) and the division
// as div: an integer operand's conversion to f32, the multiply by `pre`
// unless it is 1, the division by the scale, the rounding, a non-zero zero
// point, the saturation and the conversion to the result; dequantize
// converts, subtracts a non-zero zero point and multiplies.
uint64_t lpx::isa::cost::rescalePasses(const Streams &s, UnaryFn fn,
                                       uint64_t divPasses) {
  const auto &params = s.attrs.unary().params();
  auto param = [&](int i) { return i < params.size() ? params[i] : 0.0; };
  const bool intIn = !s.operands.empty() && !isFloat(s.operands[0].dtype);
  if (fn == UnaryFn::Dequantize)
    return 2 + (param(1) != 0);
  return uint64_t(intIn) + (param(0) != 1) + divPasses + (param(2) != 0) + 3;
}

// Every result element reads its window: kernel-volume passes over the
// result, but never less than one pass over the input.
Cost lpx::isa::cost::poolCost(const Streams &s) {
  uint64_t window = 1;
  size_t spatial = s.result.shape.size() >= 2 ? s.result.shape.size() - 2 : 0;
  const auto &kernel = s.attrs.pool().kernel();
  for (size_t i = 0; i < spatial && int(i) < kernel.size(); ++i)
    window *= static_cast<uint64_t>(std::max<int64_t>(kernel[int(i)], 1));
  uint64_t in = s.operands.empty() ? 1 : s.vectorsOf(s.operands[0]);
  uint64_t work = std::max(in, s.vectorsOf(s.result) * window);
  return s.throughput(s.chip.vxm, work);
}

// Assumed: the VXM selects along each line either by k passes of "max, then
// mask the winner", or by a bitonic sorting network of s(s+1)/2
// compare-exchange stages, s = ceil(log2(line length)), whichever is fewer;
// every pass streams the whole input once.
Cost lpx::isa::cost::topKCost(const Streams &s) {
  const pb::TopKAttrs &a = s.attrs.top_k();
  uint64_t k = static_cast<uint64_t>(std::max<int64_t>(a.k(), 1));
  uint64_t len = 1;
  if (!s.operands.empty() && a.axis() >= 0 &&
      static_cast<size_t>(a.axis()) < s.operands[0].shape.size())
    len = static_cast<uint64_t>(
        std::max<int64_t>(s.operands[0].shape[a.axis()], 1));
  uint64_t stages = 0;
  while ((uint64_t(1) << stages) < len)
    ++stages;
  uint64_t passes =
      std::max<uint64_t>(1, std::min(k, stages * (stages + 1) / 2));
  return s.streamed(s.chip.vxm, passes);
}

// Assumed: Gaussian elimination on the VXM, n steps over the matrices, each
// a pivot search, a division and a multiply-subtract pass.
Cost lpx::isa::cost::detCost(const Streams &s) {
  uint64_t n = 1;
  if (!s.operands.empty() && s.operands[0].shape.size() >= 2)
    n = std::max<int64_t>(s.operands[0].shape.back(), 1);
  return s.vectorOp(3 * n);
}
