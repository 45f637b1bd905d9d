// RUN: lpx-opt %s -split-input-file -verify-diagnostics

func.func @arrives_early(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{arrives (5) before it departs (10)}}
  %0 = lpx_sched.send %x {from = 0 : i64, to = 1 : i64, link = 0 : i64, depart = 10 : i64, arrive = 5 : i64} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @zero_busy(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{an instruction is busy for at least a cycle}}
  %0 = lpx_graph.neg %x {lpx_sched.slot = #lpx_sched.slot<"vxm", 0, 0, 2>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @bad_addr(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{lpx_sched.addr must be a non-negative integer}}
  %0 = lpx_graph.neg %x {lpx_sched.addr = "zero"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
