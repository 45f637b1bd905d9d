//===- TestData.cpp - Test data matched to a program, and its tolerance ---===//
#include "lpx/runtime/TestData.h"

#include "lpx/isa/NumberFormats.h"
#include "lpx/runtime/Compare.h"
#include "lpx/runtime/TensorFile.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

using namespace lpx;
using namespace lpx::rt;

void lpx::rt::matchToBindings(
    std::vector<HostTensor> &tensors, const isa::VerifiedProgram &prog,
    const google::protobuf::RepeatedPtrField<isa::pb::Binding> &bindings) {
  // A tensor bound in pieces has several bindings of one name: position i
  // is the i-th distinct name.
  std::vector<std::string> names;
  llvm::StringSet<> seen;
  for (const isa::pb::Binding &b : bindings)
    if (seen.insert(b.name()).second)
      names.push_back(b.name());
  for (size_t i = 0; i < tensors.size() && i < names.size(); ++i)
    if (tensors[i].name.empty())
      tensors[i].name = names[i];
  for (HostTensor &t : tensors)
    for (const isa::pb::Binding &b : bindings) {
      const isa::pb::Buffer &buf = prog.program().buffers(int(b.buffer()));
      if (b.name() == t.name && t.dtype == isa::DType::U16 &&
          buf.dtype() == uint32_t(isa::DType::BF16))
        t.dtype = isa::DType::BF16;
    }
}

llvm::Error lpx::rt::checkFoldedInputs(const std::vector<HostTensor> &inputs,
                                       const isa::pb::Program &program) {
  for (const isa::pb::FoldedInput &f : program.folded_inputs())
    for (const HostTensor &t : inputs) {
      if (t.name != f.name())
        continue;
      auto folded =
          parseTensorProto(f.tensor(), "folded input '" + f.name() + "'");
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

ToleranceChoice lpx::rt::chooseTolerance(const std::string &toleranceOf,
                                         const isa::pb::Program &p) {
  if (!toleranceOf.empty())
    return {toleranceOf, "--tolerance-of"};
  std::string f =
      toleranceFormat(p.weights_format(), p.activations_format()).str();
  if (p.weights_format().empty() && p.activations_format().empty())
    return {f, "the program keeps the model's formats"};
  auto name = [](const std::string &n) {
    return n.empty() ? std::string("the model's") : n;
  };
  return {f, "the program's formats: weights " + name(p.weights_format()) +
                 ", activations " + name(p.activations_format())};
}

isa::DType lpx::rt::toleranceType(isa::DType output, llvm::StringRef format) {
  auto t = isa::floatFormatType(std::string_view(format.data(), format.size()));
  if (!t || *t == isa::DType::F32 || !isa::isFloat(output))
    return output;
  return *t;
}

std::string lpx::rt::toleranceLine(const ToleranceChoice &choice, double rtol,
                                   double atol) {
  std::string line;
  llvm::raw_string_ostream os(line);
  const char *given = rtol >= 0 || atol >= 0 ? "; --rtol/--atol given" : "";
  if (choice.format.empty()) {
    os << "tolerance: each output's own type (" << choice.source << ")"
       << given;
    return line;
  }
  Tolerance t = defaultTolerance(toleranceType(isa::DType::F32, choice.format));
  os << "tolerance: " << choice.format << " (rtol "
     << llvm::format("%.9g", rtol >= 0 ? rtol : t.rtol) << ", atol "
     << llvm::format("%.9g", atol >= 0 ? atol : t.atol)
     << ") for floating-point outputs, " << choice.source << given;
  return line;
}

llvm::Expected<bool>
lpx::rt::compareOutputs(const std::vector<HostTensor> &expected,
                        const std::vector<HostTensor> &outputs,
                        llvm::StringRef format, double rtol, double atol,
                        llvm::raw_ostream &os) {
  bool allOk = true;
  for (const HostTensor &want : expected) {
    const HostTensor *got = nullptr;
    for (const HostTensor &o : outputs)
      if (o.name == want.name)
        got = &o;
    if (!got)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "expected output '" + want.name +
                                         "' is not an output of the program");
    Tolerance tol = defaultTolerance(toleranceType(want.dtype, format));
    if (rtol >= 0)
      tol.rtol = rtol;
    if (atol >= 0)
      tol.atol = atol;
    CompareResult r = compareTensors(want, *got, tol.rtol, tol.atol);
    allOk &= r.ok;
    os << llvm::formatv(
        "{0}: {1} (worst abs error {2:e}, worst rel error {3:e}{4})\n",
        want.name, r.ok ? "match" : "MISMATCH", r.worstAbsError,
        r.worstRelError, r.ok ? "" : "; " + r.message);
  }
  os << (allOk ? "all outputs match\n"
               : "outputs differ from the expected values\n");
  return allOk;
}

llvm::Expected<ProgramTestData>
lpx::rt::readProgramTestData(llvm::StringRef dir,
                             const isa::VerifiedProgram &prog) {
  ProgramTestData data;
  auto inputs = readTestDataDir(dir, "input");
  if (!inputs)
    return inputs.takeError();
  data.inputs = std::move(*inputs);
  matchToBindings(data.inputs, prog, prog.program().inputs());
  if (auto e = checkFoldedInputs(data.inputs, prog.program()))
    return std::move(e);
  auto expected = readTestDataDir(dir, "output");
  if (!expected)
    return expected.takeError();
  data.expected = std::move(*expected);
  matchToBindings(data.expected, prog, prog.program().outputs());
  return data;
}
