// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition="nodes=1" -split-input-file -verify-diagnostics

// 7168 bytes of weights and 352 of input and output do not fit in one node
// of 4096 bytes; two halves of the weight (a reduction split) beside the
// input and output would.
module {
// expected-error @+1 {{model does not fit on 1 node of 'test-chip': node 0 would hold 7168 bytes of weights and 352 bytes of program inputs and outputs in 4096 bytes of SRAM (in all 7168 bytes of weights, 352 of inputs and outputs); 2 nodes would hold them}}
func.func @too_big(%x: tensor<1x56xf32>) -> tensor<1x32xf32> {
  %w = lpx_graph.constant dense<1.0> : tensor<56x32xf32>
  %0 = lpx_graph.matmul %x, %w : (tensor<1x56xf32>, tensor<56x32xf32>) -> tensor<1x32xf32>
  return %0 : tensor<1x32xf32>
}
}

// -----

// An 8000-byte input cannot be split: no chip count helps, and the error
// says so instead of asking for more nodes.
module {
// expected-error @+1 {{no chip count up to the topology's maximum of 72 holds them: with 72 nodes, node 1 still needs 0 bytes of weights and 16000 of inputs and outputs (tensors that are not split)}}
func.func @input_too_big(%x: tensor<2000xf32>) -> tensor<2000xf32> {
  %0 = lpx_graph.relu %x : tensor<2000xf32>
  return %0 : tensor<2000xf32>
}
}
