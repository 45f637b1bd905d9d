//===- TestProgram.h - Hand-built programs for runtime tests ----*- C++ -*-===//
//
// Builds a pb::Program buffer by buffer and loads it through the real
// serializer and verifier, so tests run what a compiler could have emitted.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_TESTS_RUNTIME_TESTPROGRAM_H
#define LPX_TESTS_RUNTIME_TESTPROGRAM_H

#include "lpx/isa/Program.h"
#include "lpx/runtime/HostTensor.h"
#include "lpx/runtime/Runtime.h"
#include "lpx/test/Attributes.h"
#include "lpx/test/TestChip.h"
#include "gtest/gtest.h"
#include <cstring>
#include <initializer_list>

namespace lpx::rt::test {

template <typename T> std::vector<uint8_t> bytesOf(const std::vector<T> &v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  if (!v.empty())
    std::memcpy(b.data(), v.data(), b.size());
  return b;
}

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

class ProgramBuilder {
public:
  explicit ProgramBuilder(uint32_t nodes = 1) : next_(nodes, 0) {
    p_.set_producer("runtime unit test");
    p_.set_chip_yaml(lpx::test::testChipYaml());
    p_.set_chip_hash(isa::hashText(p_.chip_yaml()));
    p_.set_num_nodes(nodes);
  }

  /// Adds a buffer at the next free 64-byte-aligned address of `node`.
  uint32_t buffer(std::string name, isa::DType t, std::vector<int64_t> shape,
                  isa::pb::BufferKind kind = isa::pb::TEMP,
                  uint32_t node = 0) {
    isa::pb::Buffer *b = p_.add_buffers();
    uint64_t elems = 1;
    for (int64_t d : shape) {
      b->add_shape(d);
      elems *= d;
    }
    b->set_name(name);
    b->set_node(node);
    b->set_dtype(static_cast<uint32_t>(t));
    b->set_kind(kind);
    b->set_bytes(elems * isa::dtypeBytes(t));
    // Odd offsets (+4) keep kernels honest about unaligned buffers.
    b->set_addr(next_[node] + 4);
    next_[node] += (b->bytes() + 4 + 63) / 64 * 64 + 64;
    return p_.buffers_size() - 1;
  }
  uint32_t input(std::string name, isa::DType t, std::vector<int64_t> shape,
                 uint32_t node = 0) {
    uint32_t id = buffer(name, t, shape, isa::pb::INPUT, node);
    auto *bind = p_.add_inputs();
    bind->set_name(name);
    bind->set_buffer(id);
    return id;
  }
  uint32_t output(std::string name, isa::DType t, std::vector<int64_t> shape,
                  uint32_t node = 0) {
    uint32_t id = buffer(name, t, shape, isa::pb::OUTPUT, node);
    auto *bind = p_.add_outputs();
    bind->set_name(name);
    bind->set_buffer(id);
    return id;
  }
  template <typename T>
  uint32_t constant(std::string name, isa::DType t, std::vector<int64_t> shape,
                    const std::vector<T> &values, uint32_t node = 0) {
    uint32_t id = buffer(name, t, shape, isa::pb::CONSTANT, node);
    auto *c = p_.add_constants();
    c->set_buffer(id);
    std::vector<uint8_t> b = bytesOf(values);
    c->set_data(b.data(), b.size());
    return id;
  }
  isa::pb::Instruction &inst(isa::Opcode op, std::vector<uint32_t> operands,
                             uint32_t result, std::vector<int64_t> attrs = {},
                             uint32_t node = 0) {
    isa::pb::Instruction *i = p_.add_instructions();
    i->set_opcode(static_cast<uint32_t>(op));
    i->set_node(node);
    i->set_issue(cycle_++);
    for (uint32_t o : operands)
      i->add_operands(o);
    i->set_result(result);
    isa::pb::Attributes typed = lpx::test::attributesFromList(op, attrs);
    if (typed.kind_case() != isa::pb::Attributes::KIND_NOT_SET)
      *i->mutable_attributes() = std::move(typed);
    i->set_origin("test_" + std::string(isa::mnemonic(op)));
    return *i;
  }
  void send(uint32_t operand, uint32_t result, uint32_t from, uint32_t to) {
    isa::pb::Instruction &i = inst(isa::Opcode::Send, {operand}, result, {}, from);
    i.set_dst_node(to);
    // The local link to another chip of the same group (see Topology.h).
    i.set_link(to < from ? to : to - 1);
  }

  isa::pb::Program &proto() { return p_; }

  /// Serializes and loads through isa::parseProgram (header, hash, verifier).
  llvm::Expected<isa::VerifiedProgram> load() const {
    return isa::parseProgram(isa::serializeProgram(p_), "test program");
  }

private:
  isa::pb::Program p_;
  std::vector<uint64_t> next_;
  uint64_t cycle_ = 0;
};

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

#endif
