// RUN: lpx-opt %s --lpx-resident-kv="context=6" -split-input-file -verify-diagnostics | FileCheck %s

// The prefill of a 3-token prompt exported without a past: K and V are
// returned as present.0.key/.value [1, 2, 3, 4]. With context 6 each
// becomes a state of 6 positions named as the output, written at
// position_ids [1, 3], and the outputs go. Attention keeps reading the
// three entries it computed. K reaches attention's transpose, so its state
// is K^T [1, 2, 4, 6] (as the decode step keeps it) and the entries are
// transposed into columns; V's state is [1, 2, 6, 4].
// CHECK-LABEL: func.func @prefill
// CHECK-SAME: %[[K:arg1]]: tensor<1x2x3x4xf32>
// CHECK-SAME: %[[V:arg2]]: tensor<1x2x3x4xf32>
// CHECK-SAME: %[[KS:arg[0-9]+]]: tensor<1x2x4x6xf32> {lpx_graph.name = "present.0.key", lpx_graph.state}
// CHECK-SAME: %[[VS:arg[0-9]+]]: tensor<1x2x6x4xf32> {lpx_graph.name = "present.0.value", lpx_graph.state}
// CHECK-SAME: -> tensor<1x2x3x4xf32>
// CHECK-SAME: lpx_graph.outputs = ["out"]
// CHECK-DAG: %[[KT:.*]] = lpx_graph.transpose %[[K]] {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x2x3x4xf32>) -> tensor<1x2x4x3xf32>
// CHECK-DAG: lpx_graph.state_write %[[KT]], %arg0 into %[[KS]] {axis = 3 : i64} : (tensor<1x2x4x6xf32>, tensor<1x2x4x3xf32>, tensor<1x3xi64>) -> tensor<1x2x4x6xf32>
// CHECK-DAG: lpx_graph.state_write %[[V]], %arg0 into %[[VS]] {axis = 2 : i64} : (tensor<1x2x6x4xf32>, tensor<1x2x3x4xf32>, tensor<1x3xi64>) -> tensor<1x2x6x4xf32>
// CHECK-DAG: %[[T:.*]] = lpx_graph.transpose %[[K]] {perm = array<i64: 0, 1, 3, 2>}
// CHECK-DAG: %[[S:.*]] = lpx_graph.matmul %arg3, %[[T]]
// CHECK-DAG: lpx_graph.matmul %[[S]], %[[V]]
func.func @prefill(%pos: tensor<1x3xi64> {lpx_graph.name = "position_ids"},
                   %k: tensor<1x2x3x4xf32>, %v: tensor<1x2x3x4xf32>,
                   %q: tensor<1x2x3x4xf32>)
    -> (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>)
    attributes {lpx_graph.outputs = ["out", "present.0.key", "present.0.value"]} {
  %t = lpx_graph.transpose %k {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x2x3x4xf32>) -> tensor<1x2x4x3xf32>
  %s = lpx_graph.matmul %q, %t : (tensor<1x2x3x4xf32>, tensor<1x2x4x3xf32>) -> tensor<1x2x3x3xf32>
  %o = lpx_graph.matmul %s, %v : (tensor<1x2x3x3xf32>, tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  return %o, %k, %v : tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>
}

// -----

// A prompt longer than the cache cannot be kept in it.
// expected-error @below {{output 'present.0.key' is not [B, heads, S, head dim] with 'position_ids' [B, S] and S at most the 6 positions of the cache}}
func.func @too_long(%pos: tensor<1x8xi64> {lpx_graph.name = "position_ids"},
                    %k: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32>
    attributes {lpx_graph.outputs = ["present.0.key"]} {
  return %k : tensor<1x2x8x4xf32>
}

// -----

// Without a cache pair or a present output there is nothing to keep.
// expected-error @below {{no KV cache to keep resident: no input is concatenated with new entries into an output, and no output is named present.*}}
func.func @nothing(%pos: tensor<1x3xi64> {lpx_graph.name = "position_ids"},
                   %k: tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
    attributes {lpx_graph.outputs = ["y"]} {
  return %k : tensor<1x2x3x4xf32>
}
