// RUN: lpx-opt %s -split-input-file -verify-diagnostics --lpx-verify-partitioned

// expected-error @+1 {{not partitioned: the module has no lpx_part.num_nodes}}
module {
func.func @no_nodes(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = lpx_graph.neg %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
}

// -----

module attributes {lpx_part.num_nodes = 2 : i64} {
func.func @unplaced(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{is not placed on a node below 2}}
  %0 = lpx_graph.neg %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
}

// -----

module attributes {lpx_part.num_nodes = 2 : i64} {
func.func @past_the_last_node(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{is not placed on a node below 2}}
  %0 = lpx_graph.neg %x {lpx_part.node = 2 : i64} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
}

// -----

// An input is on node 0; reading it on node 1 needs a transfer.
module attributes {lpx_part.num_nodes = 2 : i64} {
func.func @cross_node_use(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{reads operand 0 on node 1 but it is on node 0 (a cross-node use needs a transfer)}}
  %0 = lpx_graph.neg %x {lpx_part.node = 1 : i64} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
}

// -----

module attributes {lpx_part.num_nodes = 2 : i64} {
func.func @transfer_from_the_wrong_node(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = lpx_graph.neg %x {lpx_part.node = 0 : i64} : tensor<4xf32>
  // expected-error @+1 {{reads operand 0 on node 1 but it is on node 0}}
  %1 = lpx_part.transfer %0 {from = 1 : i64, to = 0 : i64, lpx_part.node = 0 : i64} : tensor<4xf32>
  return %1 : tensor<4xf32>
}
}

// -----

// Well formed: the value crosses through a transfer, which reads on its
// `from` node and is placed on its `to` node.
module attributes {lpx_part.num_nodes = 2 : i64} {
func.func @ok(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = lpx_graph.neg %x {lpx_part.node = 0 : i64} : tensor<4xf32>
  %1 = lpx_part.transfer %0 {from = 0 : i64, to = 1 : i64, lpx_part.node = 1 : i64} : tensor<4xf32>
  %2 = lpx_graph.relu %1 {lpx_part.node = 1 : i64} : tensor<4xf32>
  return %2 : tensor<4xf32>
}
}
