// RUN: lpx-opt %s --lpx-partition="nodes=9 chip=%S/../Inputs/test-chip.yaml" -verify-diagnostics

// expected-error @+1 {{9 nodes exceed the fully connected group of 8 chips of 'test-chip'}}
module {
func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = lpx_graph.neg %x : tensor<2xf32>
  return %0 : tensor<2xf32>
}
}
