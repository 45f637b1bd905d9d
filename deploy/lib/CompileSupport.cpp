//===- CompileSupport.cpp - MLIR diagnostics as one line ------------------===//
#include "lpx/deploy/CompileSupport.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "lpx/isa/Opcode.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace lpx;

std::string lpx::deploy::describeDiagnostic(mlir::Diagnostic &d) {
  std::string where;
  llvm::raw_string_ostream os(where);
  mlir::Location loc = d.getLocation();
  std::string message = d.str();
  if (auto name = llvm::dyn_cast<mlir::NameLoc>(loc)) {
    if (!llvm::StringRef(message).starts_with("node '"))
      os << "node '" << name.getName().str() << "': ";
  } else if (auto file = llvm::dyn_cast<mlir::FileLineColLoc>(loc))
    os << file.getFilename().str() << ": ";
  os << message;
  for (mlir::Diagnostic &note : d.getNotes())
    os << "; " << note.str();
  return os.str();
}

llvm::StringRef lpx::deploy::withoutFile(llvm::StringRef message,
                                      llvm::StringRef file) {
  llvm::StringRef rest = message;
  return rest.consume_front(file) && rest.consume_front(": ") ? rest
                                                               : message;
}

std::string lpx::deploy::compiledLine(const isa::pb::Program &program,
                                      llvm::StringRef modelFile,
                                      unsigned nodes, llvm::StringRef chip,
                                      bool modified, llvm::StringRef output) {
  unsigned sends = 0;
  for (const auto &inst : program.instructions())
    sends += inst.opcode() == uint32_t(isa::Opcode::Send);
  uint64_t weights = 0;
  for (const auto &b : program.buffers())
    if (b.kind() == isa::pb::CONSTANT)
      weights += b.bytes();
  return "compiled " + llvm::sys::path::filename(modelFile).str() + " for " +
         std::to_string(nodes) + " node(s) of " + chip.str() +
         (modified ? " (modified)" : "") + ": " +
         std::to_string(program.instructions_size()) + " instructions (" +
         std::to_string(sends) + " transfers), " + std::to_string(weights) +
         " bytes of weights -> " + output.str();
}
