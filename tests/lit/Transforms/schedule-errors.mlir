// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-schedule -verify-diagnostics

module attributes {lpx_part.num_nodes = 1 : i64} {
func.func @unplaced(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{is not placed on a node; run lpx-partition first}}
  %0 = lpx_graph.neg %x : tensor<2xf32>
  return %0 : tensor<2xf32>
}
}
