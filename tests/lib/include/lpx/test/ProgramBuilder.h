//===- ProgramBuilder.h - Programs written by hand in tests -----*- C++ -*-===//
//
// The one builder of test programs, on the test chip (TestChip.h). Two ways
// to place things, mixable:
//  - by hand, for tests that derive cycles: buffer(name, node, addr, ...),
//    inst(op, node, issue, operands, result, origin), send(node, issue, ...);
//  - laid out by the builder, for tests about values: input/output/constant
//    and buffer(name, dtype, shape, ...) at the next free 64-byte-aligned
//    address (+4, to keep kernels honest about unaligned buffers), and
//    inst(op, operands, result, attrs) issued one cycle after the previous.
// load() goes through serializeProgram and parseProgram, so the verifier
// sees every test program.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_TEST_PROGRAMBUILDER_H
#define LPX_TEST_PROGRAMBUILDER_H

#include "lpx/isa/Program.h"
#include "lpx/test/Attributes.h"
#include "lpx/test/TestChip.h"

#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

namespace lpx::test {

template <typename T> std::vector<uint8_t> bytesOf(const std::vector<T> &v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  if (!v.empty())
    std::memcpy(b.data(), v.data(), b.size());
  return b;
}

class ProgramBuilder {
public:
  explicit ProgramBuilder(uint32_t nodes = 1) : next_(nodes, 0) {
    program.set_producer("unit test");
    program.set_source_model("test.onnx");
    useChip(testChipYaml());
    program.set_num_nodes(nodes);
  }

  /// Switches to the test chip with a deskew of `cycles`.
  void setDeskew(uint32_t cycles) { useChip(testChipYaml(cycles)); }
  /// Switches to the test chip with `queues` VXM instruction queues.
  void setVxmQueues(uint32_t queues) { useChip(testChipYaml(0, queues)); }

  /// A buffer at `addr` of `node`; its byte size follows from dtype and shape.
  uint32_t buffer(const std::string &name, uint32_t node, uint64_t addr,
                  isa::DType dtype, std::initializer_list<int64_t> shape,
                  isa::pb::BufferKind kind = isa::pb::TEMP) {
    isa::pb::Buffer *b = program.add_buffers();
    b->set_name(name);
    b->set_node(node);
    b->set_addr(addr);
    b->set_dtype(uint32_t(dtype));
    uint64_t elems = 1;
    for (int64_t d : shape) {
      b->add_shape(d);
      elems *= uint64_t(d);
    }
    b->set_bytes(elems * isa::dtypeBytes(dtype));
    b->set_kind(kind);
    return uint32_t(program.buffers_size() - 1);
  }

  /// A buffer at the next free address of `node`.
  uint32_t buffer(const std::string &name, isa::DType t,
                  const std::vector<int64_t> &shape,
                  isa::pb::BufferKind kind = isa::pb::TEMP, uint32_t node = 0) {
    uint64_t elems = 1;
    for (int64_t d : shape)
      elems *= uint64_t(d);
    const uint64_t bytes = elems * isa::dtypeBytes(t);
    const uint64_t addr = next_[node] + 4;
    next_[node] += (bytes + 4 + 63) / 64 * 64 + 64;
    isa::pb::Buffer *b = program.add_buffers();
    b->set_name(name);
    b->set_node(node);
    b->set_addr(addr);
    b->set_dtype(uint32_t(t));
    for (int64_t d : shape)
      b->add_shape(d);
    b->set_bytes(bytes);
    b->set_kind(kind);
    return uint32_t(program.buffers_size() - 1);
  }
  uint32_t input(const std::string &name, isa::DType t,
                 const std::vector<int64_t> &shape, uint32_t node = 0) {
    return bind(program.add_inputs(), name,
                buffer(name, t, shape, isa::pb::INPUT, node));
  }
  uint32_t output(const std::string &name, isa::DType t,
                  const std::vector<int64_t> &shape, uint32_t node = 0) {
    return bind(program.add_outputs(), name,
                buffer(name, t, shape, isa::pb::OUTPUT, node));
  }
  /// A resident state buffer, bound as state `name` (format 3.2).
  uint32_t state(const std::string &name, isa::DType t,
                 const std::vector<int64_t> &shape, uint32_t node = 0) {
    return bind(program.add_states(), name,
                buffer(name, t, shape, isa::pb::STATE, node));
  }
  template <typename T>
  uint32_t constant(const std::string &name, isa::DType t,
                    const std::vector<int64_t> &shape,
                    const std::vector<T> &values, uint32_t node = 0) {
    uint32_t id = buffer(name, t, shape, isa::pb::CONSTANT, node);
    std::vector<uint8_t> b = bytesOf(values);
    data.addOwned(program, id, std::string(b.begin(), b.end()));
    return id;
  }

  /// An instruction issued at `issue` on `node`.
  isa::pb::Instruction &inst(isa::Opcode op, uint32_t node, uint64_t issue,
                             std::initializer_list<uint32_t> operands,
                             uint32_t result, const std::string &origin) {
    isa::pb::Instruction *i = program.add_instructions();
    i->set_opcode(uint32_t(op));
    i->set_node(node);
    i->set_issue(issue);
    for (uint32_t id : operands)
      i->add_operands(id);
    i->set_result(result);
    i->set_origin(origin);
    return *i;
  }
  /// An instruction one cycle after the previous one of this kind, with its
  /// attributes as a flat list (attributesFromList).
  isa::pb::Instruction &inst(isa::Opcode op,
                             const std::vector<uint32_t> &operands,
                             uint32_t result, const std::vector<int64_t> &attrs = {},
                             uint32_t node = 0) {
    isa::pb::Instruction &i = inst(op, node, cycle_++, {}, result,
                                   "test_" + std::string(isa::mnemonic(op)));
    for (uint32_t o : operands)
      i.add_operands(o);
    isa::pb::Attributes typed = attributesFromList(op, attrs);
    if (typed.kind_case() != isa::pb::Attributes::KIND_NOT_SET)
      *i.mutable_attributes() = std::move(typed);
    return i;
  }

  /// A send over the local link from `node` to `dst` (see Topology.h).
  isa::pb::Instruction &send(uint32_t node, uint64_t issue, uint32_t operand,
                             uint32_t result, uint32_t dst, uint64_t arrive,
                             const std::string &origin) {
    isa::pb::Instruction &i =
        inst(isa::Opcode::Send, node, issue, {operand}, result, origin);
    i.set_dst_node(dst);
    i.set_link(dst < node ? dst : dst - 1);
    i.set_arrive(arrive);
    return i;
  }
  /// The same, issued after the previous laid-out instruction.
  void send(uint32_t operand, uint32_t result, uint32_t from, uint32_t to) {
    send(from, cycle_++, operand, result, to, 0, "test_send");
  }

  isa::pb::Program &proto() { return program; }

  /// Round-trips through the file format so the verifier runs.
  llvm::Expected<isa::VerifiedProgram> load() const {
    return isa::parseProgram(isa::serializeProgram(program, data),
                             "test program");
  }

  isa::pb::Program program;
  isa::ConstantData data; // of program's constants

private:
  void useChip(const std::string &yaml) {
    program.set_chip_yaml(yaml);
    program.set_chip_hash(isa::hashText(yaml));
  }
  uint32_t bind(isa::pb::Binding *binding, const std::string &name,
                uint32_t id) {
    binding->set_name(name);
    binding->set_buffer(id);
    return id;
  }
  std::vector<uint64_t> next_;
  uint64_t cycle_ = 0;
};

} // namespace lpx::test

/// The names every test file uses unqualified. The simulator and runtime
/// test headers bring it with their own namespaces, so a test file says
/// `using namespace lpx::sim::test;` (or `rt::test`) and nothing else.
namespace lpx::test::prelude {
using namespace lpx;
using isa::DType;
using isa::Opcode;
} // namespace lpx::test::prelude

#endif
