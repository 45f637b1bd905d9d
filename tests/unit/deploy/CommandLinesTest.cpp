//===- CommandLinesTest.cpp - What lpx compile and coverage say -----------===//
//
// `lpx compile`'s line of what it wrote (CompileSupport.h) counted from a
// program made here, and coverage's format names (CoverageFormat.h).
//
//===----------------------------------------------------------------------===//
#include "lpx/deploy/CompileSupport.h"
#include "lpx/deploy/CoverageFormat.h"
#include "lpx/isa/Opcode.h"

#include <gtest/gtest.h>

using namespace lpx;
using namespace lpx::deploy;

TEST(CommandLines, CompiledLineCountsSendsAndConstantBytes) {
  isa::pb::Program p;
  for (isa::Opcode op :
       {isa::Opcode::MatMul, isa::Opcode::Send, isa::Opcode::Send,
        isa::Opcode::Relu})
    p.add_instructions()->set_opcode(uint32_t(op));
  for (auto [kind, bytes] : {std::pair{isa::pb::CONSTANT, 4096},
                             {isa::pb::INPUT, 512},
                             {isa::pb::CONSTANT, 100}}) {
    isa::pb::Buffer *b = p.add_buffers();
    b->set_kind(kind);
    b->set_bytes(bytes);
  }
  // 2 sends; 4096 + 100 bytes of constants (the input is not a weight).
  EXPECT_EQ(compiledLine(p, "models/mlp/model.onnx", 4, "tsp-v1", false,
                         "out.lpxb"),
            "compiled model.onnx for 4 node(s) of tsp-v1: 4 instructions (2 "
            "transfers), 4196 bytes of weights -> out.lpxb");
  EXPECT_NE(compiledLine(p, "m.onnx", 1, "lpx3", true, "o").find(
                "of lpx3 (modified): "),
            std::string::npos);
}

TEST(CommandLines, CoverageFormatsByName) {
  auto md = reportFormatNamed("md");
  ASSERT_TRUE(bool(md));
  EXPECT_EQ(*md, ReportFormat::Markdown);
  auto xml = reportFormatNamed("xml");
  ASSERT_FALSE(bool(xml));
  EXPECT_EQ(llvm::toString(xml.takeError()),
            "unknown format 'xml' (text, md, json, html)");
}
