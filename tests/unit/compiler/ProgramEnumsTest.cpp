//===- ProgramEnumsTest.cpp - IR mode enums against the program schema ----===//
//
// The IR's mode enums (GraphEnums.td) and the program schema's
// (program.proto) must list the same modes: every IR case maps to the
// schema value of its name, and every schema value is reached.
//
//===----------------------------------------------------------------------===//
#include "lpx/Dialect/Graph/IR/ProgramEnums.h"

#include <gtest/gtest.h>
#include <set>

using namespace lpx::graph;
namespace pb = lpx::isa::pb;

namespace {

template <typename IREnum>
void expectSameModes(const std::string &prefix, uint32_t maxValue,
                     const google::protobuf::EnumDescriptor *schema) {
  std::set<int> reached;
  for (uint32_t v = 0; v <= maxValue; ++v) {
    auto mode = static_cast<IREnum>(v);
    int value = toProgram(mode);
    const auto *known = schema->FindValueByNumber(value);
    ASSERT_NE(known, nullptr) << stringifyEnum(mode).str();
    EXPECT_EQ(known->name(), prefix + stringifyEnum(mode).upper());
    reached.insert(value);
  }
  EXPECT_EQ(int(reached.size()), schema->value_count()) << schema->name();
}

TEST(ProgramEnums, IRModesAreTheSchemaModes) {
  expectSameModes<PadMode>("PAD_", getMaxEnumValForPadMode(),
                           pb::PadMode_descriptor());
  expectSameModes<ScatterReduction>("SCATTER_",
                                    getMaxEnumValForScatterReduction(),
                                    pb::ScatterReduction_descriptor());
  expectSameModes<PoolKind>("POOL_", getMaxEnumValForPoolKind(),
                            pb::PoolKind_descriptor());
  expectSameModes<GridSampleMode>("GRID_SAMPLE_",
                                  getMaxEnumValForGridSampleMode(),
                                  pb::GridSampleMode_descriptor());
  expectSameModes<GridSamplePadding>("GRID_SAMPLE_",
                                     getMaxEnumValForGridSamplePadding(),
                                     pb::GridSamplePadding_descriptor());
}

} // namespace
