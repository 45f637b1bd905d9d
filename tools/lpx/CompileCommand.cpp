//===- CompileCommand.cpp - lpx compile -----------------------------------===//
#include "Commands.h"

#include "lpx/Driver/Compile.h"
#include "lpx/isa/Program.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace lpx;
using namespace lpx::cli;

namespace {

/// "name=1x128" -> (name, {1, 128}).
llvm::Error parseShape(llvm::StringRef text, ImportOptions &opts) {
  auto [name, dims] = text.split('=');
  if (name.empty() || dims.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--input-shape '%s': expected name=1x128",
                                   text.str().c_str());
  std::vector<int64_t> shape;
  llvm::SmallVector<llvm::StringRef> parts;
  dims.split(parts, 'x');
  for (llvm::StringRef p : parts) {
    int64_t d;
    if (p.getAsInteger(10, d) || d < 0)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "--input-shape '%s': '%s' is not a non-negative dimension",
          text.str().c_str(), p.str().c_str());
    shape.push_back(d);
  }
  opts.inputShapes[name.str()] = shape;
  return llvm::Error::success();
}

llvm::Error parseConstInput(llvm::StringRef text, ImportOptions &opts) {
  auto [name, path] = text.split('=');
  if (name.empty() || path.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--const-input '%s': expected name=file.pb",
                                   text.str().c_str());
  opts.constInputs[name.str()] = path.str();
  return llvm::Error::success();
}

/// One line per diagnostic: "<where>: <message>".
std::string describe(mlir::Diagnostic &d) {
  std::string where;
  llvm::raw_string_ostream os(where);
  mlir::Location loc = d.getLocation();
  std::string message = d.str();
  if (auto name = llvm::dyn_cast<mlir::NameLoc>(loc)) {
    if (!llvm::StringRef(message).starts_with("node '"))
      os << "node '" << name.getName().str() << "': ";
  }
  else if (auto file = llvm::dyn_cast<mlir::FileLineColLoc>(loc))
    os << file.getFilename().str() << ": ";
  os << message;
  for (mlir::Diagnostic &note : d.getNotes())
    os << "; " << note.str();
  return os.str();
}

} // namespace

int lpx::cli::runCompile(const CompileArgs &args) {
  const char *cmd = "compile";
  ImportOptions importOpts;
  for (const std::string &s : args.inputShapes)
    if (auto e = parseShape(s, importOpts))
      return reportError(cmd, std::move(e));
  for (const std::string &s : args.constInputs)
    if (auto e = parseConstInput(s, importOpts))
      return reportError(cmd, std::move(e));
  std::string chipName =
      args.chip.empty() ? isa::presetNames().front() : args.chip;
  auto chip = isa::loadChipSpec(chipName);
  if (!chip)
    return reportError(cmd, chip.takeError());

  auto ctx = makeCompilerContext();
  unsigned errors = 0;
  mlir::ScopedDiagnosticHandler handler(ctx.get(), [&](mlir::Diagnostic &d) {
    if (d.getSeverity() == mlir::DiagnosticSeverity::Error) {
      ++errors;
      reportError(cmd, describe(d));
    }
    return mlir::success();
  });
  auto failedWithoutMessage = [&] {
    if (!errors)
      reportError(cmd, "cannot compile '" + args.model + "'");
    return kError;
  };
  CompileOptions opts{chipName, args.nodes};

  if (args.emit != "program") {
    StopAfter stop = args.emit == "graph"         ? StopAfter::Graph
                     : args.emit == "partitioned" ? StopAfter::Partitioned
                                                  : StopAfter::Scheduled;
    auto module = compileToIR(*ctx, args.model, importOpts, opts, stop);
    if (failed(module))
      return failedWithoutMessage();
    std::error_code ec;
    llvm::ToolOutputFile out(args.output, ec, llvm::sys::fs::OF_Text);
    if (ec)
      return reportError(cmd, "cannot write '" + args.output +
                                  "': " + ec.message());
    (*module)->print(out.os());
    out.keep();
    return kOk;
  }
  auto program = compileToProgram(*ctx, args.model, importOpts, opts, *chip);
  if (failed(program))
    return failedWithoutMessage();
  if (auto e = isa::writeProgramFile(*program, args.output))
    return reportError(cmd, std::move(e));

  unsigned sends = 0;
  for (const auto &inst : program->instructions())
    sends += inst.opcode() == uint32_t(isa::Opcode::Send);
  uint64_t weights = 0;
  for (const auto &b : program->buffers())
    if (b.kind() == isa::pb::CONSTANT)
      weights += b.bytes();
  llvm::outs() << "compiled " << llvm::sys::path::filename(args.model)
               << " for " << args.nodes << " node(s) of " << chip->name << ": "
               << program->instructions_size() << " instructions ("
               << sends << " transfers), " << weights
               << " bytes of weights -> " << args.output << "\n";
  return kOk;
}
