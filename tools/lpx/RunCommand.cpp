//===- RunCommand.cpp - lpx run -------------------------------------------===//
#include "Commands.h"

#include "lpx/isa/NumberFormats.h"
#include "lpx/isa/Program.h"
#include "lpx/runtime/Compare.h"
#include "lpx/runtime/Runtime.h"
#include "lpx/runtime/TensorFile.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <optional>

using namespace lpx;
using namespace lpx::cli;

namespace {

/// Test-data files normally carry the graph's names; unnamed ones are
/// matched by position.
void nameByPosition(std::vector<rt::HostTensor> &tensors,
                    const google::protobuf::RepeatedPtrField<isa::pb::Binding> &b) {
  // A tensor bound in pieces has several bindings of one name: position i
  // is the i-th distinct name.
  std::vector<std::string> names;
  llvm::StringSet<> seen;
  for (const isa::pb::Binding &bind : b)
    if (seen.insert(bind.name()).second)
      names.push_back(bind.name());
  for (size_t i = 0; i < tensors.size() && i < names.size(); ++i)
    if (tensors[i].name.empty())
      tensors[i].name = names[i];
}

/// ONNX 1.12's test data predates numpy bfloat16 and stores bf16 tensors as
/// their uint16 bit patterns; read those as the bf16 the program expects.
void adoptBf16BitPatterns(
    std::vector<rt::HostTensor> &tensors, const isa::VerifiedProgram &prog,
    const google::protobuf::RepeatedPtrField<isa::pb::Binding> &bindings) {
  for (rt::HostTensor &t : tensors)
    for (const isa::pb::Binding &b : bindings) {
      const isa::pb::Buffer &buf = prog.program().buffers(int(b.buffer()));
      if (b.name() == t.name && t.dtype == isa::DType::U16 &&
          buf.dtype() == uint32_t(isa::DType::BF16))
        t.dtype = isa::DType::BF16;
    }
}

/// A data file given for an input folded at compile time (--const-input)
/// must hold the value it was folded to: the program cannot use another.
llvm::Error checkFoldedInputs(const std::vector<rt::HostTensor> &inputs,
                              const isa::pb::Program &program) {
  for (const isa::pb::FoldedInput &f : program.folded_inputs())
    for (const rt::HostTensor &t : inputs) {
      if (t.name != f.name())
        continue;
      auto folded = rt::parseTensorProto(f.tensor(), "folded input '" + f.name() + "'");
      if (!folded)
        return folded.takeError();
      if (folded->dtype != t.dtype || folded->shape != t.shape ||
          folded->data != t.data)
        return llvm::createStringError(
            llvm::inconvertibleErrorCode(),
            "input '%s' was folded into the program at compile time "
            "(--const-input) and the data gives it a different value; "
            "recompile with this value, or leave it out of the data",
            f.name().c_str());
    }
  return llvm::Error::success();
}

/// Wall-clock seconds since `start`.
double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

void printTimes(double load, std::vector<double> runs) {
  std::sort(runs.begin(), runs.end());
  llvm::outs() << llvm::formatv("time: load {0:f3} s, inference {1:f3} s "
                                "(median of {2}, fastest {3:f3} s)\n",
                                load, runs[runs.size() / 2], runs.size(),
                                runs.front());
}

/// The number format whose tolerances float outputs get: --tolerance-of,
/// else the coarser of the formats the program was compiled with; empty
/// for each output's own type. `source` says which, for the printed line.
std::string toleranceFormat(const RunArgs &args, const isa::pb::Program &p,
                            std::string &source) {
  if (!args.toleranceOf.empty()) {
    source = "--tolerance-of";
    return args.toleranceOf;
  }
  std::string f =
      rt::toleranceFormat(p.weights_format(), p.activations_format()).str();
  if (p.weights_format().empty() && p.activations_format().empty()) {
    source = "the program keeps the model's formats";
    return f;
  }
  auto name = [](const std::string &n) {
    return n.empty() ? std::string("the model's") : n;
  };
  source = "the program's formats: weights " + name(p.weights_format()) +
           ", activations " + name(p.activations_format());
  return f;
}

/// The element type whose tolerances an output gets: that of `format` for a
/// float output (fp32: its own type), else its own.
isa::DType toleranceType(isa::DType output, llvm::StringRef format) {
  auto t = isa::floatFormatType(std::string_view(format.data(), format.size()));
  if (!t || *t == isa::DType::F32 || !isa::isFloat(output))
    return output;
  return *t;
}

} // namespace

int lpx::cli::runRun(const RunArgs &args) {
  const char *cmd = "run";
  auto loadStart = std::chrono::steady_clock::now();
  auto prog = isa::readProgramFile(args.program);
  if (!prog)
    return reportError(cmd, prog.takeError());
  auto machine = rt::Machine::load(*prog);
  if (!machine)
    return reportError(cmd, machine.takeError());
  double loadSeconds = secondsSince(loadStart);
  auto inputs = rt::readTestDataDir(args.dataDir, "input");
  if (!inputs)
    return reportError(cmd, inputs.takeError());
  nameByPosition(*inputs, prog->program().inputs());
  adoptBf16BitPatterns(*inputs, *prog, prog->program().inputs());
  if (auto e = checkFoldedInputs(*inputs, prog->program()))
    return reportError(cmd, std::move(e));
  auto expected = rt::readTestDataDir(args.dataDir, "output");
  if (!expected)
    return reportError(cmd, expected.takeError());
  nameByPosition(*expected, prog->program().outputs());
  adoptBf16BitPatterns(*expected, *prog, prog->program().outputs());
  if (expected->empty() && args.outDir.empty())
    return reportError(cmd, "no output_N.pb in '" + args.dataDir +
                                "' to compare with (use --out DIR to write "
                                "the outputs instead)");

  std::optional<std::vector<rt::HostTensor>> outputs;
  std::vector<double> runSeconds;
  for (unsigned i = 0; i < args.repeat; ++i) {
    auto start = std::chrono::steady_clock::now();
    auto result = machine->run(*inputs);
    if (!result)
      return reportError(cmd, result.takeError());
    runSeconds.push_back(secondsSince(start));
    outputs = std::move(*result);
  }
  if (args.time)
    printTimes(loadSeconds, runSeconds);

  if (!args.outDir.empty())
    for (size_t i = 0; i < outputs->size(); ++i) {
      llvm::SmallString<256> path(args.outDir);
      llvm::sys::path::append(path, "output_" + std::to_string(i) + ".pb");
      if (auto e = rt::writeTensorProto((*outputs)[i], path))
        return reportError(cmd, std::move(e));
    }
  if (expected->empty())
    return kOk;

  std::string source;
  std::string format = toleranceFormat(args, prog->program(), source);
  const char *given =
      args.rtol >= 0 || args.atol >= 0 ? "; --rtol/--atol given" : "";
  if (format.empty()) {
    llvm::outs() << "tolerance: each output's own type (" << source << ")"
                 << given << "\n";
  } else {
    rt::Tolerance t =
        rt::defaultTolerance(toleranceType(isa::DType::F32, format));
    llvm::outs() << "tolerance: " << format << " (rtol "
                 << llvm::format("%.9g", args.rtol >= 0 ? args.rtol : t.rtol)
                 << ", atol "
                 << llvm::format("%.9g", args.atol >= 0 ? args.atol : t.atol)
                 << ") for floating-point outputs, " << source << given
                 << "\n";
  }
  bool allOk = true;
  for (const rt::HostTensor &want : *expected) {
    const rt::HostTensor *got = nullptr;
    for (const rt::HostTensor &o : *outputs)
      if (o.name == want.name)
        got = &o;
    if (!got)
      return reportError(cmd, "expected output '" + want.name +
                                  "' is not an output of the program");
    rt::Tolerance tol =
        rt::defaultTolerance(toleranceType(want.dtype, format));
    if (args.rtol >= 0)
      tol.rtol = args.rtol;
    if (args.atol >= 0)
      tol.atol = args.atol;
    rt::CompareResult r = rt::compareTensors(want, *got, tol.rtol, tol.atol);
    allOk &= r.ok;
    llvm::outs() << llvm::formatv(
        "{0}: {1} (worst abs error {2:e}, worst rel error {3:e}{4})\n",
        want.name, r.ok ? "match" : "MISMATCH", r.worstAbsError,
        r.worstRelError, r.ok ? "" : "; " + r.message);
  }
  llvm::outs() << (allOk ? "all outputs match\n"
                         : "outputs differ from the expected values\n");
  return allOk ? kOk : kCheckFailed;
}
