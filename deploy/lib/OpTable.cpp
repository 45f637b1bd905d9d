//===- OpTable.cpp - The global operator coverage table -------------------===//
//
// Generated entirely from code and data: the ONNX schema registry (ops,
// versions, type constraints), the importer's list of handled ops, and the
// node-test expectation list that CI keeps true. Nothing here is written by
// hand except the short notes on what must be a compile-time constant.
//
//===----------------------------------------------------------------------===//
#include "lpx/deploy/OpTable.h"

#include "lpx/Import/ONNXImporter.h"
#include "lpx/Import/OpsetVersions.h"
#include "onnx/defs/schema.h"
#include "onnx/onnx_pb.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace lpx::deploy;

namespace {

constexpr const char *kNodeTests = "/usr/share/libonnx-testdata/data/node";

/// Element types the chip and runtime hold (ONNX type strings).
const std::set<std::string> kChipTypes = {
    "tensor(float)",  "tensor(double)", "tensor(float16)", "tensor(bfloat16)",
    "tensor(int8)",   "tensor(int16)",  "tensor(int32)",   "tensor(int64)",
    "tensor(uint8)",  "tensor(uint16)", "tensor(uint32)",  "tensor(uint64)",
    "tensor(bool)"};

struct TestTally {
  unsigned pass = 0, total = 0;
};

/// Per op type: how many tests of `dir` using it pass, from the expectations
/// (added to `tally`).
llvm::Error tallyTests(const std::string &expectations, const char *dir,
                       std::map<std::string, TestTally> &tally) {
  std::ifstream in(expectations);
  if (!in)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot read '%s'", expectations.c_str());
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ss(line);
    std::string test, outcome;
    if (!(ss >> test >> outcome) || test[0] == '#')
      continue;
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, test, "model.onnx");
    auto file = llvm::MemoryBuffer::getFile(path);
    onnx::ModelProto model;
    if (!file || !model.ParseFromArray((*file)->getBufferStart(),
                                       int((*file)->getBufferSize())))
      continue;
    std::set<std::string> ops;
    for (const auto &n : model.graph().node())
      ops.insert(n.op_type());
    for (const std::string &op : ops) {
      tally[op].total++;
      tally[op].pass += outcome == "pass";
    }
  }
  return llvm::Error::success();
}

/// The node tests' tally plus those of the generated tests (tests/data/
/// opset18plus and ifconversion), whose lists (expectations_NAME.txt) sit
/// beside the node tests' one.
llvm::Expected<std::map<std::string, TestTally>>
tallyNodeTests(const std::string &expectations) {
  std::map<std::string, TestTally> tally;
  if (expectations.empty())
    return tally;
  if (llvm::Error e = tallyTests(expectations, kNodeTests, tally))
    return std::move(e);
  for (llvm::StringRef generated : {"opset18plus", "ifconversion"}) {
    llvm::SmallString<256> list(llvm::sys::path::parent_path(expectations));
    llvm::sys::path::append(list, "expectations_" + generated + ".txt");
    llvm::SmallString<256> dir(llvm::sys::path::parent_path(expectations));
    llvm::sys::path::append(dir, "..", "data", generated);
    if (llvm::sys::fs::exists(list))
      if (llvm::Error e = tallyTests(std::string(list), dir.c_str(), tally))
        return std::move(e);
  }
  return tally;
}

/// Versions of an op as OperatorKernels.md writes them: "13+", "[7, 12]".
std::vector<std::string> versionRanges(const std::vector<int> &since) {
  std::vector<std::string> out;
  for (size_t i = 0; i < since.size(); ++i)
    out.push_back(i + 1 < since.size()
                      ? llvm::formatv("[{0}, {1}]", since[i], since[i + 1] - 1)
                            .str()
                      : std::to_string(since[i]) + "+");
  return out;
}

std::string limitsOf(const std::string &op) {
  static const std::map<std::string, std::string> notes = {
      {"Reshape", "shape must be a compile-time constant"},
      {"Slice", "starts, ends, axes and steps must be compile-time constants"},
      {"Squeeze", "axes must be a compile-time constant"},
      {"Unsqueeze", "axes must be a compile-time constant"},
      {"Cast", "no string targets"},
  };
  auto it = notes.find(op);
  return it == notes.end() ? "" : it->second;
}

struct Row {
  std::string domain, op;
  std::vector<std::string> versions;
  std::vector<std::string> types;
  bool supported = false; // compiled, and every node test using it passes
  bool partial = false;   // compiled, but some of its node tests fail
  std::string limits;
  TestTally tests;
};

} // namespace

llvm::Error lpx::deploy::writeOpTable(ReportFormat f,
                                   const std::string &expectations,
                                   llvm::raw_ostream &os) {
  auto tally = tallyNodeTests(expectations);
  if (!tally)
    return tally.takeError();
  std::vector<std::string> handled = lpx::supportedOnnxOps();
  std::set<std::string> supported(handled.begin(), handled.end());

  // Schemas grouped by (domain, op), versions sorted.
  std::map<std::pair<std::string, std::string>, std::vector<const onnx::OpSchema *>>
      byOp;
  // A copy: the registry returns the list by value and rows point into it.
  const std::vector<onnx::OpSchema> schemas =
      onnx::OpSchemaRegistry::get_all_schemas_with_history();
  for (const onnx::OpSchema &s : schemas) {
    if (s.domain() != "" && s.domain() != "ai.onnx.ml")
      continue;
    if (s.Deprecated())
      continue;
    byOp[{s.domain(), s.Name()}].push_back(&s);
  }
  // Default-domain versions of opsets 18 to 23 and ai.onnx.ml ones of 4
  // and 5 (lpx/Import/OpsetVersions.h): ONNX 1.12 has no schema for them.
  std::map<std::pair<std::string, std::string>,
           std::vector<const lpx::OpVersionEntry *>>
      newer;
  auto addNewer = [&](const char *domain,
                      llvm::ArrayRef<lpx::OpVersionEntry> entries, int newest) {
    for (const lpx::OpVersionEntry &e : entries)
      if (e.since <= newest) {
        newer[{domain, e.op}].push_back(&e);
        byOp[{domain, e.op}]; // an op new since 17 (ml: 3) gets a row
      }
  };
  addNewer("", lpx::newerOpVersions(), lpx::kNewestOpset);
  addNewer("ai.onnx.ml", lpx::newerMlOpVersions(), lpx::kNewestMlOpset);
  std::vector<Row> rows;
  for (auto &[key, versions] : byOp) {
    std::sort(versions.begin(), versions.end(), [](auto *a, auto *b) {
      return a->since_version() < b->since_version();
    });
    Row r;
    r.domain = key.first;
    r.op = key.second;
    std::vector<int> since;
    for (auto *s : versions)
      since.push_back(s->since_version());
    bool handled = r.domain.empty() && supported.count(r.op);
    r.limits = limitsOf(r.op);
    auto later = newer.find(key);
    if (later != newer.end())
      for (const lpx::OpVersionEntry *e : later->second) {
        since.push_back(e->since);
        handled &= e->how != lpx::VersionHandling::Unsupported;
        // A new op is handled by its decomposition.
        handled |= versions.empty() && e->how == lpx::VersionHandling::Decomposed;
        if (*e->note)
          r.limits += (r.limits.empty() ? "" : "; ") + std::to_string(e->since) +
                      ": " + e->note;
      }
    r.versions = versionRanges(since);
    std::set<std::string> types;
    if (!versions.empty()) {
      for (const auto &tc : versions.back()->typeConstraintParams())
        for (const std::string &t : tc.allowed_type_strs)
          if (kChipTypes.count(t))
            types.insert(t.substr(7, t.size() - 8)); // strip "tensor(" ")"
    } else {
      for (llvm::StringRef t : lpx::newOpElementTypes(r.op))
        types.insert(t.str());
    }
    r.types.assign(types.begin(), types.end());
    if (r.domain.empty() && tally->count(r.op))
      r.tests = tally->at(r.op);
    r.supported = handled && r.tests.pass == r.tests.total;
    r.partial = handled && !r.supported;
    rows.push_back(r);
  }

  unsigned nSupported = 0;
  for (const Row &r : rows)
    nSupported += r.supported;
  auto join = [](const std::vector<std::string> &v, const char *sep) {
    std::string out;
    for (size_t i = 0; i < v.size(); ++i)
      out += (i ? sep : "") + v[i];
    return out;
  };
  auto status = [](const Row &r) {
    return r.supported ? "yes" : r.partial ? "partial" : "no";
  };
  auto testsText = [&](const Row &r) {
    return r.tests.total ? llvm::formatv("{0}/{1}", r.tests.pass, r.tests.total)
                               .str()
                         : std::string("-");
  };

  switch (f) {
  case ReportFormat::Json: {
    llvm::json::Array all;
    for (const Row &r : rows)
      all.push_back(llvm::json::Object{
          {"domain", r.domain.empty() ? "ai.onnx" : r.domain},
          {"op", r.op},
          {"versions", r.versions},
          {"types", r.types},
          {"supported", status(r)},
          {"limitations", r.limits},
          {"node_tests_passing", r.tests.pass},
          {"node_tests", r.tests.total}});
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(all))) << "\n";
    return llvm::Error::success();
  }
  case ReportFormat::Text:
    for (const Row &r : rows)
      os << llvm::formatv("{0,-12} {1,-36} {2,-11} {3}\n",
                          r.domain.empty() ? "ai.onnx" : r.domain, r.op,
                          status(r), testsText(r));
    os << nSupported << "/" << rows.size() << " operators supported\n";
    return llvm::Error::success();
  case ReportFormat::Markdown:
  case ReportFormat::Html:
    break;
  }
  os << "# Operator coverage\n\n"
        "Generated by `lpx coverage --ops --format md --expectations "
        "tests/nodetests/expectations.txt`; do not edit by hand (CI checks it "
        "is current). Operators are those of the installed ONNX schema "
        "registry (ONNX 1.12, opsets up to 17, ai.onnx.ml up to 3), the "
        "default-domain op versions of opsets 18 to 23 the importer rewrites "
        "to opset 17 and the ai.onnx.ml versions of its opsets 4 and 5 "
        "(compiler/include/lpx/Import/OpsetVersions.h, whose notes are the "
        "limitations given by version; lpx compiles no ai.onnx.ml op); "
        "versions are the schema "
        "versions (OperatorKernels.md style); types are the ones the chip "
        "holds; node tests count the ONNX backend node tests using the op "
        "that pass end to end (import, compile for 1 and 4 chips, simulate, "
        "run, compare), plus the generated tests of tests/data/opset18plus "
        "and tests/data/ifconversion (expectations_opset18plus.txt and "
        "expectations_ifconversion.txt, onnxruntime's outputs). An operator "
        "is `yes` when lpx compiles it (every version listed) and every "
        "test using it passes, `partial` when some fail (see "
        "tests/nodetests/expectations.txt for why).\n\n";
  os << nSupported << " of " << rows.size() << " operators supported.\n\n";
  os << "| domain | op | versions | types | supported | node tests | "
        "limitations |\n|---|---|---|---|---|---|---|\n";
  for (const Row &r : rows)
    os << "| " << (r.domain.empty() ? "ai.onnx" : r.domain) << " | " << r.op
       << " | " << join(r.versions, ", ") << " | " << join(r.types, ", ")
       << " | " << status(r) << " | " << testsText(r)
       << " | " << r.limits << " |\n";
  return llvm::Error::success();
}
