// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-schedule --lpx-allocate-sram -verify-diagnostics

// Two 2048-byte inputs fill the 4096-byte SRAM; the result has no room.
module attributes {lpx_part.num_nodes = 1 : i64} {
func.func @full(%x: tensor<512xf32>, %y: tensor<512xf32>) -> tensor<512xf32> {
  // expected-error @+1 {{node 0 is out of SRAM: 2048 more bytes needed with 4096 of 4096 in use and 2 bank ranges busy while it is written, at cycle 0 of the schedule (inputs, outputs and weights stay for the whole program; temporaries until their last reader)}}
  %0 = lpx_graph.add %x, %y {lpx_part.node = 0 : i64} : (tensor<512xf32>, tensor<512xf32>) -> tensor<512xf32>
  return %0 : tensor<512xf32>
}
}
