// RUN: lpx-opt %s -split-input-file --lpx-unroll-chunks=chunks=2 -verify-diagnostics -o /dev/null

// A step without resident state has no cache to carry from chunk to chunk.
module attributes {lpx_part.num_nodes = 1 : i64} {
// expected-error @below {{has no resident state}}
func.func @no_state(%x: tensor<1x2x4xf32> {lpx_graph.name = "x", lpx_part.node = 0 : i64}) -> tensor<1x2x4xf32> {
  %o = lpx_graph.neg %x {lpx_part.node = 0 : i64} : tensor<1x2x4xf32>
  return %o : tensor<1x2x4xf32>
}
}

// -----

// A state nothing writes: not the step of a chunk.
module attributes {lpx_part.num_nodes = 1 : i64} {
// expected-error @below {{state 0 is not written by a state_write: not a chunk step}}
func.func @unwritten(%k: tensor<1x8x4xf32> {lpx_graph.name = "present.0.key", lpx_graph.state, lpx_part.node = 0 : i64}) -> tensor<1x8x4xf32> {
  %o = lpx_graph.neg %k {lpx_part.node = 0 : i64} : tensor<1x8x4xf32>
  return %o : tensor<1x8x4xf32>
}
}
