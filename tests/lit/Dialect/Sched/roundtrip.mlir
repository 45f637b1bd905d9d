// RUN: lpx-opt %s | lpx-opt | FileCheck %s

// CHECK: lpx_sched.send %arg0 {arrive = 109 : i64, depart = 0 : i64, from = 0 : i64, link = 0 : i64, lpx_part.node = 1 : i64, lpx_sched.addr = 0 : i64, lpx_sched.slot = #lpx_sched.slot<"c2c", 0, 9, 100>, to = 1 : i64} : tensor<4xf32>
// CHECK: lpx_graph.neg %{{.*}} {lpx_part.node = 1 : i64, lpx_sched.addr = 64 : i64, lpx_sched.slot = #lpx_sched.slot<"vxm", 109, 1, 2>} : tensor<4xf32>
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = lpx_sched.send %x {from = 0 : i64, to = 1 : i64, link = 0 : i64, depart = 0 : i64, arrive = 109 : i64, lpx_part.node = 1 : i64, lpx_sched.addr = 0 : i64, lpx_sched.slot = #lpx_sched.slot<"c2c", 0, 9, 100>} : tensor<4xf32>
  %1 = lpx_graph.neg %0 {lpx_part.node = 1 : i64, lpx_sched.addr = 64 : i64, lpx_sched.slot = #lpx_sched.slot<"vxm", 109, 1, 2>} : tensor<4xf32>
  return %1 : tensor<4xf32>
}
