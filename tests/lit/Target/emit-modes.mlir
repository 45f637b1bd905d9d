// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-schedule --lpx-allocate-sram | lpx-translate --emit-program-text | FileCheck %s
//
// Each op fills its opcode's attribute message (InstructionOpInterface), and
// its IR mode becomes the schema's enum value of the same name.
// CHECK-DAG: pad {{.*}} {pad { mode: PAD_REFLECT begin: 0 begin: 0 begin: 1 begin: 1 end: 0 end: 0 end: 1 end: 1 }}
// CHECK-DAG: pool {{.*}} {pool { kind: POOL_AVG kernel: 2 kernel: 2 strides: 2 strides: 2 dilations: 1 dilations: 1 pads_begin: 0 pads_begin: 0 pads_end: 0 pads_end: 0 }}
// CHECK-DAG: grid_sample {{.*}} {grid_sample { mode: GRID_SAMPLE_NEAREST padding: GRID_SAMPLE_REFLECTION }}
// CHECK-DAG: scatter_elements {{.*}} {scatter { reduction: SCATTER_MAX }}
module attributes {lpx_part.num_nodes = 1 : i64} {
func.func @modes(%x: tensor<1x1x4x4xf32>, %g: tensor<1x2x2x2xf32>, %i: tensor<2xi64>, %u: tensor<2xf32>, %d: tensor<4xf32>) -> (tensor<1x1x6x6xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<4xf32>) {
  %0 = lpx_graph.pad %x {mode = #lpx_graph.pad_mode<reflect>, pads = array<i64: 0, 0, 1, 1, 0, 0, 1, 1>, lpx_part.node = 0 : i64} : (tensor<1x1x4x4xf32>) -> tensor<1x1x6x6xf32>
  %1 = lpx_graph.pool %x {kind = #lpx_graph.pool_kind<avg>, kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, lpx_part.node = 0 : i64} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  %2 = lpx_graph.grid_sample %x, %g {mode = #lpx_graph.grid_sample_mode<nearest>, padding_mode = #lpx_graph.grid_sample_padding<reflection>, lpx_part.node = 0 : i64} : (tensor<1x1x4x4xf32>, tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xf32>
  %3 = lpx_graph.scatter_elements %d, %i, %u {axis = 0 : i64, reduction = #lpx_graph.scatter_reduction<max>, lpx_part.node = 0 : i64} : (tensor<4xf32>, tensor<2xi64>, tensor<2xf32>) -> tensor<4xf32>
  return %0, %1, %2, %3 : tensor<1x1x6x6xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<4xf32>
}
}
