// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition="nodes=4 tp=4 pp=2" -verify-diagnostics

// A placement larger than the nodes compiled for is a clear error.
module {
// expected-error @+1 {{--tp 4 --pp 2 needs 8 nodes; compiling for 4}}
func.func @mlp(%x: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %w = lpx_graph.constant dense<1.0> : tensor<8x8xf32>
  %0 = lpx_graph.matmul %x, %w : (tensor<1x1x8xf32>, tensor<8x8xf32>) -> tensor<1x1x8xf32>
  return %0 : tensor<1x1x8xf32>
}
}
