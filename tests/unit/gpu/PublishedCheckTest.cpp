//===- PublishedCheckTest.cpp - The analytic model against published figures -===//
//
// gpu/measurements/published.json holds published TensorRT-LLM, NIM and vLLM
// measurements with their sources; each is computed by the analytic model
// and the test fails when one's error passes the file's stated tolerance.
// It prints every error (docs/compare.md's table is this output).
//
//===----------------------------------------------------------------------===//
#include "lpx/gpu/GpuModel.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace lpx::gpu;

namespace {

/// What the model says of one point, in ms.
double analyticMs(const llvm::json::Object &p) {
  auto text = [&](llvm::StringRef key) {
    return p.getString(key).value_or("").str();
  };
  auto number = [&](llvm::StringRef key) {
    return int64_t(p.getInteger(key).value_or(0));
  };
  auto gpu = loadGpuSpec(text("gpu"));
  EXPECT_TRUE(bool(gpu)) << llvm::toString(gpu.takeError());
  const lpx::models::DecoderConfig *preset =
      lpx::models::findPreset(text("model"));
  EXPECT_NE(preset, nullptr) << text("model");
  auto weights = parseFormat(text("weights")), kv = parseFormat(text("kv"));
  EXPECT_TRUE(weights && kv);
  GpuDeployment d{*gpu, unsigned(number("tp")), *weights, *kv};
  const ModelShape m = ModelShape::of(*preset);
  const int64_t batch = number("batch"), input = number("input"),
                output = number("output");
  const double ttft = stepTime(d, m, Step{batch, input, input}).totalUs();
  const double step =
      stepTime(d, m, Step{batch, 1, input + output / 2}).totalUs();
  const std::string metric = text("metric");
  if (metric == "ttft_ms")
    return ttft / 1e3;
  if (metric == "itl_ms")
    return step / 1e3;
  EXPECT_EQ(metric, "e2e_ms");
  return (ttft + double(output - 1) * step) / 1e3;
}

TEST(PublishedCheck, EveryPointWithinTheTolerance) {
  auto buffer = llvm::MemoryBuffer::getFile(
      LPX_SOURCE_DIR "/gpu/measurements/published.json");
  ASSERT_TRUE(bool(buffer));
  auto json = llvm::json::parse((*buffer)->getBuffer());
  ASSERT_TRUE(bool(json)) << llvm::toString(json.takeError());
  const llvm::json::Object &root = *json->getAsObject();
  const double tolerance = *root.getNumber("tolerance");
  const llvm::json::Array &points = *root.getArray("points");
  ASSERT_GE(points.size(), 6u);
  llvm::outs() << "| point | measured ms | analytic ms | error | tolerance "
                  "| sets |\n|---|---|---|---|---|---|\n";
  double worst = 0;
  for (const llvm::json::Value &v : points) {
    const llvm::json::Object &p = *v.getAsObject();
    const double measured = *p.getNumber("value");
    const double analytic = analyticMs(p);
    const double error = (analytic - measured) / measured;
    worst = std::max(worst, std::abs(error));
    const double allowed = p.getNumber("tolerance").value_or(tolerance);
    std::string sets = p.getString("sets").value_or("").str();
    // formatv has no sign flag: the '+' of a positive error is written here.
    llvm::outs() << llvm::formatv(
        "| {0} | {1} | {2:f2} | {3}{4:f1}% | {5:f0}% | {6} |\n",
        *p.getString("id"), measured, analytic, error > 0 ? "+" : "",
        100 * error, 100 * allowed, sets.empty() ? "-" : sets);
    EXPECT_LE(std::abs(error), allowed) << p.getString("id")->str();
  }
  llvm::outs() << llvm::formatv("worst |error| {0:f1}%\n", 100 * worst);
}

} // namespace
