//===- Disassemble.cpp - Program file to stable text ----------------------===//
#include "lpx/isa/Disassemble.h"
#include "lpx/isa/UnitOps.h"

#include "llvm/Support/FormatVariadic.h"
#include <google/protobuf/text_format.h>

using namespace lpx::isa;

static std::string shapeText(const pb::Buffer &b) {
  std::string s;
  for (int i = 0; i < b.shape_size(); ++i)
    s += (i ? "x" : "") + std::to_string(b.shape(i));
  return (s.empty() ? "" : s + "x") +
         std::string(dtypeName(static_cast<DType>(b.dtype())));
}

// The attributes in protobuf text format on one line, e.g.
// `pad { mode: PAD_REFLECT begin: 1 end: 1 }`.
static std::string attributesText(const pb::Attributes &a) {
  google::protobuf::TextFormat::Printer printer;
  printer.SetSingleLineMode(true);
  std::string text;
  printer.PrintToString(a, &text);
  while (!text.empty() && text.back() == ' ')
    text.pop_back();
  return text;
}

static const char *kindText(pb::BufferKind k) {
  switch (k) {
  case pb::INPUT: return "input";
  case pb::OUTPUT: return "output";
  case pb::CONSTANT: return "const";
  case pb::TEMP: return "temp";
  case pb::STATE: return "state";
  default: return "?";
  }
}

void lpx::isa::disassemble(const VerifiedProgram &prog, llvm::raw_ostream &os) {
  const pb::Program &p = prog.program();
  os << "program: " << p.source_model() << " for " << p.num_nodes()
     << " node(s) of " << prog.chip().name << " (" << p.producer() << ")\n";
  if (p.tp())
    os << "placement: tensor-parallel groups of " << p.tp() << " x "
       << p.pp() << " pipeline stage(s)\n";
  if (!p.weights_format().empty() || !p.activations_format().empty())
    os << "formats: weights "
       << (p.weights_format().empty() ? "the model's" : p.weights_format())
       << ", activations "
       << (p.activations_format().empty() ? "the model's"
                                          : p.activations_format())
       << "\n";
  os << "buffers:\n";
  for (int i = 0; i < p.buffers_size(); ++i) {
    const pb::Buffer &b = p.buffers(i);
    os << llvm::formatv("  %{0,-5} node {1} @{2,-10} {3,-6} {4,-24} {5}\n", i,
                        b.node(), b.addr(), kindText(b.kind()), shapeText(b),
                        b.name());
  }
  for (uint32_t node = 0; node < p.num_nodes(); ++node) {
    os << "node " << node << ":\n";
    for (const pb::Instruction &inst : p.instructions()) {
      if (inst.node() != node)
        continue;
      Opcode op = opcodeOf(inst);
      Cost c = instructionCost(prog.chip(), p, inst);
      std::string queue = std::string(unitName(unitOf(op)));
      if (op == Opcode::Send)
        queue = "link" + std::to_string(inst.link());
      else if (queueCount(prog.chip(), unitOf(op)) > 1) // as the report names it
        queue += std::to_string(inst.queue());
      os << llvm::formatv("  {0,10} {1,-6} {2,-12}", inst.issue(), queue,
                          mnemonic(op));
      os << " %" << inst.result();
      if (op == Opcode::Send)
        os << "@node" << inst.dst_node();
      os << " <-";
      for (uint32_t id : inst.operands())
        os << " %" << id;
      if (inst.has_attributes())
        os << " {" << attributesText(inst.attributes()) << "}";
      os << llvm::formatv("  busy {0} lat {1}", c.busy, c.latency);
      if (op == Opcode::Send)
        os << " arrive " << inst.arrive();
      if (!inst.origin().empty())
        os << "  ; " << inst.origin();
      os << "\n";
    }
  }
}
