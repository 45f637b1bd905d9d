// RUN: lpx-opt %s -split-input-file -verify-diagnostics
// RUN: not lpx-opt %s -split-input-file --lpx-attach-chip="chip=lpx3" 2>&1 | FileCheck %s --check-prefix=SCHEDULED

// A description that does not parse is an error where the IR is read,
// naming the key (it is parsed there, once).
// expected-error @+1 {{missing required key 'clock_mhz'}}
module attributes {lpx_part.chip = #lpx_part.chip<"name: x\n">} {
}

// -----

// expected-error @+1 {{lpx_part.chip must be a #lpx_part.chip on the module}}
module attributes {lpx_part.chip = "tsp-v1"} {
}

// -----

// The schedule is for the chip the module has: no other chip is attached
// to a scheduled module (what lpx_sched.chip used to guard).
// SCHEDULED: error: the module is already scheduled; a chip is attached before lpx-schedule
module attributes {lpx_part.num_nodes = 1 : i64} {
func.func @scheduled(%x: tensor<4xf32> {lpx_sched.addr = 0 : i64}) -> tensor<4xf32> {
  %0 = lpx_graph.neg %x {lpx_part.node = 0 : i64, lpx_sched.addr = 64 : i64, lpx_sched.slot = #lpx_sched.slot<"vxm", 0, 1, 2>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
}
