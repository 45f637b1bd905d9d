//===- Shape.cpp - Shapes, strides and index walks for kernels ------------===//
#include "Shape.h"

using namespace lpx::rt;

std::string lpx::rt::shapeStr(llvm::ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

int64_t lpx::rt::product(llvm::ArrayRef<int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  return n;
}

Strides lpx::rt::contiguousStrides(llvm::ArrayRef<int64_t> shape) {
  Strides s(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;)
    s[d - 1] = s[d] * shape[d];
  return s;
}

llvm::Expected<Strides>
lpx::rt::broadcastStrides(llvm::ArrayRef<int64_t> operand,
                          llvm::ArrayRef<int64_t> result) {
  if (operand.size() > result.size())
    return fail("operand shape " + shapeStr(operand) +
                " does not broadcast to " + shapeStr(result));
  Strides own = contiguousStrides(operand);
  Strides s(result.size(), 0);
  size_t lead = result.size() - operand.size();
  for (size_t i = 0; i < operand.size(); ++i) {
    if (operand[i] == result[lead + i])
      s[lead + i] = operand[i] == 1 ? 0 : own[i];
    else if (operand[i] != 1)
      return fail("operand shape " + shapeStr(operand) +
                  " does not broadcast to " + shapeStr(result));
  }
  return s;
}
