//===- Near.h - Element-wise comparison of float results --------*- C++ -*-===//
#ifndef LPX_TEST_NEAR_H
#define LPX_TEST_NEAR_H

#include "gtest/gtest.h"
#include <vector>

namespace lpx::test {

/// Same length and every element within `tol` of the expected value.
inline void expectNear(const std::vector<float> &got,
                       const std::vector<float> &want, float tol = 1e-6f) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want[i], tol) << "element " << i;
}

} // namespace lpx::test

#endif
