// RUN: lpx-opt %s -split-input-file -verify-diagnostics

func.func @not_state(%s: tensor<1x2x4x4xf32>, %k: tensor<1x2x1x4xf32>, %p: tensor<1x1xi64>) -> tensor<1x2x4x4xf32> {
  // expected-error @below {{state must be a function argument marked lpx_graph.state}}
  %0 = lpx_graph.state_write %k, %p into %s {axis = 2 : i64} : (tensor<1x2x4x4xf32>, tensor<1x2x1x4xf32>, tensor<1x1xi64>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

func.func @batch_axis(%s: tensor<1x2x4x4xf32> {lpx_graph.state}, %k: tensor<1x2x4x4xf32>, %p: tensor<1x1xi64>) -> tensor<1x2x4x4xf32> {
  // expected-error @below {{axis 0 must index a non-batch dim of 1x2x4x4}}
  %0 = lpx_graph.state_write %k, %p into %s {axis = 0 : i64} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x1xi64>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

func.func @update_shape(%s: tensor<1x2x4x4xf32> {lpx_graph.state}, %k: tensor<1x2x2x3xf32>, %p: tensor<1x2xi64>) -> tensor<1x2x4x4xf32> {
  // expected-error @below {{update must be the state's shape 1x2x4x4 with 1 to 4 positions along axis 2, of the state's element type, not 1x2x2x3}}
  %0 = lpx_graph.state_write %k, %p into %s {axis = 2 : i64} : (tensor<1x2x4x4xf32>, tensor<1x2x2x3xf32>, tensor<1x2xi64>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

func.func @too_many_positions(%s: tensor<1x2x4x4xf32> {lpx_graph.state}, %k: tensor<1x2x5x4xf32>, %p: tensor<1x5xi64>) -> tensor<1x2x4x4xf32> {
  // expected-error @below {{with 1 to 4 positions along axis 2}}
  %0 = lpx_graph.state_write %k, %p into %s {axis = 2 : i64} : (tensor<1x2x4x4xf32>, tensor<1x2x5x4xf32>, tensor<1x5xi64>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

func.func @one_position_for_two(%s: tensor<1x2x4x4xf32> {lpx_graph.state}, %k: tensor<1x2x2x4xf32>, %p: tensor<1x1xi64>) -> tensor<1x2x4x4xf32> {
  // expected-error @below {{position must be [B, n] (or [B] when n = 1) with B = 1 and n = 2 positions written}}
  %0 = lpx_graph.state_write %k, %p into %s {axis = 2 : i64} : (tensor<1x2x4x4xf32>, tensor<1x2x2x4xf32>, tensor<1x1xi64>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

func.func @positions(%s: tensor<2x2x4x4xf32> {lpx_graph.state}, %k: tensor<2x2x1x4xf32>, %p: tensor<1x1xi64>) -> tensor<2x2x4x4xf32> {
  // expected-error @below {{position must be [B, n] (or [B] when n = 1) with B = 2 and n = 1}}
  %0 = lpx_graph.state_write %k, %p into %s {axis = 2 : i64} : (tensor<2x2x4x4xf32>, tensor<2x2x1x4xf32>, tensor<1x1xi64>) -> tensor<2x2x4x4xf32>
  return %0 : tensor<2x2x4x4xf32>
}

// -----

func.func @float_position(%s: tensor<1x2x4x4xf32> {lpx_graph.state}, %k: tensor<1x2x1x4xf32>, %p: tensor<1x1xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error @below {{position must be i32 or i64}}
  %0 = lpx_graph.state_write %k, %p into %s {axis = 2 : i64} : (tensor<1x2x4x4xf32>, tensor<1x2x1x4xf32>, tensor<1x1xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

func.func @two_users(%s: tensor<1x2x4x4xf32> {lpx_graph.state}, %k: tensor<1x2x1x4xf32>, %p: tensor<1x1xi64>) -> tensor<1x2x4x4xf32> {
  // expected-error @below {{must be the state's only user}}
  %0 = lpx_graph.state_write %k, %p into %s {axis = 2 : i64} : (tensor<1x2x4x4xf32>, tensor<1x2x1x4xf32>, tensor<1x1xi64>) -> tensor<1x2x4x4xf32>
  %1 = lpx_graph.add %0, %s : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %1 : tensor<1x2x4x4xf32>
}

// -----

// Each state (or what a write left in it) is written once: a chunk writes
// after the chunk before, never beside it.
func.func @two_writes_after_one(%s: tensor<1x2x4x4xf32> {lpx_graph.state}, %k: tensor<1x2x1x4xf32>, %p: tensor<1x1xi64>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %0 = lpx_graph.state_write %k, %p into %s {axis = 2 : i64} : (tensor<1x2x4x4xf32>, tensor<1x2x1x4xf32>, tensor<1x1xi64>) -> tensor<1x2x4x4xf32>
  // expected-error @below {{must be the only write after the state it writes into}}
  %1 = lpx_graph.state_write %k, %p into %0 {axis = 2 : i64} : (tensor<1x2x4x4xf32>, tensor<1x2x1x4xf32>, tensor<1x1xi64>) -> tensor<1x2x4x4xf32>
  %2 = lpx_graph.state_write %k, %p into %0 {axis = 2 : i64} : (tensor<1x2x4x4xf32>, tensor<1x2x1x4xf32>, tensor<1x1xi64>) -> tensor<1x2x4x4xf32>
  return %1, %2 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}
