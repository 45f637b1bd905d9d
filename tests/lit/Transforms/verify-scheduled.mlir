// RUN: lpx-opt %s -split-input-file -verify-diagnostics --lpx-verify-scheduled

module attributes {lpx_part.num_nodes = 1 : i64} {
func.func @no_slot(%x: tensor<4xf32> {lpx_sched.addr = 0 : i64}) -> tensor<4xf32> {
  // expected-error @+1 {{has no issue slot (lpx_sched.slot)}}
  %0 = lpx_graph.neg %x {lpx_part.node = 0 : i64, lpx_sched.addr = 64 : i64} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
}

// -----

module attributes {lpx_part.num_nodes = 1 : i64} {
func.func @no_address(%x: tensor<4xf32> {lpx_sched.addr = 0 : i64}) -> tensor<4xf32> {
  // expected-error @+1 {{has no SRAM address (lpx_sched.addr)}}
  %0 = lpx_graph.neg %x {lpx_part.node = 0 : i64, lpx_sched.slot = #lpx_sched.slot<"vxm", 0, 1, 2>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
}

// -----

module attributes {lpx_part.num_nodes = 1 : i64} {
// expected-error @+1 {{argument 0 has no SRAM address (lpx_sched.addr)}}
func.func @argument_without_address(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = lpx_graph.neg %x {lpx_part.node = 0 : i64, lpx_sched.addr = 64 : i64, lpx_sched.slot = #lpx_sched.slot<"vxm", 0, 1, 2>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
}

// -----

module attributes {lpx_part.num_nodes = 2 : i64} {
func.func @transfer_left(%x: tensor<4xf32> {lpx_sched.addr = 0 : i64}) -> tensor<4xf32> {
  // expected-error @+1 {{is left unscheduled (a transfer becomes sends)}}
  %0 = lpx_part.transfer %x {from = 0 : i64, to = 1 : i64, lpx_part.node = 1 : i64, lpx_sched.addr = 0 : i64} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
}

// -----

// Well formed: a send carries its hop and arrives on node 1.
module attributes {lpx_part.num_nodes = 2 : i64} {
func.func @ok(%x: tensor<4xf32> {lpx_sched.addr = 0 : i64}) -> tensor<4xf32> {
  %0 = lpx_sched.send %x {from = 0 : i64, to = 1 : i64, link = 0 : i64, depart = 0 : i64, arrive = 102 : i64, lpx_sched.addr = 0 : i64, lpx_sched.slot = #lpx_sched.slot<"c2c", 0, 2, 100>} : tensor<4xf32>
  %1 = lpx_graph.relu %0 {lpx_part.node = 1 : i64, lpx_sched.addr = 64 : i64, lpx_sched.slot = #lpx_sched.slot<"vxm", 102, 1, 2>} : tensor<4xf32>
  return %1 : tensor<4xf32>
}
}
