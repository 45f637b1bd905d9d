//===- ProgramBuilder.h - Programs for simulator tests ----------*- C++ -*-===//
//
// Tests describe a chip by its own constants (lpx/test/TestChip.h) so that every
// expected cycle count is derived in the test from numbers it controls, and
// build programs buffer by buffer. load() goes through serializeProgram and
// parseProgram so the verifier sees every test program.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_TESTS_SIM_PROGRAMBUILDER_H
#define LPX_TESTS_SIM_PROGRAMBUILDER_H

#include "lpx/isa/Program.h"
#include "lpx/sim/Simulator.h"
#include "lpx/test/TestChip.h"
#include "llvm/Support/FormatVariadic.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include <optional>

#include <initializer_list>
#include <string>
#include <vector>

namespace lpx::sim::test {

// The one test chip of the GoogleTest suites (tests/lib).
namespace chip = lpx::test::chip;
using lpx::test::testChipYaml;

constexpr uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

class ProgramBuilder {
public:
  explicit ProgramBuilder(uint32_t nodes = 1) {
    program.set_producer("simulator unit test");
    program.set_source_model("test.onnx");
    program.set_chip_yaml(testChipYaml());
    program.set_chip_hash(isa::hashText(program.chip_yaml()));
    program.set_num_nodes(nodes);
  }

  /// Switches to the test chip with a deskew of `cycles`.
  void setDeskew(uint32_t cycles) {
    program.set_chip_yaml(testChipYaml(cycles));
    program.set_chip_hash(isa::hashText(program.chip_yaml()));
  }
  /// Switches to the test chip with `queues` VXM instruction queues.
  void setVxmQueues(uint32_t queues) {
    program.set_chip_yaml(testChipYaml(0, queues));
    program.set_chip_hash(isa::hashText(program.chip_yaml()));
  }

  /// Adds a buffer; its byte size follows from dtype and shape.
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

  isa::pb::Instruction &send(uint32_t node, uint64_t issue, uint32_t operand,
                             uint32_t result, uint32_t dst, uint64_t arrive,
                             const std::string &origin) {
    isa::pb::Instruction &i =
        inst(isa::Opcode::Send, node, issue, {operand}, result, origin);
    i.set_dst_node(dst);
    // The local link to another chip of the same group (see Topology.h).
    i.set_link(dst < node ? dst : dst - 1);
    i.set_arrive(arrive);
    return i;
  }

  /// Round-trips through the file format so the verifier runs.
  llvm::Expected<isa::VerifiedProgram> load() const {
    return isa::parseProgram(isa::serializeProgram(program), "test-program");
  }

  isa::pb::Program program;
};

/// Loads and simulates, failing the test on any error.
inline bool loadAndSimulate(const ProgramBuilder &b,
                            std::optional<isa::VerifiedProgram> &prog,
                            SimResult &result, const SimOptions &opts = {}) {
  auto loaded = b.load();
  if (!loaded) {
    ADD_FAILURE() << "load: " << llvm::toString(loaded.takeError());
    return false;
  }
  prog.emplace(std::move(*loaded));
  auto sim = simulate(*prog, opts);
  if (!sim) {
    ADD_FAILURE() << "simulate: " << llvm::toString(sim.takeError());
    return false;
  }
  result = std::move(*sim);
  return true;
}

/// The hazards of one kind, in program order.
inline std::vector<Hazard> hazardsOfKind(const SimResult &r,
                                         const std::string &kind) {
  std::vector<Hazard> out;
  for (const Hazard &h : r.hazards)
    if (h.kind == kind)
      out.push_back(h);
  return out;
}

} // namespace lpx::sim::test

#endif
