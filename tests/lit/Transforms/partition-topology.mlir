// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition="nodes=9" -verify-diagnostics
// RUN: not lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition="nodes=80" 2>&1 | FileCheck %s --check-prefix=TOO-MANY

// Groups of 8 with one global link per chip join at most 8 * (8 + 1) = 72
// chips, in whole groups.
// TOO-MANY: 80 chips exceed the 72 that 'test-chip' can join (groups of 8 with 1 global links per chip)

// expected-error @+1 {{9 chips do not fill whole groups of 8 on 'test-chip'}}
module {
func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = lpx_graph.neg %x : tensor<2xf32>
  return %0 : tensor<2xf32>
}
}
