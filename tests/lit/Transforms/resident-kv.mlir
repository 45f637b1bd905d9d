// RUN: lpx-opt %s --lpx-resident-kv -split-input-file -verify-diagnostics | FileCheck %s

// One layer's K cache of an HF-optimum decode step: past [1, 2, 3, 4] is
// concatenated with the new entry along the sequence axis into present
// [1, 2, 4, 4], which attention reads and the step returns. The past input
// becomes the resident state of all 4 positions, the concat a state_write at
// position_ids, and present is no longer an output (the logits remain).
// CHECK-LABEL: func.func @k_cache
// CHECK-SAME: (%[[IDS:.*]]: tensor<1x1xi64> {lpx_graph.name = "position_ids"},
// CHECK-SAME: %[[PAST:.*]]: tensor<1x2x4x4xf32> {lpx_graph.name = "present.0.key", lpx_graph.state},
// CHECK-SAME: %[[K:.*]]: tensor<1x2x1x4xf32> {lpx_graph.name = "k"})
// CHECK-SAME: -> tensor<1x2x4x4xf32>
// CHECK-SAME: lpx_graph.outputs = ["logits"]
// CHECK-NEXT: %[[S:.*]] = lpx_graph.state_write %[[K]], %[[IDS]] into %[[PAST]] {axis = 2 : i64}
// CHECK-NEXT: %[[R:.*]] = lpx_graph.neg %[[S]]
// CHECK-NEXT: return %[[R]] : tensor<1x2x4x4xf32>
func.func @k_cache(%pos: tensor<1x1xi64> {lpx_graph.name = "position_ids"},
                   %past: tensor<1x2x3x4xf32> {lpx_graph.name = "past_key_values.0.key"},
                   %k: tensor<1x2x1x4xf32> {lpx_graph.name = "k"})
    -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>)
    attributes {lpx_graph.outputs = ["logits", "present.0.key"]} {
  %0 = lpx_graph.concat %past, %k {axis = 2 : i64} : (tensor<1x2x3x4xf32>, tensor<1x2x1x4xf32>) -> tensor<1x2x4x4xf32>
  %1 = lpx_graph.neg %0 : tensor<1x2x4x4xf32>
  return %1, %0 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}

// -----

// After lpx-convert-types the cache is held in the activations' format:
// the state takes the concat's type (f16) and both casts go.
// CHECK-LABEL: func.func @converted
// CHECK-SAME: tensor<2x1x3x2xf16> {lpx_graph.name = "present", lpx_graph.state}
// CHECK-SAME: -> tensor<2x1x3x2xf16>
// CHECK-NEXT: lpx_graph.state_write {{.*}} {axis = 2 : i64} : (tensor<2x1x3x2xf16>, tensor<2x1x1x2xf16>, tensor<2xi32>) -> tensor<2x1x3x2xf16>
// CHECK-NOT: lpx_graph.cast
// CHECK: return
func.func @converted(%pos: tensor<2xi32> {lpx_graph.name = "position_ids"},
                     %past: tensor<2x1x2x2xf32> {lpx_graph.name = "past"},
                     %k: tensor<2x1x1x2xf16>)
    -> (tensor<2x1x3x2xf32>, tensor<2x1x3x2xf16>)
    attributes {lpx_graph.outputs = ["present", "y"]} {
  %c = lpx_graph.cast %past : tensor<2x1x2x2xf32> to tensor<2x1x2x2xf16>
  %0 = lpx_graph.concat %c, %k {axis = 2 : i64} : (tensor<2x1x2x2xf16>, tensor<2x1x1x2xf16>) -> tensor<2x1x3x2xf16>
  %o = lpx_graph.cast %0 : tensor<2x1x3x2xf16> to tensor<2x1x3x2xf32>
  %1 = lpx_graph.neg %0 : tensor<2x1x3x2xf16>
  return %o, %1 : tensor<2x1x3x2xf32>, tensor<2x1x3x2xf16>
}

// -----

// Attention reads K as K^T (GPT-2: transpose(0, 1, 3, 2) of present): the
// state is kept transposed, [1, 2, 4(hd), 5(L)], the entry [1, 2, 1, 4] is
// written as the column [1, 2, 4, 1] at axis 3, and the transpose goes.
// CHECK-LABEL: func.func @k_transposed
// CHECK-SAME: %[[PAST:arg[0-9]+]]: tensor<1x2x4x5xf32> {lpx_graph.name = "present.0.key", lpx_graph.state}
// CHECK-NEXT: %[[E:.*]] = lpx_graph.reshape %arg2 : tensor<1x2x1x4xf32> to tensor<1x2x4x1xf32>
// CHECK-NEXT: %[[S:.*]] = lpx_graph.state_write %[[E]], %arg0 into %[[PAST]] {axis = 3 : i64}
// CHECK-NEXT: lpx_graph.matmul %arg3, %[[S]] : (tensor<1x2x1x4xf32>, tensor<1x2x4x5xf32>) -> tensor<1x2x1x5xf32>
func.func @k_transposed(%pos: tensor<1x1xi64> {lpx_graph.name = "position_ids"},
                        %past: tensor<1x2x4x4xf32> {lpx_graph.name = "past_key_values.0.key"},
                        %k: tensor<1x2x1x4xf32>, %q: tensor<1x2x1x4xf32>)
    -> (tensor<1x2x1x5xf32>, tensor<1x2x5x4xf32>)
    attributes {lpx_graph.outputs = ["scores", "present.0.key"]} {
  %0 = lpx_graph.concat %past, %k {axis = 2 : i64} : (tensor<1x2x4x4xf32>, tensor<1x2x1x4xf32>) -> tensor<1x2x5x4xf32>
  %t = lpx_graph.transpose %0 {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x2x5x4xf32>) -> tensor<1x2x4x5xf32>
  %s = lpx_graph.matmul %q, %t : (tensor<1x2x1x4xf32>, tensor<1x2x4x5xf32>) -> tensor<1x2x1x5xf32>
  return %s, %0 : tensor<1x2x1x5xf32>, tensor<1x2x5x4xf32>
}

// -----

// Grouped-query attention (Llama): repeat_kv (unsqueeze, expand, reshape)
// between the cache and the transpose leaves the last two dims alone, so
// it reads the transposed state as well: [1, 1, 4, 3] -> [1, 1, 2, 4, 3]
// -> [1, 2, 4, 3].
// CHECK-LABEL: func.func @k_grouped
// CHECK-SAME: tensor<1x1x4x3xf32> {lpx_graph.name = "present.0.key", lpx_graph.state}
// CHECK: lpx_graph.state_write {{.*}} {axis = 3 : i64} : (tensor<1x1x4x3xf32>, tensor<1x1x4x1xf32>, tensor<1x1xi64>) -> tensor<1x1x4x3xf32>
// CHECK-NEXT: lpx_graph.reshape {{.*}} : tensor<1x1x4x3xf32> to tensor<1x1x1x4x3xf32>
// CHECK-NEXT: lpx_graph.broadcast {{.*}} : (tensor<1x1x1x4x3xf32>) -> tensor<1x1x2x4x3xf32>
// CHECK-NEXT: lpx_graph.reshape {{.*}} : tensor<1x1x2x4x3xf32> to tensor<1x2x4x3xf32>
// CHECK-NOT: lpx_graph.transpose
// CHECK: return
func.func @k_grouped(%pos: tensor<1x1xi64> {lpx_graph.name = "position_ids"},
                     %past: tensor<1x1x2x4xf32> {lpx_graph.name = "past_key_values.0.key"},
                     %k: tensor<1x1x1x4xf32>)
    -> (tensor<1x2x4x3xf32>, tensor<1x1x3x4xf32>)
    attributes {lpx_graph.outputs = ["kt", "present.0.key"]} {
  %0 = lpx_graph.concat %past, %k {axis = 2 : i64} : (tensor<1x1x2x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x1x3x4xf32>
  %1 = lpx_graph.reshape %0 : tensor<1x1x3x4xf32> to tensor<1x1x1x3x4xf32>
  %2 = lpx_graph.broadcast %1 : (tensor<1x1x1x3x4xf32>) -> tensor<1x1x2x3x4xf32>
  %3 = lpx_graph.reshape %2 : tensor<1x1x2x3x4xf32> to tensor<1x2x3x4xf32>
  %t = lpx_graph.transpose %3 {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x2x3x4xf32>) -> tensor<1x2x4x3xf32>
  return %t, %0 : tensor<1x2x4x3xf32>, tensor<1x1x3x4xf32>
}

// -----

// A concat along the batch axis is not a cache append.
// expected-error @below {{no KV cache to keep resident}}
func.func @not_an_append(%pos: tensor<1x1xi64> {lpx_graph.name = "position_ids"},
                         %past: tensor<1x2x3x4xf32>, %k: tensor<2x2x3x4xf32>)
    -> tensor<3x2x3x4xf32> {
  %0 = lpx_graph.concat %past, %k {axis = 0 : i64} : (tensor<1x2x3x4xf32>, tensor<2x2x3x4xf32>) -> tensor<3x2x3x4xf32>
  return %0 : tensor<3x2x3x4xf32>
}

// -----

// A prefill into the cache (`lpx models export --prompt 3 --context 5`):
// past [1, 2, 2, 4] and the prompt's three entries make the same state of
// 5 positions as the decode step's, written at the three position_ids
// [1, 3]. Attention reads K^T, so the state is [1, 2, 4, 5] as in the
// step, and the entries are transposed into three columns (not reshaped:
// three positions are not one).
// CHECK-LABEL: func.func @prefill
// CHECK-SAME: %[[PAST:arg[0-9]+]]: tensor<1x2x4x5xf32> {lpx_graph.name = "present.0.key", lpx_graph.state}
// CHECK-NEXT: %[[E:.*]] = lpx_graph.transpose %arg2 {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x2x3x4xf32>) -> tensor<1x2x4x3xf32>
// CHECK-NEXT: %[[S:.*]] = lpx_graph.state_write %[[E]], %arg0 into %[[PAST]] {axis = 3 : i64} : (tensor<1x2x4x5xf32>, tensor<1x2x4x3xf32>, tensor<1x3xi64>) -> tensor<1x2x4x5xf32>
// CHECK-NEXT: lpx_graph.matmul %arg3, %[[S]] : (tensor<1x2x3x4xf32>, tensor<1x2x4x5xf32>) -> tensor<1x2x3x5xf32>
func.func @prefill(%pos: tensor<1x3xi64> {lpx_graph.name = "position_ids"},
                   %past: tensor<1x2x2x4xf32> {lpx_graph.name = "past_key_values.0.key"},
                   %k: tensor<1x2x3x4xf32>, %q: tensor<1x2x3x4xf32>)
    -> (tensor<1x2x3x5xf32>, tensor<1x2x5x4xf32>)
    attributes {lpx_graph.outputs = ["scores", "present.0.key"]} {
  %0 = lpx_graph.concat %past, %k {axis = 2 : i64} : (tensor<1x2x2x4xf32>, tensor<1x2x3x4xf32>) -> tensor<1x2x5x4xf32>
  %t = lpx_graph.transpose %0 {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x2x5x4xf32>) -> tensor<1x2x4x5xf32>
  %s = lpx_graph.matmul %q, %t : (tensor<1x2x3x4xf32>, tensor<1x2x4x5xf32>) -> tensor<1x2x3x5xf32>
  return %s, %0 : tensor<1x2x3x5xf32>, tensor<1x2x5x4xf32>
}

// -----

// expected-error @below {{no input named 'position_ids'}}
func.func @no_positions(%past: tensor<1x2x3x4xf32>, %k: tensor<1x2x1x4xf32>)
    -> tensor<1x2x4x4xf32> {
  %0 = lpx_graph.concat %past, %k {axis = 2 : i64} : (tensor<1x2x3x4xf32>, tensor<1x2x1x4xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

// expected-error @below {{one position per batch row and new entry ([B, 1], B = 1)}}
func.func @prefill_positions(%pos: tensor<1x3xi64> {lpx_graph.name = "position_ids"},
                             %past: tensor<1x2x3x4xf32>, %k: tensor<1x2x1x4xf32>)
    -> tensor<1x2x4x4xf32> {
  %0 = lpx_graph.concat %past, %k {axis = 2 : i64} : (tensor<1x2x3x4xf32>, tensor<1x2x1x4xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}
