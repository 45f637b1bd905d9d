//===- DecodeGenerate.cpp - Greedy generation through the CPU runtime -----===//
#include "DecodeGenerate.h"
#include "Commands.h"
#include "CompileSupport.h"

#include "lpx/Driver/Compile.h"
#include "lpx/isa/Bindings.h"
#include "lpx/isa/ChipOverrides.h"
#include "lpx/isa/Program.h"
#include "lpx/models/Export.h"
#include "lpx/runtime/Runtime.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>
#include <cstring>
#include <fmt/format.h>

using namespace lpx;
using namespace lpx::cli;

namespace {

llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// A folder removed with everything in it when this goes out of scope.
struct TempDir {
  llvm::SmallString<128> path;
  ~TempDir() {
    if (!path.empty())
      llvm::sys::fs::remove_directories(path);
  }
};

/// The ONNX file of `opts.model`: the file itself, or a preset exported
/// into `tmp` (weights with data: the runtime needs them).
llvm::Expected<std::string> modelFile(const DecodeRunOptions &opts,
                                      TempDir &tmp) {
  const models::DecoderConfig *preset = models::findPreset(opts.model);
  if (!preset) {
    if (opts.context)
      return fail("--context applies to a preset; '" + opts.model +
                  "' is not one");
    if (!llvm::sys::fs::is_regular_file(opts.model))
      return fail("'" + opts.model + "' is neither a model preset (see `lpx "
                  "models list`) nor an ONNX file");
    return opts.model;
  }
  models::ExportOptions o;
  o.context = opts.context;
  if (llvm::Error e = models::resolveOptions(*preset, o))
    return std::move(e);
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("lpx-decode", tmp.path))
    return fail("cannot make a temporary folder: " + ec.message());
  llvm::SmallString<128> file(tmp.path);
  llvm::sys::path::append(file, opts.model + ".onnx");
  if (auto summary = models::exportModel(*preset, o, file); !summary)
    return summary.takeError();
  return std::string(file);
}

/// The model compiled for `opts.chips` chips with its KV cache resident.
llvm::Expected<isa::VerifiedProgram> compileResident(const DecodeRunOptions &opts,
                                                     llvm::StringRef file) {
  std::string chipName =
      opts.chip.empty() ? isa::presetNames().front() : opts.chip;
  auto chip = isa::loadChipWithOverrides(chipName, {});
  if (!chip)
    return chip.takeError();
  auto ctx = makeCompilerContext();
  std::string firstError;
  mlir::ScopedDiagnosticHandler handler(ctx.get(), [&](mlir::Diagnostic &d) {
    if (d.getSeverity() == mlir::DiagnosticSeverity::Error && firstError.empty())
      firstError = describeDiagnostic(d);
    return mlir::success();
  });
  CompileOptions copts;
  copts.nodes = opts.chips;
  copts.residentKV = true;
  auto program = compileToProgram(*ctx, file, ImportOptions(), copts, *chip);
  if (failed(program))
    return fail(firstError.empty() ? "cannot compile '" + opts.model + "'"
                                   : firstError);
  return isa::VerifiedProgram::verify(std::move(*program), std::move(*chip));
}

/// What a decode step exchanges with the host, checked against the program.
struct StepShape {
  int64_t context = 0, vocab = 0;
};

llvm::Expected<StepShape> stepShape(const isa::pb::Program &p) {
  auto ins = isa::groupBindings(p, p.inputs());
  auto outs = isa::groupBindings(p, p.outputs());
  if (!ins || !outs)
    return fail("the program's bindings do not group");
  StepShape s;
  auto i64 = uint32_t(isa::DType::I64);
  for (const isa::HostBinding &b : *ins) {
    bool one = b.shape == std::vector<int64_t>{1, 1};
    if ((b.name == "input_ids" || b.name == "position_ids") && one &&
        b.dtype == i64)
      continue;
    if (b.name == "attention_mask" && b.shape.size() == 2 &&
        b.shape[0] == 1 && b.dtype == i64) {
      s.context = b.shape[1];
      continue;
    }
    return fail("the resident-cache program has input '" + b.name +
                "'; a decode step at batch 1 takes only input_ids [1, 1], "
                "position_ids [1, 1] and attention_mask [1, L], all i64");
  }
  for (const isa::HostBinding &b : *outs)
    if (b.name == "logits" && b.dtype == uint32_t(isa::DType::F32) &&
        !b.shape.empty())
      s.vocab = b.shape.back();
  if (!s.context || !s.vocab || ins->size() != 3)
    return fail("a decode step needs inputs input_ids, position_ids, "
                "attention_mask and an f32 output logits");
  return s;
}

rt::HostTensor int64Tensor(const char *name, std::vector<int64_t> shape,
                           const std::vector<int64_t> &values) {
  rt::HostTensor t{name, isa::DType::I64, std::move(shape), {}};
  t.data.resize(values.size() * sizeof(int64_t));
  std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}

} // namespace

llvm::Expected<DecodeRunResult>
lpx::cli::generateGreedy(const DecodeRunOptions &opts) {
  if (opts.promptIds.empty())
    return fail("--prompt-ids needs at least one token id");
  TempDir tmp;
  auto file = modelFile(opts, tmp);
  if (!file)
    return file.takeError();
  auto prog = compileResident(opts, *file);
  if (!prog)
    return prog.takeError();
  const isa::pb::Program &p = prog->program();
  auto shape = stepShape(p);
  if (!shape)
    return shape.takeError();
  const size_t steps = opts.promptIds.size() + opts.tokens - 1;
  if (int64_t(steps) > shape->context)
    return fail(llvm::Twine(opts.promptIds.size()) + " prompt tokens and " +
                llvm::Twine(opts.tokens) + " generated need " +
                llvm::Twine(steps) + " cache positions; the model holds " +
                llvm::Twine(shape->context));
  for (int64_t id : opts.promptIds)
    if (id < 0 || id >= shape->vocab)
      return fail("prompt id " + llvm::Twine(id) + " is outside the vocabulary of " +
                  llvm::Twine(shape->vocab));

  DecodeRunResult r;
  r.context = shape->context;
  for (const isa::pb::Buffer &b : p.buffers()) {
    r.hostInputBytes += b.kind() == isa::pb::INPUT ? b.bytes() : 0;
    r.hostOutputBytes += b.kind() == isa::pb::OUTPUT ? b.bytes() : 0;
    r.stateBytes += b.kind() == isa::pb::STATE ? b.bytes() : 0;
  }
  auto machine = rt::Machine::load(*prog);
  if (!machine)
    return machine.takeError();
  std::vector<int64_t> ids = opts.promptIds, mask(size_t(shape->context), 0);
  for (size_t step = 0; step < steps; ++step) {
    mask[step] = 1; // positions 0..step hold tokens; the rest is masked
    std::vector<rt::HostTensor> inputs = {
        int64Tensor("input_ids", {1, 1}, {ids[step]}),
        int64Tensor("position_ids", {1, 1}, {int64_t(step)}),
        int64Tensor("attention_mask", {1, shape->context}, mask)};
    auto outs = machine->run(inputs);
    if (!outs)
      return fail("step " + llvm::Twine(step) + ": " +
                  llvm::toString(outs.takeError()));
    auto logits = llvm::find_if(*outs, [](const rt::HostTensor &t) {
      return t.name == "logits";
    });
    std::vector<float> row(size_t(shape->vocab));
    std::memcpy(row.data(), logits->data.data(), row.size() * sizeof(float));
    if (step + 1 >= opts.promptIds.size()) {
      size_t best = 0;
      for (size_t v = 1; v < row.size(); ++v)
        if (row[v] > row[best])
          best = v;
      ids.push_back(int64_t(best));
    }
    r.logits.push_back(std::move(row));
  }
  r.generatedIds.assign(ids.begin() + opts.promptIds.size(), ids.end());
  return r;
}

llvm::Expected<std::vector<int64_t>>
lpx::cli::parseIdList(llvm::StringRef text) {
  std::vector<int64_t> ids;
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, ',');
  for (llvm::StringRef part : parts) {
    int64_t id;
    if (part.trim().getAsInteger(10, id) || id < 0)
      return fail("'" + part + "' in '" + text + "' is not a token id");
    ids.push_back(id);
  }
  return ids;
}

int lpx::cli::runDecodeGenerate(const DecodeRunOptions &opts, bool json) {
  auto r = generateGreedy(opts);
  if (!r)
    return reportError("decode", r.takeError());
  auto &os = llvm::outs();
  if (!json) {
    os << "generated " << r->generatedIds.size() << " tokens on "
       << opts.chips << " chip(s), KV cache resident (" << r->stateBytes
       << " bytes), host I/O per step " << r->hostInputBytes << " bytes in, "
       << r->hostOutputBytes << " bytes out:\n";
    for (size_t i = 0; i < r->generatedIds.size(); ++i)
      os << (i ? "," : "") << r->generatedIds[i];
    os << "\n";
    return kOk;
  }
  llvm::json::OStream j(os);
  j.object([&] {
    j.attribute("model", opts.model);
    j.attribute("chips", int64_t(opts.chips));
    j.attribute("context", r->context);
    j.attributeArray("prompt_ids", [&] {
      for (int64_t id : opts.promptIds)
        j.value(id);
    });
    j.attributeArray("generated_ids", [&] {
      for (int64_t id : r->generatedIds)
        j.value(id);
    });
    j.attribute("kv_cache_bytes", int64_t(r->stateBytes));
    j.attribute("host_input_bytes_per_step", int64_t(r->hostInputBytes));
    j.attribute("host_output_bytes_per_step", int64_t(r->hostOutputBytes));
    j.attributeArray("logits", [&] {
      for (const std::vector<float> &row : r->logits)
        j.array([&] {
          for (float v : row) { // 9 significant digits: float32 exactly
            if (std::isfinite(v))
              j.rawValue(fmt::format("{:.9g}", v));
            else
              j.value(nullptr); // JSON has no NaN or infinity
          }
        });
    });
  });
  os << "\n";
  return kOk;
}
