//===- TestProgram.h - Hand-built programs for runtime tests ----*- C++ -*-===//
//
// Runs programs built with the shared lpx::test::ProgramBuilder, which loads
// them through the real serializer and verifier, so tests run what a
// compiler could have emitted.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_TESTS_RUNTIME_TESTPROGRAM_H
#define LPX_TESTS_RUNTIME_TESTPROGRAM_H

#include "lpx/isa/Program.h"
#include "lpx/runtime/HostTensor.h"
#include "lpx/runtime/Runtime.h"
#include "lpx/test/ProgramBuilder.h"
#include "gtest/gtest.h"
#include <cstring>
#include <initializer_list>

namespace lpx::rt::test {

using lpx::test::bytesOf;
using lpx::test::ProgramBuilder;

template <typename T>
std::vector<T> valuesOf(const std::vector<uint8_t> &b) {
  std::vector<T> v(b.size() / sizeof(T));
  if (!v.empty())
    std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
  return v;
}

template <typename T>
HostTensor tensor(std::string name, isa::DType t, std::vector<int64_t> shape,
                  const std::vector<T> &values) {
  return HostTensor{std::move(name), t, std::move(shape), bytesOf(values)};
}

/// Loads and runs `b` on `inputs`. On failure gives no outputs and puts the
/// error text in `error`, or records a test failure when `error` is null.
inline std::vector<HostTensor> runProgram(const ProgramBuilder &b,
                                          const std::vector<HostTensor> &inputs,
                                          std::string *error = nullptr) {
  auto fail = [&](const char *stage, llvm::Error e) {
    std::string msg = llvm::toString(std::move(e));
    if (error)
      *error = msg;
    else
      ADD_FAILURE() << stage << ": " << msg;
    return std::vector<HostTensor>{};
  };
  auto lp = b.load();
  if (!lp)
    return fail("load", lp.takeError());
  auto out = execute(*lp, inputs);
  if (!out)
    return fail("execute", out.takeError());
  return std::move(*out);
}

/// Two instructions reading one input: neg = -x and relu = max(x, 0), of
/// type `t` and `shape`. The results are outputs "neg" and "relu", or, with
/// `bindOutputs` false, unbound buffers of those names the test binds.
struct NegAndRelu {
  uint32_t x, neg, relu;
};
inline NegAndRelu negAndRelu(ProgramBuilder &b, isa::DType t,
                             const std::vector<int64_t> &shape,
                             bool bindOutputs = true) {
  NegAndRelu p;
  p.x = b.input("x", t, shape);
  p.neg = bindOutputs ? b.output("neg", t, shape) : b.buffer("neg", t, shape);
  p.relu =
      bindOutputs ? b.output("relu", t, shape) : b.buffer("relu", t, shape);
  b.inst(isa::Opcode::Neg, {p.x}, p.neg);
  b.inst(isa::Opcode::Relu, {p.x}, p.relu);
  return p;
}

/// One conv-family instruction (`op`: conv or conv_transpose) on f32 x and
/// w, plus bias when it is not empty; the result's values, or none (see
/// runProgram for `error`).
inline std::vector<float>
runConvF32(isa::Opcode op, std::vector<int64_t> xs, std::vector<float> x,
           std::vector<int64_t> ws, std::vector<float> w,
           std::vector<float> bias, std::vector<int64_t> os,
           std::vector<int64_t> attrs, std::string *error = nullptr) {
  using isa::DType;
  ProgramBuilder pb;
  uint32_t xi = pb.input("x", DType::F32, xs);
  uint32_t wi = pb.input("w", DType::F32, ws);
  std::vector<uint32_t> ops{xi, wi};
  std::vector<HostTensor> in{tensor("x", DType::F32, xs, x),
                             tensor("w", DType::F32, ws, w)};
  if (!bias.empty()) {
    int64_t m = int64_t(bias.size());
    ops.push_back(pb.input("b", DType::F32, {m}));
    in.push_back(tensor("b", DType::F32, {m}, bias));
  }
  uint32_t o = pb.output("out", DType::F32, os);
  pb.inst(op, ops, o, attrs);
  auto out = runProgram(pb, in, error);
  return out.empty() ? std::vector<float>{} : valuesOf<float>(out[0].data);
}

} // namespace lpx::rt::test

// What every runtime test file names without qualification, said once:
// `using namespace lpx::rt::test;` brings all of it.
namespace lpx::rt::test {
using namespace lpx::test::prelude;
using namespace lpx::rt;
} // namespace lpx::rt::test

#endif
