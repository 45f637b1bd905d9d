// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition="nodes=1" -split-input-file -verify-diagnostics

// 8192 bytes of weights do not fit in one node of 4096 bytes; two halves of
// 4096 bytes (a reduction split) would.
module {
// expected-error @+1 {{model does not fit on 1 node of 'test-chip': it needs 8192 bytes of weights, 8192 of them on one node with 4096 bytes of SRAM; 2 nodes would hold the weights}}
func.func @too_big(%x: tensor<1x64xf32>) -> tensor<1x32xf32> {
  %w = lpx_graph.constant dense<1.0> : tensor<64x32xf32>
  %0 = lpx_graph.matmul %x, %w : (tensor<1x64xf32>, tensor<64x32xf32>) -> tensor<1x32xf32>
  return %0 : tensor<1x32xf32>
}
}
