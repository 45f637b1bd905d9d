// RUN: lpx-opt %s -split-input-file -verify-diagnostics

func.func @self_transfer(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{transfer from node 0 to itself}}
  %0 = lpx_part.transfer %x {from = 0 : i64, to = 0 : i64} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @wrong_node(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{is placed on node 2 but delivers to node 1}}
  %0 = lpx_part.transfer %x {from = 0 : i64, to = 1 : i64, lpx_part.node = 2 : i64} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @negative_node(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{"lpx_part.node" must be a non-negative integer}}
  %0 = lpx_graph.neg %x {lpx_part.node = -1 : i64} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @negative_transfer(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{nodes must be non-negative}}
  %0 = lpx_part.transfer %x {from = -1 : i64, to = 1 : i64} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
