//===- Commands.h - The lpx subcommands -------------------------*- C++ -*-===//
//
// Each subcommand is a function from its options to an exit code: 0 success,
// 1 the check it performs failed (hazards, mismatching outputs), 2 bad input
// or an error (the message is already printed, one line).
//
//===----------------------------------------------------------------------===//
#ifndef LPX_TOOLS_COMMANDS_H
#define LPX_TOOLS_COMMANDS_H

#include "lpx/deploy/DecodeWords.h"
#include "lpx/deploy/Speculative.h"
#include "lpx/deploy/StudyRun.h"
#include "lpx/deploy/DeploymentTarget.h"
#include "lpx/deploy/GpuCompare.h"
#include "lpx/deploy/ServeRun.h"
#include "lpx/endpoint/EndpointSetup.h"
#include "lpx/isa/AtomicFile.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace lpx::cli {

enum ExitCode { kOk = 0, kCheckFailed = 1, kError = 2 };

struct CompileArgs {
  std::string model;
  std::string output;
  std::string chip;
  unsigned nodes = 1;
  unsigned tp = 0, pp = 0;                // 0: the compiler chooses
  std::vector<std::string> inputShapes; // name=1x128
  std::vector<std::string> constInputs; // name=file.pb
  std::vector<std::string> sets;        // chip overrides: key=value
  std::string emit = "program";         // program | graph | partitioned | scheduled
  std::string weights, activations;     // number formats; empty: the model's
  bool residentKV = false;              // lpx-resident-kv
  int64_t kvContext = 0;                // its context option; 0: none
  unsigned chunks = 1;                  // lpx-unroll-chunks; 1: none
};
int runCompile(const CompileArgs &args);

/// A grid of what-if compiles and simulations; see docs/sweeps.md.
struct SweepArgs {
  std::string model;
  std::string output;                   // CSV
  std::string plot;                     // SVG, optional
  std::string chip;
  std::string nodes;                    // a list such as 1,2,4; empty: 1
  std::vector<std::string> sets;        // key=v1,v2 | key=a..b:step
  std::vector<std::string> inputShapes; // as compile
  std::vector<std::string> constInputs; // as compile
  std::string metric = "seconds"; // cycles|seconds|efficiency|tokens_per_s
  unsigned jobs = 0;                    // 0: one per hardware thread
  std::string shard;                    // "I/N": only that part of the grid
  bool sensitivity = false; // each assumption alone at its range's ends
  std::string report;       // its HTML page, optional
};
int runSweep(const SweepArgs &args);

/// Joins the part files of a sharded sweep into the unsharded result.
struct SweepMergeArgs {
  std::vector<std::string> parts;
  std::string output; // CSV
  std::string plot;   // SVG, optional
  std::string report; // a study's HTML page, optional
  std::string metric; // "": seconds, or a study's tpot_us
};
int runSweepMerge(const SweepMergeArgs &args);

struct CoverageArgs {
  std::vector<std::string> models;
  bool ops = false;
  std::string format = "text";
  std::string chip;
  std::vector<std::string> inputShapes, constInputs;
  std::string expectations;
};
int runCoverage(const CoverageArgs &args);

struct SimulateArgs {
  std::string program;
  bool json = false;
  uint64_t maxCycles = UINT64_MAX;
  std::string trace;  // Chrome/Perfetto trace-event JSON, optional
  std::string report; // self-contained HTML report, optional
  bool perLayer = false; // per-origin cycles, MACs and MXM utilisation
  bool noVectorCheck = false; // skip the vector check (SimOptions)
  bool sensitivity = false; // re-simulated over the chip's assumption ranges
  std::string output, plot; // its CSV and tornado (--report: its page)
};
int runSimulate(const SimulateArgs &args);

/// Moves one instruction earlier, to see a hazard (docs/tutorial.md).
struct PerturbArgs {
  std::string program;
  std::string output;
  uint64_t instruction = 0; // index, as `lpx inspect` numbers them
  uint64_t cycles = 1;
};
int runPerturb(const PerturbArgs &args);

struct RunArgs {
  std::string program;
  std::string dataDir;
  std::string outDir; // optional: write the outputs here
  double rtol = -1, atol = -1; // < 0: the default for the element type
  bool time = false;   // print load and per-inference wall times
  unsigned repeat = 1; // inferences to run (the last one's outputs are used)
  std::string toleranceOf;      // a number format; empty: the output's type
};
int runRun(const RunArgs &args);

struct InspectArgs {
  std::string program;
};
int runInspect(const InspectArgs &args);

/// lpx models: decoder-only LLM presets exported as ONNX.
struct ModelsExportArgs {
  std::string name;
  std::string output;
  bool shapeOnly = false, ffnOnly = false;
  std::string layers, context, batch, prompt,
      opset; // validated by runModelsExport
};
int runModelsList();
int runModelsExport(const ModelsExportArgs &args);

using deploy::DeploymentArgs;
using deploy::DeploymentNumbers;
using deploy::loadTarget;
using deploy::parseDeployment;
using deploy::parsePositive;
using deploy::unknownPresetMessage;
using deploy::StudyOptions;

/// A study (deploy/StudyRun.h) with a progress line: its summary printed,
/// an exit code; `written` receives the rows as written.
int runStudyCommand(const char *command, const deploy::StudySpec &spec,
                    const deploy::Grid &grid,
                    deploy::StudyRows *written = nullptr);

/// lpx decode: TTFT, TPOT and tokens/s of a preset on a chip (docs/decode.md).
struct DecodeArgs : deploy::DecodeWords, StudyOptions, deploy::DecodeSweepWords,
                    deploy::SpeculativeWords, deploy::CompareWords {
  bool json = false;
  bool sensitivity = false; // each assumption at the ends of its range
  std::string report;       // HTML page of one deployment
};
int runDecode(const DecodeArgs &args);
/// `lpx decode --sweep`: a study of whole deployments (DeploymentSweep.h).
int runDecodeStudy(const DecodeArgs &args);
/// `lpx decode --sensitivity`: the deployment over the chip's assumption
/// ranges (DecodeSensitivity.h).
int runDecodeSensitivity(const DecodeArgs &args);
/// `lpx decode --run`: greedy generation of `tokens` ids after each of
/// `promptIds` (one "1,2,3" per sequence, of one length; default one "1")
/// on the CPU runtime (DecodeGenerate.h), with the model, chip, --chips,
/// --context and --batch (the number of prompts) of `args`.
int runDecodeRun(const DecodeArgs &args,
                 const std::vector<std::string> &promptIds, unsigned tokens);

/// lpx serve: a workload on a deployment, from simulated steps
/// (docs/serving.md).
struct ServeArgs : DeploymentArgs, deploy::ServeWords, StudyOptions {
  std::string plot; // the study's SVG
  std::string compare; // a GPU served the same load (GpuServe.h)
};
/// `lpx serve --sweep`: a study of deployments under load (ServeStudy.h).
int runServeStudy(const ServeArgs &args);
int runServe(const ServeArgs &args);

/// lpx endpoint: an OpenAI-compatible server timed by the simulated
/// deployment (docs/endpoint.md).
struct EndpointArgs : DeploymentArgs, endpoint::EndpointWords {};
int runEndpoint(const EndpointArgs &args);

using isa::checkOutputPath;

int runChipList();
int runChipShow(const std::string &presetOrFile,
                const std::vector<std::string> &sets);
int runChipValidate(const std::string &file);
/// lpx chip keys: what --set changes, with the chip's values (ChipKeys.h).
int runChipKeys(const std::string &presetOrFile, bool json);

/// Prints "lpx <command>: error: <message>" to stderr and returns kError.
int reportError(llvm::StringRef command, llvm::Error err);
int reportError(llvm::StringRef command, llvm::StringRef message);

} // namespace lpx::cli

#endif
