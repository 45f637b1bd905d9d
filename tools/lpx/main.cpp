//===- main.cpp - The lpx command line ------------------------------------===//
//
// Only argument parsing lives here; each subcommand is in its own file.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "lpx/isa/ChipSpec.h"
#include <CLI/CLI.hpp>

using namespace lpx::cli;

int main(int argc, char **argv) {
  CLI::App app{"lpx: compile ONNX models for an LPX-like dataflow chip, "
               "simulate them cycle by cycle and run them on the CPU"};
  app.require_subcommand(1);
  std::string defaultChip = lpx::isa::presetNames().front();

  CompileArgs compile;
  auto *c = app.add_subcommand("compile", "Compile an ONNX model into a program");
  c->add_option("model", compile.model, "ONNX model file")->required();
  c->add_option("-o,--output", compile.output, "Output file")->required();
  c->add_option("--chip", compile.chip,
                "Chip preset or description file (default: " + defaultChip + ")");
  c->add_option("--nodes", compile.nodes, "Number of nodes (chips)")
      ->check(CLI::Range(1u, 1u << 20));
  c->add_option("--input-shape", compile.inputShapes,
                "Pin an input's shape: name=1x128 (repeatable)");
  c->add_option("--const-input", compile.constInputs,
                "Fold an input to a constant from a TensorProto file: "
                "name=file.pb (repeatable)");
  c->add_option("--emit", compile.emit,
                "What to write: program, or the IR after a level: graph, "
                "partitioned, scheduled")
      ->check(CLI::IsMember({"program", "graph", "partitioned", "scheduled"}));

  SimulateArgs simulate;
  auto *s = app.add_subcommand("simulate", "Simulate a program cycle by cycle");
  s->add_option("program", simulate.program, "Program file")->required();
  s->add_flag("--json", simulate.json, "Machine-readable output");
  s->add_option("--max-cycles", simulate.maxCycles,
                "Stop with an error past this cycle");

  RunArgs run;
  auto *r = app.add_subcommand("run", "Run a program on the CPU runtime and "
                                      "compare with expected outputs");
  r->add_option("program", run.program, "Program file")->required();
  r->add_option("--data", run.dataDir,
                "Folder with input_N.pb (and output_N.pb to compare)")
      ->required();
  r->add_option("--out", run.outDir, "Write the outputs as output_N.pb here");
  r->add_option("--rtol", run.rtol, "Relative tolerance");
  r->add_option("--atol", run.atol, "Absolute tolerance");

  InspectArgs inspect;
  auto *i = app.add_subcommand("inspect", "Print a program's instruction "
                                          "streams per node");
  i->add_option("program", inspect.program, "Program file")->required();

  auto *chip = app.add_subcommand("chip", "Chip descriptions");
  chip->require_subcommand(1);
  chip->add_subcommand("list", "List the built-in presets");
  std::string showName = defaultChip, validateFile;
  chip->add_subcommand("show", "Print a resolved chip description")
      ->add_option("chip", showName, "Preset or file");
  chip->add_subcommand("validate", "Check a chip description file")
      ->add_option("file", validateFile, "Description file")
      ->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    if (e.get_exit_code() == 0)
      return app.exit(e);
    app.exit(e);
    return kError;
  }
  if (c->parsed())
    return runCompile(compile);
  if (s->parsed())
    return runSimulate(simulate);
  if (r->parsed())
    return runRun(run);
  if (i->parsed())
    return runInspect(inspect);
  if (chip->got_subcommand("list"))
    return runChipList();
  if (chip->got_subcommand("show"))
    return runChipShow(showName);
  if (chip->got_subcommand("validate"))
    return runChipValidate(validateFile);
  return kError;
}
